// Placeholder until the model issue lands; replaced by its owner.
#include "cli/commands.h"
#include "common/error.h"
namespace ompscope::cli {
Command add_model_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("model", "(not built yet)");
  return {app, [] () -> int { throw Error("ompscope model: not built yet"); }};
}
}  // namespace ompscope::cli
