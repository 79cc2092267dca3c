#include "core/digest.h"

#include "core/error.h"
#include "core/sha256.h"

#include <algorithm>

namespace dlenv {
namespace {

bool is_lower_hex(std::string_view text)
{
    return std::all_of(
        text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

} // namespace

Digest Digest::from_hex(std::string_view hex)
{
    if (hex.size() != 64 || !is_lower_hex(hex))
        throw Error(ErrorCode::invalid_input, "not a sha256 digest: \"" + std::string(hex) + "\"",
            "expected 64 lowercase hexadecimal digits");
    return Digest(std::string(hex));
}

Digest Digest::parse(std::string_view text)
{
    constexpr std::string_view prefix = "sha256:";
    if (!text.starts_with(prefix))
        throw Error(ErrorCode::invalid_input, "not a sha256 digest: \"" + std::string(text) + "\"",
            "write it as sha256:<64 lowercase hexadecimal digits>");
    return from_hex(text.substr(prefix.size()));
}

Digest Digest::of(std::string_view bytes)
{
    return Digest(sha256_hex(bytes));
}

} // namespace dlenv
