// The one-block SOR variant (linalg/rbsor_block.hpp, issue 12) in the kernel plan:
// chosen on CUDA where p of the grid with its ghosts fits one block's shared memory,
// the fused sweep above that, never on the CPU, with a periodic side or on several
// ranks; forcing it where it does not fit is an error that says why. The plan is
// plain C++, so this runs without a GPU; the kernel itself is held to the two-colour
// kernels on the device (tests/gpu/test_cuda_block_sor.cpp).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/error.hpp"
#include "linalg/rbsor_block.hpp"
#include "models/projection/projection_kernels.hpp"
#include "projection_test_cases.hpp"

using namespace flowlua;

namespace {

std::string pressure_variant(const ProjectionConfig& c, const char* backend, bool open, int ranks = 1,
                             const std::map<std::string, std::string>& forced = {}) {
  return projection::kernel_registry().plan(projection::kernel_key(c, backend, open, ranks), forced).variant("pressure");
}

ProjectionConfig cavity(int nx, int ny, Precision prec) {
  ProjectionConfig c = test::lid_cavity(nx, PressureSolverKind::RedBlackSOR, 1e-6, 100);
  c.grid = Grid::make(nx, ny, 1.0, 1.0);
  c.precision = prec;
  return c;
}

}  // namespace

TEST(BlockSorPlan, LayoutFitsOneBlock) {
  // 128^2 float: p, rhs and flags all in shared memory (2 x 130^2 x 4 + 130^2 x 2 bytes).
  BlockSorLayout l = block_sor_layout(128, 128, 4, true);
  EXPECT_TRUE(l.fits && l.rhs_shared && l.flags_shared);
  EXPECT_EQ(l.bytes, std::size_t(130 * 130) * (4 + 4 + 2));
  // 128^2 double: p (135,200 bytes) fits, rhs beside it does not; the flags do.
  l = block_sor_layout(128, 128, 8, true);
  EXPECT_TRUE(l.fits);
  EXPECT_FALSE(l.rhs_shared);
  EXPECT_TRUE(l.flags_shared);
  EXPECT_EQ(l.bytes, std::size_t(130 * 130) * (8 + 2));
  // The largest square grids: p alone at the 227 KiB limit.
  EXPECT_TRUE(block_sor_layout(239, 239, 4, false).fits);
  EXPECT_FALSE(block_sor_layout(240, 240, 4, false).fits);
  EXPECT_TRUE(block_sor_layout(168, 168, 8, false).fits);
  EXPECT_FALSE(block_sor_layout(169, 169, 8, false).fits);
  for (int n : {1, 37, 128, 239}) EXPECT_LE(block_sor_layout(n, n, 4, true).bytes, kBlockSorSharedBytes) << n;
}

// Forced only (measured slower than the fused sweep on the H100): the plan keeps the fused
// sweep where the block fits, and takes the block when asked.
TEST(BlockSorPlan, ForcedOnlyWhereItFits) {
  EXPECT_EQ(pressure_variant(cavity(128, 128, Precision::Float), "cuda", true), "rbsor_fused_open");
  EXPECT_EQ(pressure_variant(cavity(128, 128, Precision::Float), "cuda", false), "rbsor_fused");
  EXPECT_EQ(pressure_variant(cavity(128, 128, Precision::Float), "cuda", true, 1, {{"pressure", "rbsor_block_open"}}),
            "rbsor_block_open");
  EXPECT_EQ(pressure_variant(cavity(101, 37, Precision::Double), "cuda", true, 1, {{"pressure", "rbsor_block_open"}}),
            "rbsor_block_open");
  EXPECT_EQ(pressure_variant(cavity(256, 256, Precision::Float), "cuda", true), "rbsor_fused_open");
  EXPECT_EQ(pressure_variant(cavity(169, 169, Precision::Double), "cuda", false), "rbsor_fused");
  EXPECT_EQ(pressure_variant(cavity(1000, 20, Precision::Float), "cuda", true), "rbsor_fused_open");
  EXPECT_EQ(pressure_variant(cavity(20, 3000, Precision::Float), "cuda", true), "rbsor_fused_open");
  // Never on the CPU, with a periodic side or on several ranks.
  EXPECT_EQ(pressure_variant(cavity(128, 128, Precision::Float), "cpu", true), "rbsor_open");
  ProjectionConfig per = cavity(64, 64, Precision::Float);
  per.boundaries[0] = per.boundaries[1] = SideCondition{BoundaryKind::Periodic, "periodic", {}, {}};
  EXPECT_EQ(pressure_variant(per, "cuda", true), "rbsor_open");
  EXPECT_EQ(pressure_variant(cavity(64, 64, Precision::Float), "cuda", false, 2), "flagged");
}

TEST(BlockSorPlan, ForcedWhereItDoesNotFitSaysWhy) {
  try {
    pressure_variant(cavity(512, 512, Precision::Float), "cuda", true, 1, {{"pressure", "rbsor_block_open"}});
    FAIL() << "no error";
  } catch (const CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("227 KiB"), std::string::npos) << e.what();
  }
  EXPECT_THROW(pressure_variant(cavity(64, 64, Precision::Float), "cpu", true, 1, {{"pressure", "rbsor_block"}}),
               CaseError);
  // The other variants stay selectable where the block one is the default.
  EXPECT_EQ(pressure_variant(cavity(128, 128, Precision::Float), "cuda", true, 1, {{"pressure", "rbsor_fused_open"}}),
            "rbsor_fused_open");
}
