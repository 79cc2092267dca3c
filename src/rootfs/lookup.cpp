#include "rootfs/lookup.h"

#include "rootfs/path.h"

#include <algorithm>
#include <deque>
#include <string>
#include <system_error>
#include <vector>

namespace dlenv::rootfs {

std::optional<std::filesystem::path> lookup(const std::filesystem::path& root, std::string_view path)
{
    std::deque<std::string> pending;
    push_front_components(pending, path);
    std::vector<std::string> resolved; // components below root, all existing and not links
    int links = 0;
    while (!pending.empty()) {
        std::string part = std::move(pending.front());
        pending.pop_front();
        if (part == "..") {
            if (!resolved.empty())
                resolved.pop_back();
            continue;
        }
        std::filesystem::path here = root;
        for (const auto& component : resolved)
            here /= component;
        here /= part;
        std::error_code ec;
        auto status = std::filesystem::symlink_status(here, ec);
        if (ec || !std::filesystem::exists(status))
            return std::nullopt;
        if (!std::filesystem::is_symlink(status)) {
            resolved.push_back(std::move(part));
            continue;
        }
        if (++links > k_max_links)
            return std::nullopt;
        std::string target = std::filesystem::read_symlink(here, ec).string();
        if (ec)
            return std::nullopt;
        if (target.starts_with("/"))
            resolved.clear();
        push_front_components(pending, target);
    }
    std::filesystem::path out = root;
    for (const auto& component : resolved)
        out /= component;
    return out;
}

std::vector<std::string> names_in(const std::filesystem::path& root, std::string_view path)
{
    std::vector<std::string> names;
    auto dir = lookup(root, path);
    std::error_code ec;
    if (!dir || !std::filesystem::is_directory(*dir, ec))
        return names;
    for (const auto& entry : std::filesystem::directory_iterator(*dir, ec))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace dlenv::rootfs
