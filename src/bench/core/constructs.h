// The constructs `ompscope bench` measures, by their command-line names, with what one measured
// instance is. The bench programs implement them; this list is the one both sides agree on.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ompscope::bench {

enum class Construct {
  Parallel, Barrier, Single, ForStatic, ForDynamic, ForGuided,
  Firstprivate, Critical, Lock, Atomic, Reduction, Task, TaskTree,
};

struct ConstructInfo {
  Construct id;
  std::string_view name;
  std::string_view instance;  // what one measured instance is, for tables and documentation
};

// In the order of the issue (and of every table).
std::span<const ConstructInfo> all_constructs();
const ConstructInfo& construct_info(Construct c);

// "barrier,for_static" -> those constructs, in the order given, duplicates removed; "all" means
// every construct. Throws std::invalid_argument naming the unknown entry and the valid names.
std::vector<Construct> parse_construct_list(std::string_view comma_separated);

std::string construct_names_joined(std::string_view separator);

}  // namespace ompscope::bench
