#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dlenv {

// RFC 4648 base64 with padding, as HTTP Basic credentials and Docker's config.json use it.
std::string base64_encode(std::string_view bytes);
// nullopt when `text` is not valid padded base64.
std::optional<std::string> base64_decode(std::string_view text);

} // namespace dlenv
