// Placeholder until the subcommand lands.
#include "sim/error.h"
#include "tools/cli/commands.h"

namespace gms::cli {
int cmd_info(const std::vector<std::string>&) { fail("'info' is not implemented yet"); }
}  // namespace gms::cli
