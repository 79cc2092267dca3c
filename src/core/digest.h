#pragma once

#include <compare>
#include <string>
#include <string_view>

namespace dlenv {

// A content digest, "sha256:<64 lowercase hex>" (the only algorithm dlenv writes or
// accepts). Parsed once; equal digests mean equal bytes.
class Digest {
public:
    // Throws Error(invalid_input) naming the text when it is not a sha256 digest.
    static Digest parse(std::string_view text);
    static Digest from_hex(std::string_view hex);
    static Digest of(std::string_view bytes);

    const std::string& hex() const { return m_hex; }
    std::string text() const { return "sha256:" + m_hex; }
    std::string short_text() const { return "sha256:" + m_hex.substr(0, 12); }

    auto operator<=>(const Digest&) const = default;

private:
    explicit Digest(std::string hex)
        : m_hex(std::move(hex))
    {
    }
    std::string m_hex;
};

} // namespace dlenv
