#pragma once

#include "oci/descriptor.h"
#include "oci/layout.h"

#include <filesystem>
#include <string>
#include <vector>

namespace dlenv::oci {

// Reads a `docker save` archive into `layout` through its manifest.json (which Docker 25+
// still writes beside its OCI layout, naming blobs/sha256/ members): the archive is read
// once and every member becomes a blob; the image that `tag` names ("" when the archive
// holds one image) gets an OCI manifest, its layers typed by their compression (detected
// from their first bytes). Returns the manifest's descriptor. Errors name the archive
// and the member or field: Error(invalid_input) for a malformed or incomplete archive or
// a missing tag when there are several images, Error(not_found) for a tag it does not
// hold, Error(verification_failed) when a layer does not hash to its diff_id or a
// blobs/sha256/ member to its name.
Descriptor import_docker_archive(
    const std::filesystem::path& archive, const std::string& tag, const ImageLayout& layout);

// Writes a tarball that `docker load` accepts: manifest.json with `repo_tags`, the config
// and layers under blobs/sha256/, and the image as an OCI layout beside them. Entries are
// sorted and dated to `source_date_epoch`, so equal images give equal archives. Written
// as an OutputFile: "-" and devices or FIFOs are streamed to, a file is replaced atomically.
void export_docker_archive(const ImageLayout& layout, const Descriptor& manifest,
    const std::vector<std::string>& repo_tags, std::int64_t source_date_epoch, const std::filesystem::path& archive);

} // namespace dlenv::oci
