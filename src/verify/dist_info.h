#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::verify {

// Installed Python distributions in an unpacked image, read from their .dist-info
// directories. Paths are image paths, each looked up inside the rootfs, since any
// directory on the way may be a link that leads out of it.

// The site directories Python installs of Debian, Ubuntu, RHEL and conda use that exist
// in the image (site-packages and dist-packages under /usr/lib/pythonX.Y and the like),
// sorted.
std::vector<std::string> site_dirs(const std::filesystem::path& rootfs);

// The .dist-info directory of the distribution `name` (any spelling PEP 503 normalises
// alike) that holds a METADATA file, in the first of `sites` that has one.
std::optional<std::string> find_dist_info(
    const std::filesystem::path& rootfs, const std::vector<std::string>& sites, const std::string& name);

// The Version: field of a dist-info directory's METADATA.
std::optional<std::string> dist_info_version(const std::filesystem::path& rootfs, const std::string& dist_info);

// The modules a distribution gives `import`, sorted: the names in its top_level.txt, else
// the top-level entries of its RECORD (a package's directory, `mod.py`, an extension
// `mod.cpython-311-x86_64-linux-gnu.so`). With a RECORD, a name is kept only when the
// RECORD holds it as a module, and a namespace package (a directory without
// __init__.py, as nvidia/ in the nvidia-* wheels) stands for its subpackages that have
// one: nvidia.cudnn. Empty when nothing in it is importable (data only).
std::vector<std::string> dist_info_modules(const std::filesystem::path& rootfs, const std::string& dist_info);

// PEP 503 normalisation, with '_' for '-' as dist-info directories and modules spell it:
// "typing-extensions" is typing_extensions.
std::string normalized_name(std::string name);

} // namespace dlenv::verify
