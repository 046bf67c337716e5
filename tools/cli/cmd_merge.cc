// Placeholder until the subcommand lands.
#include "sim/error.h"
#include "tools/cli/commands.h"

namespace gms::cli {
int cmd_merge(const std::vector<std::string>&) { fail("'merge' is not implemented yet"); }
}  // namespace gms::cli
