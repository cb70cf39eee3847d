#include "bench/core/constructs.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace ompscope::bench {
namespace {

constexpr std::array<ConstructInfo, 13> kConstructs{{
    {Construct::Parallel, "parallel", "fork and join of a parallel region"},
    {Construct::Barrier, "barrier", "#pragma omp barrier"},
    {Construct::Single, "single", "#pragma omp single, with its closing barrier"},
    {Construct::ForStatic, "for_static", "omp for schedule(static,16), with its closing barrier"},
    {Construct::ForDynamic, "for_dynamic", "omp for schedule(dynamic,16), with its closing barrier"},
    {Construct::ForGuided, "for_guided", "omp for schedule(guided,16), with its closing barrier"},
    {Construct::Firstprivate, "firstprivate", "parallel region with firstprivate(one 8-byte variable)"},
    {Construct::Critical, "critical", "#pragma omp critical (one thread's turn)"},
    {Construct::Lock, "lock", "omp_set_lock + omp_unset_lock (one thread's turn)"},
    {Construct::Atomic, "atomic", "#pragma omp atomic update of a shared double"},
    {Construct::Reduction, "reduction", "parallel region with reduction(+: one double)"},
    {Construct::Task, "task", "create an empty task, execute it, taskwait"},
    {Construct::TaskTree, "task_tree",
     "a task of a binary tree (each creates two and waits for them): the team's thread time per task beyond "
     "the same tree's in a team of one (epcc only)"},
}};

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

std::span<const ConstructInfo> all_constructs() { return kConstructs; }

const ConstructInfo& construct_info(Construct c) {
  return kConstructs[static_cast<std::size_t>(c)];
}

std::string construct_names_joined(std::string_view separator) {
  std::string out;
  for (const ConstructInfo& info : kConstructs) {
    if (!out.empty()) out += separator;
    out += info.name;
  }
  return out;
}

std::vector<Construct> parse_construct_list(std::string_view comma_separated) {
  std::vector<Construct> out;
  auto add = [&](Construct c) {
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  };
  while (!comma_separated.empty()) {
    const std::size_t comma = comma_separated.find(',');
    const std::string_view entry = trim(comma_separated.substr(0, comma));
    comma_separated = comma == std::string_view::npos ? std::string_view{} : comma_separated.substr(comma + 1);
    if (entry.empty()) continue;
    if (entry == "all") {
      for (const ConstructInfo& info : kConstructs) add(info.id);
      continue;
    }
    auto it = std::find_if(kConstructs.begin(), kConstructs.end(),
                           [&](const ConstructInfo& info) { return info.name == entry; });
    if (it == kConstructs.end())
      throw std::invalid_argument("unknown construct '" + std::string(entry) + "' (known: all, " +
                                  construct_names_joined(", ") + ")");
    add(it->id);
  }
  if (out.empty()) throw std::invalid_argument("no construct named");
  return out;
}

}  // namespace ompscope::bench
