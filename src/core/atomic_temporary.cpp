#include "core/atomic_temporary.h"

#include <algorithm>
#include <cctype>

namespace dlenv {
namespace {

constexpr std::string_view k_marker = ".tmp-";
constexpr std::string_view k_random = "XXXXXX"; // mkstemp fills it in

} // namespace

std::string atomic_temporary_template(const std::filesystem::path& target)
{
    std::filesystem::path dir = target.parent_path().empty() ? "." : target.parent_path();
    return (dir / ("." + target.filename().string() + std::string(k_marker) + std::string(k_random))).string();
}

bool is_atomic_temporary(std::string_view name)
{
    std::size_t tail = k_marker.size() + k_random.size();
    if (name.size() <= 1 + tail || !name.starts_with('.'))
        return false;
    std::string_view random = name.substr(name.size() - k_random.size());
    return name.substr(name.size() - tail, k_marker.size()) == k_marker
        && std::all_of(
            random.begin(), random.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
}

} // namespace dlenv
