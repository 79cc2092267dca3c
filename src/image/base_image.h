#pragma once

#include "core/digest.h"
#include "oci/descriptor.h"
#include "store/store.h"

#include <filesystem>
#include <optional>
#include <string>

namespace dlenv::image {

// Where a base image comes from. References:
//   oci:DIR[:REF]                an OCI image layout; REF may be left out when it holds one image
//   docker-archive:FILE[:TAG]    a `docker save` tarball
//   scratch                      no base: only dlenv's layers
//   NAME[:TAG]                   an image already in the store (TAG: latest)
//   REGISTRY/REPOSITORY[:TAG]    with the lock's pinned manifest: that image, pulled from
//                                the registry once and then read from the store
struct BaseSource {
    enum class Kind { scratch, layout, archive, store, registry };
    std::string reference;
    Kind kind = Kind::scratch;
    std::filesystem::path path; // the layout directory or the archive
    std::string ref; // the layout's ref or the archive's tag
    std::optional<Digest> pinned_manifest; // registry: the manifest the lock pins
    oci::Platform platform { "amd64", "linux", "" }; // layout: the manifest taken from an index; the image's config
};

// Finds the base without writing anything: a registry image when the lock pins its
// manifest (`pinned_manifest`) and no other base was asked for, else the reference's
// kind. Error(not_found) when the reference names nothing, saying how to bring it in.
BaseSource locate_base(
    const std::string& reference, const std::optional<Digest>& pinned_manifest, const std::filesystem::path& store_dir);

// Brings the base into the store, verifying every blob, checks once that the layers of a
// base from outside the store may be unpacked (store::check_layers_once), and returns its
// manifest;
// nullopt for scratch. A pinned registry image the store lacks is pulled by digest
// (`insecure` as `dlenv pull --insecure`); one it holds is used without the network.
std::optional<oci::Descriptor> import_base(const BaseSource& base, const store::Store& store, bool insecure);

} // namespace dlenv::image
