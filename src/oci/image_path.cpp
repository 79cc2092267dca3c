#include "oci/image_path.h"

#include <algorithm>

namespace dlenv::oci {

std::vector<std::string> split_path(std::string_view path)
{
    std::vector<std::string> parts;
    for (std::size_t start = 0; start <= path.size();) {
        std::size_t end = std::min(path.find('/', start), path.size());
        std::string_view part = path.substr(start, end - start);
        if (!part.empty() && part != ".")
            parts.emplace_back(part);
        start = end + 1;
    }
    return parts;
}

std::string join_path(const std::vector<std::string>& parts)
{
    std::string out;
    for (const auto& part : parts)
        out += (out.empty() ? "" : "/") + part;
    return out;
}

std::optional<std::string> normalize_path(std::string_view path)
{
    std::vector<std::string> out;
    for (auto& part : split_path(path)) {
        if (part != "..")
            out.push_back(std::move(part));
        else if (out.empty())
            return std::nullopt;
        else
            out.pop_back();
    }
    return join_path(out);
}

} // namespace dlenv::oci
