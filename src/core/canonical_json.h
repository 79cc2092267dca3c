#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace dlenv {

// The one way dlenv writes JSON files: keys sorted, two-space indent, UTF-8 kept as is,
// LF line ends, a trailing newline. Equal values give equal bytes.
std::string to_canonical_json(const nlohmann::json& value);

} // namespace dlenv
