#pragma once

#include <filesystem>
#include <string_view>

namespace dlenv {

// A private directory made under `parent` as <prefix>XXXXXX (mode 0700), removed with
// everything under it when destroyed, directories without write permission included
// (image layers have them). Error(io) when it cannot be made.
class TempDirectory {
public:
    TempDirectory(const std::filesystem::path& parent, std::string_view prefix);
    ~TempDirectory();
    TempDirectory(const TempDirectory&) = delete;
    TempDirectory& operator=(const TempDirectory&) = delete;

    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

// Removes everything under `dir` and `dir` itself, giving directories without write
// permission to their owner first. Never throws: what cannot be removed stays.
void remove_tree(const std::filesystem::path& dir) noexcept;

} // namespace dlenv
