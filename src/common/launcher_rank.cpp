#include "common/launcher_rank.h"

namespace ompscope {
namespace {

// The value of NAME in an environ-style array, or nullptr.
const char* lookup(const char* const* environment, const char* name) {
  if (!environment) return nullptr;
  for (const char* const* e = environment; *e; ++e) {
    const char* a = *e;
    const char* b = name;
    while (*b && *a == *b) ++a, ++b;
    if (*b == '\0' && *a == '=') return a + 1;
  }
  return nullptr;
}

// A plain non-negative decimal below 2^31, or -1.
int decimal(const char* text) {
  if (!text || !*text) return -1;
  long long v = 0;
  for (const char* p = text; *p; ++p) {
    if (*p < '0' || *p > '9') return -1;
    v = v * 10 + (*p - '0');
    if (v > 0x7fffffff) return -1;
  }
  return static_cast<int>(v);
}

struct Launcher {
  const char* rank;
  const char* size;        // nullptr: this launcher does not say
  const char* local_rank;  // nullptr: this launcher does not say
};

constexpr Launcher kLaunchers[] = {
    {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
    {"PMIX_RANK", nullptr, nullptr},
    {"PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
    {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
};

// The value of the launcher's own variable, else the first other launcher's that has one.
int read_field(const char* const* environment, const Launcher& own, const char* Launcher::*field, int minimum) {
  if (own.*field) {
    const int v = decimal(lookup(environment, own.*field));
    if (v >= minimum) return v;
  }
  for (const Launcher& other : kLaunchers) {
    if (!(other.*field) || &other == &own) continue;
    const int v = decimal(lookup(environment, other.*field));
    if (v >= minimum) return v;
  }
  return -1;
}

}  // namespace

LauncherRank launcher_rank(const char* const* environment) {
  for (const Launcher& l : kLaunchers) {
    const int rank = decimal(lookup(environment, l.rank));
    if (rank < 0) continue;
    const int size = read_field(environment, l, &Launcher::size, 1);
    if (size > 0 && rank >= size) continue;
    LauncherRank r;
    r.rank = rank;
    r.size = size > 0 ? size : 0;
    r.local_rank = read_field(environment, l, &Launcher::local_rank, 0);
    r.variable = l.rank;
    return r;
  }
  return {};
}

bool rank_directory_name(int rank, char* out, unsigned long size) {
  const char prefix[] = "rank-";
  char digits[12];
  int n = 0;
  unsigned v = rank < 0 ? 0u : static_cast<unsigned>(rank);
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  if (sizeof prefix + static_cast<unsigned long>(n) > size) return false;
  char* p = out;
  for (const char* c = prefix; *c; ++c) *p++ = *c;
  while (n) *p++ = digits[--n];
  *p = '\0';
  return true;
}

}  // namespace ompscope
