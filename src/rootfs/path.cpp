#include "rootfs/path.h"

#include "rootfs/dlenv_files.h"

#include <algorithm>

namespace dlenv::rootfs {

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

void push_front_components(std::deque<std::string>& pending, std::string_view path)
{
    std::vector<std::string> parts = split_path(path);
    pending.insert(pending.begin(), parts.begin(), parts.end());
}

std::string relative_path(std::string_view absolute)
{
    std::size_t start = absolute.find_first_not_of('/');
    return start == std::string_view::npos ? "" : std::string(absolute.substr(start));
}

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
    if (std::any_of(
            target.begin(), target.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
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
    std::string_view owned = k_dlenv_dir;
    bool inside = target.starts_with(owned) && (target.size() == owned.size() || target[owned.size()] == '/');
    bool above = target.size() < owned.size() && owned.starts_with(target) && owned[target.size()] == '/';
    if (inside || above)
        return std::string(owned) + " belongs to dlenv (the lock and the validation kit); put the file elsewhere";
    return "";
}

} // namespace dlenv::rootfs
