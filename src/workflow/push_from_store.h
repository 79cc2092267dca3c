#pragma once

#include "core/image_reference.h"
#include "oci/descriptor.h"
#include "registry/progress.h"
#include "store/records.h"
#include "workflow/registry_documents.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace dlenv::workflow {

// An image of the store, once the registry holds it under its tag.
struct PushedImage {
    std::string store_tag;
    std::string reference; // REGISTRY/REPOSITORY:TAG it went out as
    oci::Descriptor manifest;
    std::vector<registry::BlobProgress> blobs; // config and layers: present, mounted or uploaded
    std::vector<PushedArtifact> artifacts; // its lock, SBOM and reports, as referrers (push_documents)
};

// What `dlenv push` is asked to do.
struct PushRequest {
    store::ImageTag image; // in the store
    std::string destination; // [REGISTRY/]REPOSITORY[:TAG] as written, which errors quote
    bool all_tags = false; // push every tag of the image's name, each under its own tag
    std::string mount_from; // a repository to mount blobs from; empty: mount_source's choice
    std::int64_t chunk_size = 64 << 20; // as registry::UploadOptions::chunk_size
    bool insecure = false; // as RegistryOptions::insecure
    std::filesystem::path store_dir;
    registry::ProgressCallback progress;
    std::function<void(const PushedImage&)> pushed; // hears each image as the registry takes it
};

// A store tag and the registry tag it goes out as.
struct TagPush {
    std::string store_tag;
    std::string remote_tag;
};

// The tags to push: the image's own tag, under the destination's tag ("latest" when it
// names none; the image's tag when it names only a digest); or with `all_tags` every tag
// `records` holds for the image's name, each under its own tag, which Error(invalid_input)
// refuses for a destination that names a tag or digest, and Error(not_found) for a name
// the records lack.
std::vector<TagPush> tags_to_push(
    const store::Records& records, const store::ImageTag& image, const ImageReference& destination, bool all_tags);

// The repository to mount blobs from: `mount_from` when given, else the image's base
// (the manifest's org.opencontainers.image.base.name) when it lives in another
// repository of the destination's registry, where its layers likely are; "" for none.
std::string mount_source(
    const std::string& mount_from, const ImageReference& destination, const oci::Manifest& manifest);

// Pushes the tags tags_to_push names from the store at `store_dir` to the destination,
// in that order, each manifest last so the registry holds its digest, then what is
// attached to each manifest and its verification reports (push_documents). Error(invalid_input)
// for a destination that names a digest, Error(not_found) for a tag the store lacks;
// other errors are the registry's. Returns what was pushed, as `pushed` heard it.
std::vector<PushedImage> push_from_store(const PushRequest& request);

} // namespace dlenv::workflow
