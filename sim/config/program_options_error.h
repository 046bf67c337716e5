// One message for any Boost.Program_options error, without calling what() on errors that carry
// user text: Boost 1.74 fills "%name%" placeholders in a loop that never ends when the user's text
// itself holds that placeholder (`--%original_token%`, a config line reading `%invalid_line%`;
// found by fuzz_config). The option name and offending line are read through accessors instead.
#pragma once

#include <boost/program_options/errors.hpp>
#include <string>

namespace gms {

std::string program_options_message(const boost::program_options::error& e);

}  // namespace gms
