#pragma once

#include "oci/descriptor.h"
#include "oci/layout.h"
#include "oci/tar_reader.h"

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace dlenv::oci {

// What the image made of `layers` (of `layout`, lowest first) holds at the paths `keep`
// accepts, read from the layers' tar headers without unpacking anything: path
// ("usr/bin/python3", relative, normalised) -> its entry as the topmost layer that wrote
// it left it (a symlink's target as stored). Whiteouts (`.wh.NAME`, `.wh..wh..opq`)
// remove what lower layers put there, as apply_layer does; a non-directory hides what
// lower layers put below it. Entries whose path leaves the root are not listed. Every
// blob is read whole and checked against its descriptor (Error(verification_failed)).
std::map<std::string, TarEntry> index_layers(const ImageLayout& layout, const std::vector<Descriptor>& layers,
    const std::function<bool(const std::string& path)>& keep);

// The bytes of the regular files at `paths` (relative, normalised: "var/lib/dpkg/status")
// in the image made of `layers`, as the topmost layer that wrote each left it, whiteouts
// and hiding applied as index_layers does; a path the image does not hold as a regular file
// is absent. A file over `max_size` bytes is Error(invalid_input) naming it and the bound,
// so a hostile base cannot make dlenv hold gigabytes. Blobs are checked as index_layers does.
std::map<std::string, std::string> read_layer_files(const ImageLayout& layout, const std::vector<Descriptor>& layers,
    const std::set<std::string>& paths, std::int64_t max_size);

} // namespace dlenv::oci
