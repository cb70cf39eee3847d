// Placeholder until the tasks/trace issue lands; replaced by its owner.
#include "cli/commands.h"
#include "common/error.h"
namespace ompscope::cli {
Command add_trace_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("trace", "(not built yet)");
  app->allow_extras();
  return {app, []() -> int { throw Error("ompscope trace: not built yet"); }};
}
}  // namespace ompscope::cli
