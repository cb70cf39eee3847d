// How ompscope writes and reads files (common/safe_file.h, common/json_depth.h; docs/safety.md):
// a planted symlink is replaced, never written through; a FIFO is refused, never waited on; JSON
// deeper than the limit is refused with one line.
#include "common/safe_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "common/error.h"
#include "common/json_depth.h"

namespace ompscope {
namespace {
namespace fs = std::filesystem;

class SafeFile : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_temporary_directory(fs::temp_directory_path(), "safe-file-test-"); }
  void TearDown() override { fs::remove_all(dir_); }
  static std::string content(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
};

TEST_F(SafeFile, ASymlinkAtTheNameIsReplacedNotFollowed) {
  const fs::path victim = dir_ / "victim", name = dir_ / "report.html";
  std::ofstream(victim) << "precious";
  fs::create_symlink(victim, name);
  write_file_replacing(name, "<html>");
  EXPECT_EQ(content(victim), "precious");
  EXPECT_FALSE(fs::is_symlink(name));
  EXPECT_EQ(content(name), "<html>");
  // Nothing but the two files is left (no temporary).
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 2);
}

TEST_F(SafeFile, AnUncommittedTemporaryIsRemoved) {
  fs::path temporary;
  {
    TemporaryFile file(dir_ / "trace.json");
    file.write("{");
    temporary = file.temporary();
    EXPECT_TRUE(fs::exists(temporary));
  }
  EXPECT_FALSE(fs::exists(temporary));
  EXPECT_FALSE(fs::exists(dir_ / "trace.json"));
}

TEST_F(SafeFile, ADirectoryAtTheNameIsAnError) {
  fs::create_directory(dir_ / "report.json");
  EXPECT_THROW(write_file_replacing(dir_ / "report.json", "{}"), Error);
}

TEST_F(SafeFile, OwnDirectoriesRefuseASymlinkInTheirPlace) {
  fs::create_directory(dir_ / "elsewhere");
  fs::create_directory_symlink(dir_ / "elsewhere", dir_ / "runs");
  EXPECT_THROW(make_own_directory(dir_ / "runs"), Error);
  make_own_directory(dir_ / "rank-0");
  make_own_directory(dir_ / "rank-0");  // already a real directory: fine
  EXPECT_TRUE(fs::is_directory(dir_ / "rank-0"));
}

TEST_F(SafeFile, AFifoIsRefusedNotWaitedOn) {
  const fs::path fifo = dir_ / "report.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  try {
    read_regular_file(fifo);
    FAIL() << "a FIFO was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file (a FIFO)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(require_regular_file(fifo), Error);
  EXPECT_THROW(read_regular_file(dir_), Error);
  std::ofstream(dir_ / "plain") << "text";
  EXPECT_EQ(read_regular_file(dir_ / "plain"), "text");
}

TEST(JsonDepth, NestingUpToTheLimitParsesBeyondItIsRefused) {
  const int limit = kMaxJsonDepth;
  const std::string at = std::string(limit, '[') + std::string(limit, ']');
  EXPECT_NO_THROW(parse_json_with_depth_limit(at, "at.json"));
  const std::string beyond = std::string(limit + 1, '[') + std::string(limit + 1, ']');
  try {
    parse_json_with_depth_limit(beyond, "deep.json");
    FAIL() << "JSON deeper than the limit was parsed";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("deep.json: JSON nested deeper than", 0), 0u) << e.what();
  }
  // Objects count as arrays do; without exceptions, other errors still give a discarded value.
  std::string objects;
  for (int i = 0; i <= limit; ++i) objects += "{\"a\":";
  objects += "1" + std::string(limit + 1, '}');
  EXPECT_THROW(parse_json_with_depth_limit(objects, "o.json"), Error);
  EXPECT_TRUE(parse_json_with_depth_limit("[1,", "bad.json", false).is_discarded());
}

TEST(JsonDepth, AnOrderedDocumentKeepsTheFilesKeyOrder) {
  // report.json's "details" are rendered in the order they were written (ompscope report
  // --format html must equal the report.html scale wrote).
  const auto doc = parse_json_with_depth_limit<nlohmann::ordered_json>(R"({"b": 1, "a": 2})", "r.json");
  EXPECT_EQ(doc.begin().key(), "b");
}

}  // namespace
}  // namespace ompscope
