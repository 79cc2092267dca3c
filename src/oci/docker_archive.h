#pragma once

#include "oci/descriptor.h"
#include "oci/layout.h"

#include <filesystem>
#include <string>
#include <vector>

namespace dlenv::oci {

// Reads a `docker save` archive (legacy manifest.json format, and the OCI layout that
// Docker 25+ writes inside it) into `layout`: every layer and config becomes a blob,
// verified against the archive's digests, and a manifest is written for the image that
// `tag` names ("" when the archive holds one image). Returns the manifest's descriptor.
// Error(invalid_input) names the archive and what is wrong with it.
Descriptor import_docker_archive(const std::filesystem::path& archive, const std::string& tag,
                                 const ImageLayout& layout);

// Writes a tarball that `docker load` accepts: manifest.json with `repo_tags`, the config
// and layers under blobs/sha256/, and the image as an OCI layout beside them. Entries are
// sorted and dated to `source_date_epoch`, so equal images give equal archives. Written
// to a temporary file and renamed into place.
void export_docker_archive(const ImageLayout& layout, const Descriptor& manifest,
                           const std::vector<std::string>& repo_tags, std::int64_t source_date_epoch,
                           const std::filesystem::path& archive);

} // namespace dlenv::oci
