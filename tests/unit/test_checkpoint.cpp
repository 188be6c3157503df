// Checkpoint and restart below the Lua host: a solver's state written to an HDF5 file,
// read back into a fresh solver, continues bit for bit; a file that is not whole is
// refused; an interruption stops the run loop between steps; the memory estimate.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "io/checkpoint.hpp"
#include "models/projection/projection_config.hpp"
#include "sim/interrupt.hpp"
#include "sim/memory_check.hpp"
#include "sim/run_loop.hpp"
#include "sim/solver.hpp"

using namespace flowlua;

namespace {

ProjectionConfig cavity(int n, Precision precision) {
  ProjectionConfig c;
  c.grid = Grid::make(n, n, 1.0, 1.0);
  c.nu = 0.01;
  for (Side s : kSides) {
    auto& b = c.boundaries[int(s)];
    b.kind = BoundaryKind::Dirichlet;
    b.normal.assign(n, 0.0);
    b.tangential.assign(n, s == Side::Top ? 1.0 : 0.0);
  }
  c.pressure.solver = PressureSolverKind::ConjugateGradient;
  c.pressure.tol = 1e-7;
  c.backend = BackendChoice::Cpu;
  c.precision = precision;
  return c;
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("flowlua_unit_" + name)).string();
}

}  // namespace

TEST(Checkpoint, FileRoundTripContinuesBitForBit) {
  if (!io::checkpoints_available()) GTEST_SKIP() << "built without HDF5";
  for (Precision prec : {Precision::Double, Precision::Float}) {
    auto whole = make_projection_solver(cavity(12, prec));
    for (int k = 0; k < 30; ++k) whole->step();

    auto first = make_projection_solver(cavity(12, prec));
    for (int k = 0; k < 13; ++k) first->step();
    io::Checkpoint c;
    c.model = "projection";
    c.precision = prec == Precision::Float ? "float" : "double";
    c.params = {{"n", "12"}};
    c.state = first->save_state();
    const std::string path = temp_path("roundtrip.h5");
    io::write_checkpoint(path, c);
    for (int k = 0; k < 4; ++k) first->step();  // must not reach the restored solver

    const io::Checkpoint back = io::read_checkpoint(path);
    std::remove(path.c_str());
    EXPECT_EQ(back.precision, c.precision);
    ASSERT_EQ(back.params.size(), 1u);
    EXPECT_EQ(back.params[0].second, "12");
    auto second = make_projection_solver(cavity(12, prec));
    second->restore_state(back.state);
    EXPECT_EQ(second->steps(), 13);
    for (int k = 0; k < 17; ++k) second->step();
    EXPECT_EQ(second->time(), whole->time());
    EXPECT_EQ(second->dt(), whole->dt());
    for (const char* name : {"u", "v", "p"}) {
      const FieldSnapshot a = whole->field(name), b = second->field(name);
      ASSERT_EQ(a.values.size(), b.values.size());
      for (std::size_t i = 0; i < a.values.size(); ++i)
        ASSERT_EQ(a.values[i], b.values[i]) << name << " at " << i << (prec == Precision::Float ? " (float)" : "");
    }
  }
}

TEST(Checkpoint, TruncatedOrForeignFilesAreRefused) {
  if (!io::checkpoints_available()) GTEST_SKIP() << "built without HDF5";
  auto s = make_projection_solver(cavity(8, Precision::Double));
  s->step();
  io::Checkpoint c;
  c.model = "projection";
  c.state = s->save_state();
  const std::string path = temp_path("truncated.h5");
  io::write_checkpoint(path, c);
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size / 2);
  EXPECT_THROW(io::read_checkpoint(path), std::runtime_error);
  { std::ofstream(path) << "not a checkpoint\n"; }
  EXPECT_THROW(io::read_checkpoint(path), std::runtime_error);
  std::remove(path.c_str());
  // A state of another grid is refused by the solver, not read past its end.
  auto other = make_projection_solver(cavity(10, Precision::Double));
  EXPECT_ANY_THROW(other->restore_state(c.state));
}

TEST(Interrupt, StopsTheRunLoopBetweenSteps) {
  RunLoop loop(make_projection_solver(cavity(8, Precision::Double)));
  StopConditions stop;
  stop.max_steps = 50;
  loop.set_stop_conditions(stop);
  bool finished = false;
  bool sent = false;
  loop.every_steps(7, [&] {
    if (!sent) interrupt::request(130);  // once, as a signal would
    sent = true;
  });
  loop.on_finish([&] { finished = true; });
  RunReport r = loop.run();
  EXPECT_EQ(r.reason, StopReason::Interrupted);
  EXPECT_EQ(loop.solver().steps(), 7);
  EXPECT_FALSE(finished) << "on_finish callbacks must not run on an interruption";
  EXPECT_EQ(interrupt::pending(), 130);
  interrupt::clear();
  EXPECT_EQ(loop.run().reason, StopReason::MaxSteps);
  EXPECT_EQ(loop.solver().steps(), 50);
}

TEST(MemoryCheck, BytesNeededAndRefusal) {
  CaseCommon c;
  c.grid = Grid::make(100, 50, 2.0, 1.0);
  c.precision = Precision::Double;
  EXPECT_EQ(bytes_needed(c), std::size_t(102 * 52) * (kArraysPerCell * 8 + 1));
  c.precision = Precision::Float;
  EXPECT_EQ(bytes_needed(c), std::size_t(102 * 52) * (kArraysPerCell * 4 + 1));
  c.backend = BackendChoice::Cpu;
  EXPECT_NO_THROW(check_memory(c));
  c.grid = Grid::make(65536, 32768, 2.0, 1.0);  // 2^31 cells: 139 GB in double
  c.precision = Precision::Double;
  if (host_bytes_available() < bytes_needed(c)) {
    try {
      check_memory(c);
      ADD_FAILURE() << "a grid larger than the memory was accepted";
    } catch (const CaseError& e) {
      EXPECT_NE(std::string(e.what()).find(std::to_string(bytes_needed(c)) + " bytes"), std::string::npos) << e.what();
    }
  }
}
