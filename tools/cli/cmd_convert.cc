// Placeholder until the subcommand lands.
#include "sim/error.h"
#include "tools/cli/commands.h"

namespace gms::cli {
int cmd_convert(const std::vector<std::string>&) { fail("'convert' is not implemented yet"); }
}  // namespace gms::cli
