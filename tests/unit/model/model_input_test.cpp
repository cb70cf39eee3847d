#include "model/model_input.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/error.h"

namespace ompscope::model {
namespace {

using ::testing::HasSubstr;

std::string error_of(std::string_view content) {
  try {
    parse_model_input(content, "in");
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(ModelInput, RecognisesEachFormatByItsContent) {
  EXPECT_EQ(parse_model_input("PARAMETER t\nPOINTS 1\nREGION r\nDATA 1\n", "in").format, "extrap-text");
  EXPECT_EQ(parse_model_input(R"({"parameters":["t"],"measurements":{"r":{"m":[{"point":[1],"values":[1]}]}}})", "in").format,
            "extrap-json");
  EXPECT_EQ(parse_model_input(R"({"tool":"ompscope-bench","results":[{"construct":"barrier","runtime":"llvm",
            "method":"epcc","metric":"overhead","threads":1,"raw":[1e-7]}]})", "in").format,
            "ompscope-bench");
  EXPECT_EQ(parse_model_input(R"({"tool":"ompscope","regions":[]})", "in").format, "ompscope-report");
}

TEST(ModelInput, AJsonSyntaxErrorNamesLineAndColumn) {
  EXPECT_THAT(error_of("{\n  \"tool\": \"ompscope-bench\",\n  \"results\": [1,,]\n}"),
              HasSubstr("in:3: invalid JSON at column 17"));
}

TEST(ModelInput, ANumberBeyondADoubleIsAnInputErrorNamingTheFile) {
  // Found by tests/fuzz: the parser's out_of_range escaped as an internal error.
  EXPECT_THAT(error_of(R"({"tool":"ompscope-bench","results":[{"raw":[1.0e222222]}]})"),
              HasSubstr("in: invalid JSON: number overflow parsing '1.0e222222'"));
}

TEST(ModelInput, RefusesUnknownJsonEmptyFilesAndZipArchives) {
  EXPECT_THAT(error_of(R"({"hello": 1})"), HasSubstr("in: JSON of an unknown kind"));
  EXPECT_THAT(error_of(R"({"tool": 1})"), HasSubstr("in: JSON of an unknown kind"));  // found by tests/fuzz
  EXPECT_THAT(error_of(" \n"), HasSubstr("in: empty file"));
  EXPECT_THAT(error_of(std::string_view("PK\x03\x04rest", 8)), HasSubstr("unzip it"));
}

TEST(ModelInput, ReadsAScaleOutputDirectoryThroughItsReport) {
  const auto directory = std::filesystem::temp_directory_path() / "ompscope_model_input_test";
  std::filesystem::create_directories(directory);
  std::ofstream(directory / "report.json") << R"({"tool":"ompscope","regions":[]})";
  EXPECT_EQ(read_model_input(directory).format, "ompscope-report");
  std::filesystem::remove_all(directory);
  EXPECT_THROW(read_model_input(directory / "missing.txt"), Error);
}

}  // namespace
}  // namespace ompscope::model
