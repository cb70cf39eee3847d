#include "cli/core_places.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sched.h>

#include <charconv>
#include <fstream>
#include <map>

namespace ompscope::cli {

std::set<int> parse_cpu_list(const std::string& text) {
  std::set<int> cpus;
  const char* p = text.data();
  const char* end = text.data() + text.size();
  while (end > p && (end[-1] == '\n' || end[-1] == ' ')) --end;
  while (p < end) {
    int first = 0, last = 0;
    auto r = std::from_chars(p, end, first);
    if (r.ec != std::errc() || first < 0) return {};
    p = r.ptr;
    last = first;
    if (p < end && *p == '-') {
      r = std::from_chars(p + 1, end, last);
      if (r.ec != std::errc() || last < first) return {};
      p = r.ptr;
    }
    for (int c = first; c <= last; ++c) cpus.insert(c);
    if (p < end && *p != ',') return {};
    if (p < end) ++p;
  }
  return cpus;
}

std::string core_places(const std::vector<int>& cpus, const std::vector<std::string>& siblings) {
  if (cpus.empty() || cpus.size() != siblings.size()) return "";
  const std::set<int> allowed(cpus.begin(), cpus.end());
  std::map<int, std::set<int>> cores;  // first allowed CPU of the core → its allowed CPUs
  for (size_t i = 0; i < cpus.size(); ++i) {
    std::set<int> core;
    for (int c : parse_cpu_list(siblings[i]))
      if (allowed.count(c)) core.insert(c);
    if (!core.count(cpus[i])) return "";  // a CPU is always its own sibling
    cores[*core.begin()] = std::move(core);
  }
  std::vector<std::string> places;
  for (const auto& [first, core] : cores) places.push_back(fmt::format("{{{}}}", fmt::join(core, ",")));
  return fmt::format("{}", fmt::join(places, ","));
}

std::string core_places_of_this_machine() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return "";
  std::vector<int> cpus;
  std::vector<std::string> siblings;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &mask)) continue;
    std::ifstream in(fmt::format("/sys/devices/system/cpu/cpu{}/topology/thread_siblings_list", c));
    std::string line;
    if (!std::getline(in, line)) return "";
    cpus.push_back(c);
    siblings.push_back(line);
  }
  return core_places(cpus, siblings);
}

}  // namespace ompscope::cli
