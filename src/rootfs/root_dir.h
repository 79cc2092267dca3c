#pragma once

#include "core/error.h"
#include "core/file.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::rootfs {

// Error(invalid_input) for what may not be unpacked, "<path>: <why>", with a hint.
Error unsafe_entry(std::string_view path, const std::string& why);

// A directory that an image's files are written into without touching anything outside
// it: every path is resolved component by component from a descriptor of the root.
// Paths are relative and '/'-separated, with no "" or ".." components (the caller
// refuses those). A parent that is a symbolic link is followed only when its target is
// relative and stays inside the root; an absolute target is refused rather than
// reinterpreted, since on this host it names a path outside the root. The last
// component is never followed: what is there is replaced. Refusals are
// Error(invalid_input) naming the path; failing system calls are Error(io).
class RootDir {
public:
    // Opens `root`, which must be an existing directory.
    explicit RootDir(const std::filesystem::path& root);

    // Each creates missing parent directories with mode 0755 and replaces what is at
    // `path`, except that make_directory keeps an existing directory. New directories
    // are writable by their owner until set_metadata gives them their mode.
    UniqueFd create_file(std::string_view path) const; // open for writing, mode 0600
    void make_directory(std::string_view path) const;
    // Refuses a relative target that climbs above the root; an absolute one is kept as
    // written, since inside the image it names a path under the root.
    void make_symlink(std::string_view path, const std::string& target) const;
    // `target` is an existing non-directory under the root, in the same form as `path`.
    void make_hardlink(std::string_view path, std::string_view target) const;
    // Sets permission bits (not on a symbolic link) and the modification time.
    void set_metadata(std::string_view path, std::uint32_t mode, std::int64_t mtime) const;

    // Removes `path` and, for a directory, all under it; nothing happens when it is absent.
    void remove(std::string_view path) const;
    bool is_directory(std::string_view path) const;
    // The names in directory `path` ("" for the root); empty when it is not a directory.
    std::vector<std::string> children(std::string_view path) const;

private:
    struct Parent {
        UniqueFd dir; // -1 when a parent is missing and was not to be created
        std::string name;
    };
    Parent parent_of(std::string_view path, bool create) const;
    UniqueFd open_directory(std::string_view path) const;
    void clear(const Parent& at, std::string_view path) const;

    std::filesystem::path m_root;
    UniqueFd m_fd;
};

} // namespace dlenv::rootfs
