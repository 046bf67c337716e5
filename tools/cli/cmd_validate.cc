// Placeholder until the subcommand lands.
#include "sim/error.h"
#include "tools/cli/commands.h"

namespace gms::cli {
int cmd_validate(const std::vector<std::string>&) { fail("'validate' is not implemented yet"); }
}  // namespace gms::cli
