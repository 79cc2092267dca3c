#include "core/image_target.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace dlenv {

std::string path_length_problem(std::string_view path)
{
    for (std::size_t start = 0; start <= path.size();) {
        std::size_t end = std::min(path.find('/', start), path.size());
        if (end - start > 255)
            return "a component of the path is " + std::to_string(end - start) + " bytes long; Linux allows 255";
        start = end + 1;
    }
    if (path.size() > 4096)
        return "the path is " + std::to_string(path.size()) + " bytes long; Linux allows 4096";
    return "";
}

std::string image_target_problem(std::string_view target)
{
    if (target.empty() || target.front() != '/' || target == "/")
        return "expected an absolute path in the image, like /app/train.py";
    if (std::any_of(target.begin(), target.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
        return "control characters are not allowed in a path";
    for (std::size_t start = 1; start <= target.size();) {
        std::size_t end = std::min(target.find('/', start), target.size());
        std::string_view part = target.substr(start, end - start);
        if (part.empty() || part == "." || part == "..")
            return "empty, . and .. components are not allowed";
        start = end + 1;
    }
    if (std::string problem = path_length_problem(target); !problem.empty())
        return problem;
    std::string_view owned = k_dlenv_image_dir;
    bool inside = target.starts_with(owned) && (target.size() == owned.size() || target[owned.size()] == '/');
    bool above = target.size() < owned.size() && owned.starts_with(target) && owned[target.size()] == '/';
    if (inside || above)
        return std::string(owned) + " belongs to dlenv (the lock and the validation kit); put the file elsewhere";
    return "";
}

std::optional<std::uint32_t> parse_file_mode(std::string_view text)
{
    if (text.size() != 4 || text.front() != '0' || text.find_first_not_of("01234567") != std::string_view::npos)
        return std::nullopt;
    std::uint32_t mode = 0;
    for (char digit : text)
        mode = mode * 8 + static_cast<std::uint32_t>(digit - '0');
    return mode;
}

std::string file_mode_text(std::uint32_t mode)
{
    char text[8];
    std::snprintf(text, sizeof text, "%04o", mode);
    return text;
}

} // namespace dlenv
