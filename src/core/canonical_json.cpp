#include "core/canonical_json.h"

namespace dlenv {

std::string to_canonical_json(const nlohmann::json& value)
{
    // nlohmann::json keeps object keys in a std::map, so they come out sorted.
    return value.dump(2, ' ', false, nlohmann::json::error_handler_t::strict) + "\n";
}

} // namespace dlenv
