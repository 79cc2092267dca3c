#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace dlenv::oci {

// One entry of a layer as dlenv writes it. Owners are always 0:0 and mtimes the
// layer's epoch, so only what is listed here reaches the tar stream.
struct LayerEntry {
    enum class Type { directory, file, symlink, hardlink };

    std::string path; // relative to the image root, '/'-separated, no leading "/" or "./"
    Type type = Type::file;
    std::uint32_t mode = 0644; // permission bits, setuid/setgid/sticky kept
    // Type::file: the bytes come from `source` when it is set, else from `contents`.
    std::filesystem::path source;
    std::string contents;
    std::int64_t size = 0; // Type::file: bytes of `source` or `contents`
    std::string link_target; // symlink: as written; hardlink: the path of an earlier entry
    // Type::file from `source`: when set, the sha256 (hex) the bytes must have; checked as
    // they are written, so a file that changes after it was checked is caught.
    std::string sha256;
};

// The entries of the tree under `root`, as they appear below `prefix` in the image
// ("" for the image root; `prefix` itself and its parents are not among them), sorted
// byte-wise by path. Files with the same inode become one file (the first path) and hard
// links to it; devices, fifos and sockets are refused with Error(invalid_input) naming
// them. Throws Error(io) when the tree cannot be read.
std::vector<LayerEntry> entries_of_directory(const std::filesystem::path& root, const std::string& prefix = "");

} // namespace dlenv::oci
