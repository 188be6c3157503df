// CSV tables and the atomic file writer under them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>

#include <unistd.h>

#include "io/csv.hpp"
#include "io/files.hpp"

namespace fs = std::filesystem;
using flowlua::io::CsvWriter;
using flowlua::io::make_parent_dirs;
using flowlua::io::write_file_atomic;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A fresh folder per test, removed afterwards.
class IoDir : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir = fs::temp_directory_path() /
          ("flowlua_io_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
};

}  // namespace

TEST_F(IoDir, AtomicWriteReplacesAndLeavesNoTemp) {
  std::string path = (dir / "out.txt").string();
  write_file_atomic(path, "first version, rather long\n");
  EXPECT_EQ(slurp(path), "first version, rather long\n");
  write_file_atomic(path, "second");  // shorter: no tail of the old content may remain
  EXPECT_EQ(slurp(path), "second");
  std::string binary("a\0b\xff", 4);
  write_file_atomic(path, binary);
  EXPECT_EQ(slurp(path), binary);
  write_file_atomic(path, "");
  EXPECT_EQ(slurp(path), "");
  EXPECT_EQ(listing(dir), std::vector<std::string>{"out.txt"});
}

TEST_F(IoDir, AtomicWriteFailureNamesPathAndCleansUp) {
  // Missing folder: write_file_atomic does not create it.
  std::string path = (dir / "missing" / "out.txt").string();
  try {
    write_file_atomic(path, "x");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cannot write '" + path + "': ", 0), 0u) << e.what();
  }
  // Target is a folder: the temp file is written, the rename fails, the temp must go.
  fs::create_directories(dir / "taken");
  std::string taken = (dir / "taken").string();
  EXPECT_THROW(write_file_atomic(taken, "x"), std::runtime_error);
  EXPECT_EQ(listing(dir), std::vector<std::string>{"taken"});
  EXPECT_TRUE(fs::is_empty(dir / "taken"));
}

TEST_F(IoDir, MakeParentDirs) {
  std::string path = (dir / "a" / "b" / "c.txt").string();
  make_parent_dirs(path);
  EXPECT_TRUE(fs::is_directory(dir / "a" / "b"));
  EXPECT_FALSE(fs::exists(path));
  make_parent_dirs(path);     // existing folders are fine
  make_parent_dirs("c.txt");  // no folder part: nothing to do

  write_file_atomic((dir / "file").string(), "x");
  std::string bad = (dir / "file" / "sub" / "c.txt").string();  // a file is in the way
  try {
    make_parent_dirs(bad);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'" + bad + "'"), std::string::npos) << e.what();
  }
}

TEST_F(IoDir, CsvHeaderRowsAndMissingColumns) {
  std::string path = (dir / "series" / "t.csv").string();  // folder made on first row
  CsvWriter csv(path);
  EXPECT_FALSE(fs::exists(path));
  csv.row({{"step", "0"}, {"time", "0"}, {"ke", "1.5"}});
  EXPECT_EQ(slurp(path), "step,time,ke\n0,0,1.5\n");
  csv.row({{"ke", "2"}, {"step", "10"}});  // other order, "time" left out
  EXPECT_EQ(slurp(path), "step,time,ke\n0,0,1.5\n10,,2\n");
  csv.row({});
  EXPECT_EQ(slurp(path), "step,time,ke\n0,0,1.5\n10,,2\n,,\n");
  EXPECT_EQ(csv.rows(), 3u);
  EXPECT_EQ(csv.header(), (std::vector<std::string>{"step", "time", "ke"}));
  EXPECT_EQ(listing(dir / "series"), std::vector<std::string>{"t.csv"});
}

TEST_F(IoDir, CsvUnknownKeyThrowsAndKeepsFile) {
  std::string path = (dir / "t.csv").string();
  CsvWriter csv(path);
  csv.row({{"a", "1"}, {"b", "2"}});
  try {
    csv.row({{"a", "3"}, {"c", "4"}});
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("'c'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("a, b"), std::string::npos) << msg;
  }
  EXPECT_THROW(csv.row({{"a", "3"}, {"a", "4"}}), std::runtime_error);
  EXPECT_EQ(slurp(path), "a,b\n1,2\n");
  EXPECT_EQ(csv.rows(), 1u);
  csv.row({{"b", "5"}});
  EXPECT_EQ(slurp(path), "a,b\n1,2\n,5\n");

  CsvWriter dup((dir / "d.csv").string());
  EXPECT_THROW(dup.row({{"x", "1"}, {"x", "2"}}), std::runtime_error);
  EXPECT_THROW(dup.row({}), std::runtime_error);
  EXPECT_FALSE(fs::exists(dir / "d.csv"));
}

TEST_F(IoDir, CsvQuoting) {
  std::string path = (dir / "q.csv").string();
  CsvWriter csv(path);
  csv.row({{"name", "a,b"}, {"say \"hi\"", "he said \"no\""}, {"text", "two\nlines"}, {"x", "plain"}});
  EXPECT_EQ(slurp(path),
            "name,\"say \"\"hi\"\"\",text,x\n"
            "\"a,b\",\"he said \"\"no\"\"\",\"two\nlines\",plain\n");
  EXPECT_EQ(CsvWriter::quote("cr\r"), "\"cr\r\"");
  EXPECT_EQ(CsvWriter::quote(" spaced "), " spaced ");
  EXPECT_EQ(CsvWriter::quote(""), "");
}

TEST(CsvFormat, ShortestRoundTrip) {
  EXPECT_EQ(CsvWriter::format_number(0.1), "0.1");
  EXPECT_EQ(CsvWriter::format_number(1e-300), "1e-300");
  EXPECT_EQ(CsvWriter::format_number(3), "3");
  EXPECT_EQ(CsvWriter::format_number(-2.5), "-2.5");
  EXPECT_EQ(CsvWriter::format_number(0), "0");
  EXPECT_EQ(CsvWriter::format_number(1e6), "1000000");
  EXPECT_EQ(CsvWriter::format_number(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(CsvWriter::format_number(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(CsvWriter::format_number(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(CsvWriter::format_number(-std::numeric_limits<double>::infinity()), "-inf");

  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> mant(-1, 1);
  std::uniform_int_distribution<int> expo(-300, 300);
  for (int k = 0; k < 2000; ++k) {
    double v = std::ldexp(mant(rng), expo(rng));
    std::string s = CsvWriter::format_number(v);
    EXPECT_EQ(std::strtod(s.c_str(), nullptr), v) << s;
    EXPECT_LE(s.size(), 24u) << s;
  }
  for (double v : {std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(),
                   std::numeric_limits<double>::min(), -0.0, 123456789012345.0})
    EXPECT_EQ(std::strtod(CsvWriter::format_number(v).c_str(), nullptr), v) << v;
}
