// Placeholder until the subcommand lands.
#include "sim/error.h"
#include "tools/cli/commands.h"

namespace gms::cli {
int cmd_compare(const std::vector<std::string>&) { fail("'compare' is not implemented yet"); }
}  // namespace gms::cli
