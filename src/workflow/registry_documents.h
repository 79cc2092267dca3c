#pragma once

#include "core/gpu_uuid.h"
#include "core/image_reference.h"
#include "oci/descriptor.h"
#include "registry/referrers.h"
#include "registry/session.h"
#include "store/store.h"
#include "store/verifications.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::workflow {

// One GPU of a node: its model as the driver names it and its UUID, nullopt where the
// report gives none (one written before reports carried UUIDs).
struct NodeGpu {
    std::string model;
    std::optional<GpuUuid> uuid;
};

// The node a verification report ran on, as the report says it (its "host").
struct NodeFacts {
    std::string host; // empty when the report names none
    std::vector<NodeGpu> gpus;
    std::string driver; // empty without one

    bool has_model(const std::string& model) const;
};

// The annotations that bind an artifact to the image and a report to its node.
constexpr const char* k_image_annotation = "dev.dlenv.image.digest";
constexpr const char* k_tier_annotation = "dev.dlenv.verification.tier";
constexpr const char* k_passed_annotation = "dev.dlenv.verification.passed";
constexpr const char* k_time_annotation = "org.opencontainers.image.created";
constexpr const char* k_node_annotation = "dev.dlenv.node.host";
constexpr const char* k_gpus_annotation = "dev.dlenv.node.gpus"; // models joined by ", "
// The same GPUs' UUIDs joined by ", ", "unknown" for one without; only when one is known.
constexpr const char* k_gpu_uuids_annotation = "dev.dlenv.node.gpu-uuids";
constexpr const char* k_driver_annotation = "dev.dlenv.node.driver";

// What goes out with `image`: its lock and SBOM as the store attached them, and one
// artifact per tier on record in its verification, each annotated with the image digest
// (and a report with its tier, outcome, time and node). A report's content is canonical
// JSON: {"schema": "dlenv.verification.report/v1", "image", "tier", "passed", "time",
// "report"}. Nothing for an image with nothing attached or verified.
std::vector<registry::Artifact> image_artifacts(const store::Store& store, const Digest& image);

// An artifact the registry took as a referrer of an image.
struct PushedArtifact {
    std::string artifact_type;
    oci::Descriptor manifest;
    registry::ReferrersApi listed; // through the referrers API or the sha256-<hex> tag
};

// Pushes image_artifacts(store, image) to `repository` as referrers of `image`, which the
// registry holds already. The same artifacts pushed again are the same manifests, listed once.
std::vector<PushedArtifact> push_documents(
    registry::Session& session, const std::string& repository, const store::Store& store, const oci::Descriptor& image);

// A verification report found in a registry, checked against its image.
struct RegistryReport {
    Digest artifact; // the artifact manifest it came in
    store::TierVerification verification; // source: REGISTRY/REPOSITORY@<artifact>
    NodeFacts node;
};

// What a registry holds about an image, every artifact of dlenv's checked.
struct RegistryDocuments {
    std::optional<std::string> lock; // the bytes, as pushed
    std::optional<std::string> sbom;
    std::vector<RegistryReport> reports; // in the order listed
    std::string source; // REGISTRY/REPOSITORY
};

// Lists the referrers of `image` (registry/referrers.h) and fetches those of dlenv's
// types. Error(invalid_input), naming the artifact, for one whose annotations name
// another image than its subject, a lock that is not the lock `image`'s manifest names
// (its dev.dlenv.lock.digest annotation), or a report whose content says another image,
// tier, outcome, time or node (host, GPU models and UUIDs, driver) than its annotations,
// names a node annotation its content does not give, or holds a GPU UUID that is none.
// Artifacts of other types are left alone.
RegistryDocuments fetch_documents(registry::Session& session, const std::string& repository,
    const oci::Descriptor& image, const oci::Manifest& manifest);

// The image `reference` names in its registry (linux/amd64 of an index) and its documents
// there, as fetch_documents reads them: what a fleet's verifications left, by node.
struct ImageDocuments {
    Digest image;
    RegistryDocuments documents;
};
ImageDocuments registry_documents(const ImageReference& reference, bool insecure);

// One image of what a reference names in its registry (the image itself, or one
// platform's of an index) with its documents, as fetch_documents reads them.
struct PlatformDocuments {
    oci::Descriptor image; // with its platform when an index lists it
    RegistryDocuments documents;
};
// What `reference` names (an image manifest or an index) and each image it stands for,
// in the index's order: what an image built for several platforms was verified on.
struct ImageSetDocuments {
    Digest digest; // of what the reference names
    std::vector<PlatformDocuments> images;
};
ImageSetDocuments platform_documents(const ImageReference& reference, bool insecure);

// The node facts of a report as the store's record holds it (its "host"); a GPU without
// an entry in "gpu_uuids" (or a null one) has no UUID. Error(invalid_input) naming the
// field for a "gpu_uuids" entry that is no GPU UUID.
NodeFacts node_facts(const nlohmann::json& report);

// The newest report of each tier (by time), as one verification record of `image`.
store::Verification newest_per_tier(const Digest& image, const std::vector<RegistryReport>& reports);

// Keeps them in the store (open for writing) beside `image`: the lock and SBOM as
// attachments whose source is `documents.source`, and for each tier the newest report
// in its verification record.
void keep_documents(const store::Store& store, const Digest& image, const RegistryDocuments& documents);

} // namespace dlenv::workflow
