#pragma once

#include "resolve/profile.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::lock {

// A file the lock puts into the image.
struct LockedFile {
    std::string source; // relative to the lockfile's directory
    std::string target; // absolute path in the image
    std::uint32_t mode; // permission bits
    std::string sha256; // of the content, lowercase hex
    std::int64_t size;
};

// What the lock says about the image itself. When read, it is checked: sources
// relative, targets absolute without ".", ".." or control characters and outside
// /opt/dlenv, no path too long for Linux, octal modes, sha256 digests.
struct ImageSection {
    std::int64_t source_date_epoch; // every mtime and timestamp in the image
    std::vector<LockedFile> files;
};

// The image section of `profile`'s lock, to be written into `lock_dir`: its files are
// pinned by sha256 and size, with paths relative to `lock_dir`. Each must be a regular
// file that resolves, symlinks followed, inside `files_root` (by default the profile's
// directory), so a profile cannot put the machine's other files into the image;
// Error(invalid_input) names the profile, the field and the way out.
ImageSection image_section_of(const resolve::Profile& profile, const std::optional<std::filesystem::path>& files_root,
    const std::filesystem::path& lock_dir);

} // namespace dlenv::lock
