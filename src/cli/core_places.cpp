#include "cli/core_places.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sched.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

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

int usable_cpus(int allowed_cpus, double quota_cpus) {
  int n = std::max(1, allowed_cpus);
  if (quota_cpus > 0) n = std::min(n, std::max(1, static_cast<int>(std::ceil(quota_cpus - 1e-9))));
  return n;
}

double cpu_quota_v2(const std::string& cpu_max) {
  std::istringstream in(cpu_max);
  std::string quota;
  double period = 0;
  if (!(in >> quota >> period) || period <= 0 || quota == "max") return 0;
  char* end = nullptr;
  const double q = std::strtod(quota.c_str(), &end);
  return end && *end == '\0' && q > 0 ? q / period : 0;
}

double cpu_quota_v1(const std::string& quota_us, const std::string& period_us) {
  char* end = nullptr;
  const double q = std::strtod(quota_us.c_str(), &end);
  if (end == quota_us.c_str() || q <= 0) return 0;
  const double p = std::strtod(period_us.c_str(), &end);
  if (end == period_us.c_str() || p <= 0) return 0;
  return q / p;
}

namespace {
std::string first_line(const std::string& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

// The smallest quota of the cgroup at `path` and its ancestors under `root`, read by `quota_at`.
template <class QuotaAt>
double smallest_quota(std::string path, QuotaAt quota_at) {
  double smallest = 0;
  while (true) {
    if (const double q = quota_at(path); q > 0 && (smallest == 0 || q < smallest)) smallest = q;
    if (path.empty() || path == "/") break;
    const size_t slash = path.find_last_of('/');
    path = slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
  }
  return smallest;
}
}  // namespace

double cpu_quota_of_this_process() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  double smallest = 0;
  const auto keep = [&](double q) {
    if (q > 0 && (smallest == 0 || q < smallest)) smallest = q;
  };
  while (std::getline(in, line)) {
    // "0::/path" (v2), "4:cpu,cpuacct:/path" (v1)
    const size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (line.compare(0, a, "0") == 0 && controllers.empty()) {
      for (const char* root : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"})
        keep(smallest_quota(path, [&](const std::string& p) { return cpu_quota_v2(first_line(std::string(root) + p + "/cpu.max")); }));
    } else if (("," + controllers + ",").find(",cpu,") != std::string::npos) {
      for (const char* root : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"})
        keep(smallest_quota(path, [&](const std::string& p) {
          const std::string dir = std::string(root) + p;
          return cpu_quota_v1(first_line(dir + "/cpu.cfs_quota_us"), first_line(dir + "/cpu.cfs_period_us"));
        }));
    }
  }
  return smallest;
}

int usable_cpus_of_this_process() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  int allowed = 0;
  if (sched_getaffinity(0, sizeof mask, &mask) == 0) allowed = CPU_COUNT(&mask);
  if (allowed <= 0) allowed = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return usable_cpus(allowed, cpu_quota_of_this_process());
}

}  // namespace ompscope::cli
