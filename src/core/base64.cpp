#include "core/base64.h"

#include <array>

namespace dlenv {
namespace {

constexpr std::string_view k_alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int value_of(char c)
{
    std::size_t found = k_alphabet.find(c);
    return found == std::string_view::npos ? -1 : static_cast<int>(found);
}

} // namespace

std::string base64_encode(std::string_view bytes)
{
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
        std::uint32_t group = 0;
        for (std::size_t j = 0; j < 3; ++j)
            group = (group << 8) | (j < n ? static_cast<unsigned char>(bytes[i + j]) : 0u);
        for (std::size_t j = 0; j < 4; ++j)
            out += j <= n ? k_alphabet[(group >> (18 - 6 * j)) & 63] : '=';
    }
    return out;
}

std::optional<std::string> base64_decode(std::string_view text)
{
    if (text.size() % 4 != 0)
        return std::nullopt;
    std::string out;
    for (std::size_t i = 0; i < text.size(); i += 4) {
        std::uint32_t group = 0;
        int padding = 0;
        for (std::size_t j = 0; j < 4; ++j) {
            char c = text[i + j];
            bool last_group = i + 4 == text.size();
            if (c == '=' && last_group && j >= 2 && (j == 3 || text[i + 3] == '=')) {
                ++padding;
                group <<= 6;
                continue;
            }
            int value = value_of(c);
            if (value < 0 || padding)
                return std::nullopt;
            group = (group << 6) | static_cast<std::uint32_t>(value);
        }
        for (int j = 0; j < 3 - padding; ++j)
            out += static_cast<char>((group >> (16 - 8 * j)) & 255);
    }
    return out;
}

} // namespace dlenv
