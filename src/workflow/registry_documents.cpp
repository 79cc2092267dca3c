#include "workflow/registry_documents.h"

#include "core/canonical_json.h"
#include "core/error.h"
#include "core/json_reader.h"
#include "lock/lockfile.h"
#include "registry/manifests.h"
#include "store/attachments.h"
#include "workflow/attachment_types.h"

#include <algorithm>
#include <map>

namespace dlenv::workflow {
namespace {

constexpr std::string_view k_report_schema = "dlenv.verification.report/v1";
constexpr const char* k_lock_annotation = "dev.dlenv.lock.digest";

constexpr std::string_view k_node_prefix = "dev.dlenv.node.";

// Each GPU's model, or its UUID ("unknown" for none), joined by ", ".
std::string joined(const std::vector<NodeGpu>& gpus, bool uuids)
{
    std::string out;
    for (std::size_t i = 0; i < gpus.size(); ++i)
        out += (i == 0 ? "" : ", ")
            + (!uuids              ? gpus[i].model
                    : gpus[i].uuid ? gpus[i].uuid->text()
                                   : std::string("unknown"));
    return out;
}

} // namespace

bool NodeFacts::has_model(const std::string& model) const
{
    return std::any_of(gpus.begin(), gpus.end(), [&](const NodeGpu& gpu) { return gpu.model == model; });
}

NodeFacts node_facts(const nlohmann::json& report)
{
    NodeFacts node;
    if (!report.is_object() || !report.contains("host") || !report["host"].is_object())
        return node;
    const nlohmann::json& host = report["host"];
    if (host.contains("node") && host["node"].is_string())
        node.host = host["node"].get<std::string>();
    if (host.contains("driver") && host["driver"].is_string())
        node.driver = host["driver"].get<std::string>();
    if (host.contains("gpus") && host["gpus"].is_array())
        for (const auto& gpu : host["gpus"])
            if (gpu.is_string())
                node.gpus.push_back({ gpu.get<std::string>(), std::nullopt });
    const nlohmann::json* uuids = host.contains("gpu_uuids") ? &host["gpu_uuids"] : nullptr;
    for (std::size_t i = 0; uuids && uuids->is_array() && i < uuids->size() && i < node.gpus.size(); ++i) {
        const nlohmann::json& uuid = (*uuids)[i];
        if (uuid.is_null())
            continue;
        node.gpus[i].uuid = uuid.is_string() ? GpuUuid::try_parse(uuid.get<std::string>()) : std::nullopt;
        if (!node.gpus[i].uuid)
            throw Error(ErrorCode::invalid_input,
                "host.gpu_uuids[" + std::to_string(i) + "]: " + uuid.dump() + " is not a GPU UUID",
                "a GPU UUID is GPU- and 8-4-4-4-12 hex digits, as `nvidia-smi --query-gpu=uuid` prints it");
    }
    return node;
}

namespace {

// A report's annotations follow from its content, so a reader checks one against the other.
std::map<std::string, std::string> report_annotations(const Digest& image, const store::TierVerification& tier)
{
    std::map<std::string, std::string> out = { { k_image_annotation, image.text() }, { k_tier_annotation, tier.tier },
        { k_passed_annotation, tier.passed ? "true" : "false" }, { k_time_annotation, tier.time } };
    NodeFacts node = node_facts(tier.report);
    if (!node.host.empty())
        out[k_node_annotation] = node.host;
    if (!node.gpus.empty())
        out[k_gpus_annotation] = joined(node.gpus, false);
    if (std::any_of(node.gpus.begin(), node.gpus.end(), [](const NodeGpu& gpu) { return gpu.uuid.has_value(); }))
        out[k_gpu_uuids_annotation] = joined(node.gpus, true);
    if (!node.driver.empty())
        out[k_driver_annotation] = node.driver;
    return out;
}

std::string report_content(const Digest& image, const store::TierVerification& tier)
{
    return to_canonical_json({ { "schema", k_report_schema }, { "image", image.text() }, { "tier", tier.tier },
        { "passed", tier.passed }, { "time", tier.time }, { "report", tier.report } });
}

Error refused(const std::string& what, const std::string& why)
{
    return Error(ErrorCode::invalid_input, what + ": " + why,
        "nothing was stored; the artifact was changed after it was pushed: remove it from the registry and push the "
        "image again with `dlenv push`");
}

void check_bound(const registry::FetchedArtifact& artifact, const Digest& image, const std::string& what)
{
    auto named = artifact.annotations.find(k_image_annotation);
    if (named == artifact.annotations.end() || named->second != image.text())
        throw refused(what,
            "its " + std::string(k_image_annotation) + " annotation names "
                + (named == artifact.annotations.end() ? std::string("no image") : named->second) + ", not its subject "
                + image.text());
}

RegistryReport read_report(
    const registry::FetchedArtifact& artifact, const Digest& image, const std::string& what, const std::string& source)
{
    nlohmann::json content = JsonReader::parse_document(what, artifact.bytes);
    if (!content.is_object() || content.value("schema", std::string()) != k_report_schema)
        throw refused(what, "its content is no " + std::string(k_report_schema) + " document");
    if (content.value("image", std::string()) != image.text())
        throw refused(what,
            "its content reports on " + content.value("image", std::string("no image")) + ", not " + image.text());
    store::TierVerification tier;
    try {
        tier = { content.at("tier").get<std::string>(), content.at("passed").get<bool>(),
            content.at("time").get<std::string>(), content.at("report"), source + "@" + artifact.manifest.text() };
    } catch (const nlohmann::json::exception& e) {
        throw refused(what, std::string("its content: ") + e.what());
    }
    NodeFacts node;
    try {
        node = node_facts(tier.report);
    } catch (const Error& e) {
        throw refused(what, "its content's report " + e.message());
    }
    std::map<std::string, std::string> expected = report_annotations(image, tier);
    for (const auto& [key, value] : expected) {
        auto found = artifact.annotations.find(key);
        if (found == artifact.annotations.end() || found->second != value)
            throw refused(what,
                "its annotation " + key + " is "
                    + (found == artifact.annotations.end() ? std::string("missing") : "\"" + found->second + "\"")
                    + " but its content says \"" + value + "\"");
    }
    for (const auto& [key, value] : artifact.annotations)
        if (key.starts_with(k_node_prefix) && !expected.contains(key))
            throw refused(what, "its annotation " + key + " is \"" + value + "\" but its content says nothing of it");
    return { artifact.manifest, tier, std::move(node) };
}

void check_lock(const registry::FetchedArtifact& artifact, const oci::Manifest& manifest, const std::string& what)
{
    lock::Lockfile lock = lock::Lockfile::parse(what, artifact.bytes);
    auto named = manifest.annotations.find(k_lock_annotation);
    if (named == manifest.annotations.end() || named->second != lock.digest().text())
        throw refused(what,
            "it is lock " + lock.digest().text() + ", not the lock the image's manifest names ("
                + (named == manifest.annotations.end() ? std::string("none") : named->second) + ")");
}

} // namespace

std::vector<registry::Artifact> image_artifacts(const store::Store& store, const Digest& image)
{
    std::vector<registry::Artifact> out;
    for (const auto& [kind, attachment] : store::read_attachments(store, image))
        out.push_back({ attachment.media_type, store::read_attachment(store, attachment),
            { { k_image_annotation, image.text() } } });
    for (const auto& [name, tier] : store::read_verification(store, image).tiers)
        out.push_back(
            { std::string(k_report_media_type), report_content(image, tier), report_annotations(image, tier) });
    return out;
}

std::vector<PushedArtifact> push_documents(
    registry::Session& session, const std::string& repository, const store::Store& store, const oci::Descriptor& image)
{
    std::vector<registry::Artifact> artifacts = image_artifacts(store, image.digest);
    std::vector<PushedArtifact> out;
    if (artifacts.empty())
        return out;
    registry::ReferrersApi api = registry::referrers_api(session, repository, image.digest);
    for (const auto& artifact : artifacts)
        out.push_back(
            { artifact.artifact_type, registry::push_artifact(session, repository, image, artifact, api), api });
    return out;
}

RegistryDocuments fetch_documents(registry::Session& session, const std::string& repository,
    const oci::Descriptor& image, const oci::Manifest& manifest)
{
    RegistryDocuments documents;
    documents.source = session.registry() + "/" + repository;
    for (const auto& referrer : registry::list_referrers(session, repository, image.digest)) {
        const std::string& type = referrer.artifact_type;
        if (type != k_lock_media_type && type != k_sbom_media_type && type != k_report_media_type)
            continue;
        registry::FetchedArtifact artifact = registry::fetch_artifact(session, repository, referrer, image.digest);
        std::string what = documents.source + "@" + artifact.manifest.text() + " (" + type + ")";
        if (artifact.artifact_type != type || artifact.layer_media_type != type)
            throw refused(what,
                "its manifest says artifactType \"" + artifact.artifact_type + "\" and layer type \""
                    + artifact.layer_media_type + "\", the listing \"" + type + "\"");
        check_bound(artifact, image.digest, what);
        if (type == k_lock_media_type) {
            check_lock(artifact, manifest, what);
            documents.lock = artifact.bytes;
        } else if (type == k_sbom_media_type) {
            JsonReader::parse_document(what, artifact.bytes); // an SBOM that is no JSON is refused here
            documents.sbom = artifact.bytes;
        } else {
            documents.reports.push_back(read_report(artifact, image.digest, what, documents.source));
        }
    }
    return documents;
}

store::Verification newest_per_tier(const Digest& image, const std::vector<RegistryReport>& reports)
{
    store::Verification record { image, {} };
    for (const auto& report : reports) {
        auto [found, added] = record.tiers.emplace(report.verification.tier, report.verification);
        if (!added && found->second.time < report.verification.time)
            found->second = report.verification;
    }
    return record;
}

ImageDocuments registry_documents(const ImageReference& reference, bool insecure)
{
    std::unique_ptr<registry::Session> session = registry::open_session(reference, insecure);
    registry::ResolvedImage image = registry::resolve_image(*session, reference, { "amd64", "linux", "" });
    return { image.manifest.digest,
        fetch_documents(*session, reference.repository, image.manifest.descriptor(),
            oci::Manifest::parse(image.manifest.bytes, reference.text())) };
}

ImageSetDocuments platform_documents(const ImageReference& reference, bool insecure)
{
    std::unique_ptr<registry::Session> session = registry::open_session(reference, insecure);
    const std::string& repository = reference.repository;
    registry::FetchedManifest top = registry::get_manifest(*session, repository, reference.manifest_reference());
    ImageSetDocuments found { top.digest, {} };
    std::vector<oci::Descriptor> images = { top.descriptor() };
    if (top.is_index())
        images = oci::Index::parse(top.bytes, reference.text()).manifests;
    for (const auto& image : images) {
        registry::FetchedManifest manifest
            = image.digest == top.digest ? top : registry::get_manifest(*session, repository, image.digest.text());
        found.images.push_back({ image,
            fetch_documents(*session, repository, image, oci::Manifest::parse(manifest.bytes, image.digest.text())) });
    }
    return found;
}

void keep_documents(const store::Store& store, const Digest& image, const RegistryDocuments& documents)
{
    if (documents.lock)
        store::attach(
            store, image, std::string(k_lock_kind), std::string(k_lock_media_type), *documents.lock, documents.source);
    if (documents.sbom)
        store::attach(
            store, image, std::string(k_sbom_kind), std::string(k_sbom_media_type), *documents.sbom, documents.source);
    store::Verification newest = newest_per_tier(image, documents.reports);
    std::vector<store::TierVerification> tiers;
    for (auto& [name, tier] : newest.tiers)
        tiers.push_back(std::move(tier));
    if (!tiers.empty())
        store::record_verification(store, image, tiers);
}

} // namespace dlenv::workflow
