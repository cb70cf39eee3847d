// Placeholder until the bench issue lands; replaced by its owner.
#include "cli/commands.h"
#include "common/error.h"
namespace ompscope::cli {
Command add_bench_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("bench", "(not built yet)");
  return {app, [] () -> int { throw Error("ompscope bench: not built yet"); }};
}
}  // namespace ompscope::cli
