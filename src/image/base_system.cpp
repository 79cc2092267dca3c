#include "image/base_system.h"

#include "oci/layer_index.h"
#include "rootfs/path.h"

#include <optional>

namespace dlenv::image {
namespace {

const std::string k_status = "var/lib/dpkg/status";
const std::string k_os_release = "etc/os-release";
const std::string k_usr_os_release = "usr/lib/os-release";
constexpr std::int64_t k_max_os_release = 64 << 10;

} // namespace

BaseFilesystem read_base_filesystem(const oci::ImageLayout& layout, const std::vector<oci::Descriptor>& layers)
{
    BaseFilesystem base;
    std::map<std::string, std::string> files
        = oci::read_layer_files(layout, layers, { k_os_release, k_usr_os_release, k_status }, k_max_dpkg_status);
    base.system.os_release = files.contains(k_os_release) ? files[k_os_release] : files[k_usr_os_release];
    if (base.system.os_release.size() > k_max_os_release)
        base.system.os_release.clear(); // no os-release is that long: read as none
    base.system.dpkg_status = files[k_status];
    auto entries = oci::index_layers(layout, layers, [](const std::string&) { return true; });
    for (const auto& [path, entry] : entries) {
        if (entry.type != oci::TarEntry::Type::symlink)
            continue;
        std::string parent = path.find('/') == std::string::npos ? "" : path.substr(0, path.rfind('/'));
        const std::string& target = entry.link_target;
        std::optional<std::string> resolved
            = rootfs::normalize_path(target.starts_with('/') ? target : "/" + parent + "/" + target);
        if (resolved)
            base.links[path] = rootfs::relative_path(*resolved);
    }
    return base;
}

} // namespace dlenv::image
