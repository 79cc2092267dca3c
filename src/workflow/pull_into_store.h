#pragma once

#include "core/image_reference.h"
#include "core/time_text.h"
#include "registry/pull.h"
#include "store/records.h"
#include "workflow/registry_documents.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace dlenv::workflow {

// What `dlenv pull` is asked to do.
struct PullRequest {
    ImageReference reference;
    oci::Platform platform { "amd64", "linux", "" }; // the image to pick when the reference names an index
    bool insecure = false; // as RegistryOptions::insecure
    std::filesystem::path store_dir;
    registry::ProgressCallback progress;
    std::function<std::int64_t()> clock = now_seconds; // the time the history records
};

struct PulledImage {
    std::string name; // in the store: the reference's familiar name ("ubuntu", "localhost:5000/team/app")
    std::string tag; // in the store: store_tag(reference)
    registry::PullResult pull;
    store::HistoryEntry entry; // the tag moved, recorded as a "pull"
    RegistryDocuments documents; // its lock, SBOM and reports the registry holds, now kept in the store
};

// The store tag of a pulled image: the reference's tag, or for a digest reference
// "sha256-<hex>", the form OCI uses for tags that stand for digests.
std::string store_tag(const ImageReference& reference);

// Pulls the image into the store at `store_dir` (created when missing, holding its
// writer lock), checks once that its layers may be unpacked, and tags it NAME:TAG with
// the pull in its history, then keeps the lock, SBOM and reports the registry holds for it
// (fetch_documents, keep_documents). Errors are the registry's, the store's and
// fetch_documents'; nothing is tagged or kept when one comes.
PulledImage pull_into_store(const PullRequest& request);

} // namespace dlenv::workflow
