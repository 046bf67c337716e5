// Placeholder until the subcommand lands.
#include "sim/error.h"
#include "tools/cli/commands.h"

namespace gms::cli {
int cmd_sweep(const std::vector<std::string>&) { fail("'sweep' is not implemented yet"); }
}  // namespace gms::cli
