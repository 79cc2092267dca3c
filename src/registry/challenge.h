#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace dlenv::registry {

// A WWW-Authenticate challenge (RFC 7235): the scheme, lowercased ("basic", "bearer"),
// and its parameters, e.g. realm, service and scope of a registry's token service.
struct Challenge {
    std::string scheme;
    std::map<std::string, std::string> parameters;

    std::string parameter(const std::string& name) const;
};

// The first challenge in a WWW-Authenticate value; nullopt when it has none.
std::optional<Challenge> parse_challenge(std::string_view header);

} // namespace dlenv::registry
