// Text that comes from the observed program (function and file names such as
// `void solve<std::vector<int>>(int)`, hints, command arguments) must show as text in the HTML
// report, never as markup: every writer of markup passes such text through html_escape.
#pragma once
#include <string>
#include <string_view>

namespace ompscope::output {

// Escapes the five characters that are special in HTML text and in double- or single-quoted
// attribute values (& < > " '), so the result is safe in both places. Other bytes pass through.
std::string html_escape(std::string_view text);

}  // namespace ompscope::output
