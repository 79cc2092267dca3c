#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace dlenv::deb {

// One member of a .deb's data.tar, as stored: nothing in it has been checked for safety.
struct DataMember {
    enum class Type { file, directory, symlink, hardlink, other };
    std::string path; // "./usr/bin/python3.11"
    Type type = Type::file;
    std::uint32_t mode = 0;
    std::int64_t size = 0;
    std::string link_target;
};

// Bounds on a .deb's control.tar, which is read into memory.
constexpr std::size_t k_max_control_file = 16 << 20;
constexpr std::size_t k_max_control_files = 64;

// Reads a .deb (deb(5): an ar archive of debian-binary "2.x", control.tar and data.tar,
// each plain or compressed with gzip, xz or zstd; members starting with '_' are skipped as
// dpkg does). `control` gets the regular files of control.tar by name ("control",
// "md5sums", "conffiles", "postinst"...); then `data` gets each member of data.tar with a
// function returning the next piece of its bytes (empty at its end). Throws
// Error(invalid_input) "NAME: why" for a file that is not that (another format version, a
// missing member, members out of order, a control file beyond the bounds above) and
// passes on what the callbacks throw.
void read_deb(const std::filesystem::path& deb, const std::string& name,
    const std::function<void(const std::map<std::string, std::string>& control)>& control,
    const std::function<void(const DataMember& member, const std::function<std::string_view()>& read)>& data);

} // namespace dlenv::deb
