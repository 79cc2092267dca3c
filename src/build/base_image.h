#pragma once

#include "oci/descriptor.h"
#include "store/store.h"

#include <filesystem>
#include <optional>
#include <string>

namespace dlenv::build {

// Where a base image comes from. References:
//   oci:DIR[:REF]                an OCI image layout; REF may be left out when it holds one image
//   docker-archive:FILE[:TAG]    a `docker save` tarball
//   scratch                      no base: only dlenv's layers
//   NAME[:TAG]                   an image already in the store (TAG: latest)
struct BaseSource {
    enum class Kind { scratch, layout, archive, store };
    std::string reference;
    Kind kind = Kind::scratch;
    std::filesystem::path path; // the layout directory or the archive
    std::string ref;            // the layout's ref or the archive's tag
};

// Finds the base without writing anything: Error(not_found) when the reference names
// nothing, saying how to bring the image in.
BaseSource locate_base(const std::string& reference, const std::filesystem::path& store_dir);

// Brings the base into the store, verifying every blob, and returns its manifest;
// nullopt for scratch.
std::optional<oci::Descriptor> import_base(const BaseSource& base, const store::Store& store);

} // namespace dlenv::build
