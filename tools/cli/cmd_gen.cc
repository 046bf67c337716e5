// Placeholder until the subcommand lands.
#include "sim/error.h"
#include "tools/cli/commands.h"

namespace gms::cli {
int cmd_gen(const std::vector<std::string>&) { fail("'gen' is not implemented yet"); }
}  // namespace gms::cli
