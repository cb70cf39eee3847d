#include "model/model_input.h"

#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/safe_file.h"
#include "model/bench_json_reader.h"
#include "model/extrap_json_reader.h"
#include "model/extrap_text_reader.h"
#include "model/json_access.h"
#include "model/scale_report_reader.h"
#include "report/report_json.h"

namespace ompscope::model {

ModelInput parse_model_input(std::string_view content, const std::string& source_name) {
  if (content.substr(0, 4) == std::string_view("PK\x03\x04", 4))
    throw Error(source_name + ": a ZIP archive (an Extra-P .extra-p experiment?): unzip it and "
                              "pass its experiment.json");
  const auto first = content.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) throw Error(source_name + ": empty file: nothing to model");
  if (content[first] != '{' && content[first] != '[') {
    std::istringstream text{std::string(content)};
    return {"extrap-text", read_extrap_text(text, source_name)};
  }
  const nlohmann::json document = json_access::parse_json_text(content, source_name);
  if (looks_like_bench_json(document)) return {"ompscope-bench", read_bench_json(document, source_name)};
  if (looks_like_scale_report(document))
    return {"ompscope-report", series_of_report(report::report_from_json(document, source_name))};
  if (looks_like_extrap_json(document)) return {"extrap-json", read_extrap_json(document, source_name)};
  throw Error(source_name + ": JSON of an unknown kind: expected `ompscope bench` output, an "
                            "`ompscope scale` report.json, or Extra-P JSON");
}

ModelInput read_model_input(const std::filesystem::path& path) {
  std::filesystem::path file = path;
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    file = path / "report.json";
    if (!std::filesystem::exists(file, error))
      throw Error(path.string() + ": a directory without report.json (not an `ompscope scale` "
                                  "output directory)");
  }
  // A regular file only: a FIFO would block the read (docs/safety.md, "Readers").
  return parse_model_input(read_regular_file(file), file.string());
}

}  // namespace ompscope::model
