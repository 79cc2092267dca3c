#pragma once

#include "lock/system_package_lock.h"
#include "oci/descriptor.h"
#include "oci/layout.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dlenv::image {

// The most of the base's dpkg status dlenv reads: a large image's is a few MiB.
constexpr std::int64_t k_max_dpkg_status = 64 << 20;

// What a base holds that decides how distribution packages go onto it, read from the
// tar headers and a few files of its layers (oci::read_layer_files), nothing unpacked:
// its os-release (/etc/os-release, else /usr/lib/os-release, which Debian's
// /etc/os-release links to), its /var/lib/dpkg/status (at most k_max_dpkg_status bytes),
// and its symbolic links (merged /usr: "bin" -> "usr/bin"), which the directories of a
// package's paths are followed through as dpkg follows them on disk.
struct BaseFilesystem {
    lock::BaseSystem system;
    // link -> where it leads inside the root, both relative to it: "lib" -> "usr/lib",
    // "var/run" -> "run"; links whose target climbs out of the root are left out
    std::map<std::string, std::string> links;
};
BaseFilesystem read_base_filesystem(const oci::ImageLayout& layout, const std::vector<oci::Descriptor>& layers);

} // namespace dlenv::image
