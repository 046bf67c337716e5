#include "sim/config/program_options_error.h"

#include <fmt/format.h>

namespace gms {

namespace po = boost::program_options;

namespace {

const char* syntax_problem(po::invalid_syntax::kind_t kind) {
  switch (kind) {
    case po::invalid_syntax::long_not_allowed:
      return "long options are not allowed";
    case po::invalid_syntax::long_adjacent_not_allowed:
    case po::invalid_syntax::short_adjacent_not_allowed:
      return "a value must not be attached to the option";
    case po::invalid_syntax::empty_adjacent_parameter:
      return "the attached value is empty";
    case po::invalid_syntax::missing_parameter:
      return "the option needs a value";
    case po::invalid_syntax::extra_parameter:
      return "the option takes no value";
    case po::invalid_syntax::unrecognized_line:
      return "the line is not 'key = value'";
  }
  return "invalid syntax";
}

}  // namespace

std::string program_options_message(const po::error& e) {
  if (const auto* line = dynamic_cast<const po::invalid_config_file_syntax*>(&e))
    return fmt::format("invalid line '{}': {}", line->tokens(), syntax_problem(line->kind()));
  if (const auto* syntax = dynamic_cast<const po::invalid_syntax*>(&e))
    return fmt::format("option '{}': {}", syntax->get_option_name(),
                       syntax_problem(syntax->kind()));
  if (const auto* unknown = dynamic_cast<const po::unknown_option*>(&e))
    return fmt::format("unrecognised option '{}'", unknown->get_option_name());
  if (const auto* ambiguous = dynamic_cast<const po::ambiguous_option*>(&e))
    return fmt::format("option '{}' is ambiguous", ambiguous->get_option_name());
  if (const auto* twice = dynamic_cast<const po::multiple_occurrences*>(&e))
    return fmt::format("option '{}' is given more than once", twice->get_option_name());
  if (const auto* required = dynamic_cast<const po::required_option*>(&e))
    return fmt::format("option '{}' is required", required->get_option_name());
  if (const auto* value = dynamic_cast<const po::validation_error*>(&e))
    return fmt::format("invalid value for option '{}'", value->get_option_name());
  if (const auto* named = dynamic_cast<const po::error_with_option_name*>(&e))
    return fmt::format("invalid use of option '{}'", named->get_option_name());
  return e.what();  // the remaining kinds carry no user text
}

}  // namespace gms
