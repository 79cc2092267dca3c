#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace dlenv::rootfs {

enum class MountPointKind { directory, file };

// Makes sure an absolute image path exists in the unpacked image at `root` as something
// a mount of `kind` can land on, creating what is missing (directories 0755, an empty
// file 0644), and returns the image path it resolved to. Symbolic links are followed as
// the image's own processes would follow them (an absolute target starts again at
// `root`, `..` stops there), so the returned path holds no link and a runtime mounting on
// it stays inside `root`. Each component is reached from a descriptor of its parent and
// opened without following links, so nothing outside `root` is ever created, written or
// opened, whatever links the image holds. Error(invalid_input) naming `path` when a
// component that must be a directory is something else, when an existing last component
// is of the other kind, or when links loop; Error(io) for a failing system call.
std::string make_mount_point(const std::filesystem::path& root, std::string_view path, MountPointKind kind);

} // namespace dlenv::rootfs
