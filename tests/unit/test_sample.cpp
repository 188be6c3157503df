// FieldSnapshot::sample with and without boundary values (the edge arrays).
#include <gtest/gtest.h>

#include "core/snapshot.hpp"

using namespace flowlua;

namespace {

// 4 x 2 cells of size 0.25 x 0.5, value = 10 i + j.
FieldSnapshot field() {
  FieldSnapshot f;
  f.name = "u";
  f.grid = Grid::make(4, 2, 1.0, 1.0);
  for (int j = 1; j <= 2; ++j)
    for (int i = 1; i <= 4; ++i) f.values.push_back(10 * i + j);
  return f;
}

}  // namespace

TEST(Sample, CentresAndMidpointsInside) {
  FieldSnapshot f = field();
  EXPECT_DOUBLE_EQ(f.sample(0.125, 0.25), 11);
  EXPECT_DOUBLE_EQ(f.sample(0.375, 0.75), 22);
  EXPECT_DOUBLE_EQ(f.sample(0.25, 0.5), 0.25 * (11 + 21 + 12 + 22));
}

TEST(Sample, WithoutBoundaryValuesTheNearestCentreIsRepeated) {
  FieldSnapshot f = field();
  EXPECT_DOUBLE_EQ(f.sample(0.125, 1.0), 12);  // top side at the first column
  EXPECT_DOUBLE_EQ(f.sample(0.0, 0.25), 11);
  EXPECT_DOUBLE_EQ(f.sample(1.0, 0.0), 41);  // corner
}

TEST(Sample, BoundaryValuesAreReadOnTheSideAndBlendedInTheHalfCell) {
  FieldSnapshot f = field();
  f.edge[int(Side::Top)] = {1, 1, 1, 1};
  f.edge[int(Side::Left)] = {0, 0};
  EXPECT_DOUBLE_EQ(f.sample(0.5, 1.0), 1);
  EXPECT_DOUBLE_EQ(f.sample(0.0, 0.25), 0);
  // A quarter of a cell below the top side: halfway between the top centre and the side.
  EXPECT_DOUBLE_EQ(f.sample(0.375, 1.0 - 0.125), 0.5 * (22 + 1));
  // The top-left corner: the mean of its sides.
  EXPECT_DOUBLE_EQ(f.sample(0.0, 1.0), 0.5);
  // The bottom side has no values: the nearest centre.
  EXPECT_DOUBLE_EQ(f.sample(0.625, 0.0), 31);
  // Outside: clamped onto the boundary.
  EXPECT_DOUBLE_EQ(f.sample(0.5, 7.0), 1);
}
