#include "image/builder.h"

#include "core/error.h"
#include "core/file.h"
#include "core/json_reader.h"
#include "core/time_text.h"
#include "image/base_fit.h"
#include "image/base_image.h"
#include "image/base_python.h"
#include "image/image_config.h"
#include "image/image_labels.h"
#include "image/packages_layer.h"
#include "image/platform_build.h"
#include "image/system_layer.h"
#include "lock/lockfile.h"
#include "oci/layer_index.h"
#include "oci/layer_writer.h"
#include "oci/media_types.h"
#include "registry/platform.h"
#include "store/layer_cache.h"
#include "store/staging.h"
#include "store/tags.h"

#include <mutex>

namespace dlenv::image {
namespace {

// OCI media types for what a Docker base brought in: the bytes are the same formats.
oci::Descriptor as_oci(oci::Descriptor descriptor)
{
    if (descriptor.media_type == oci::media_type::k_docker_config)
        descriptor.media_type = oci::media_type::k_config;
    else if (descriptor.media_type == oci::media_type::k_docker_layer_gzip)
        descriptor.media_type = oci::media_type::k_layer_gzip;
    else if (descriptor.media_type == oci::media_type::k_docker_layer_tar)
        descriptor.media_type = oci::media_type::k_layer_tar;
    descriptor.annotations.clear();
    return descriptor;
}

// A blob of the base, which import_base found in the store; a damaged one is named with
// the base it belongs to, as the blob's path alone does not say.
std::string read_base_blob(const store::Store& store, const oci::Descriptor& blob, const std::string& base_reference)
{
    try {
        return store.layout().read_blob(blob);
    } catch (const Error& e) {
        throw e.with_context("base image " + base_reference);
    }
}

std::pair<BuiltLayer, Digest> write_or_reuse(const PlannedLayer& plan, const std::optional<store::CachedLayer>& cached,
    const store::Store& store, const BuildRequest& request)
{
    if (cached)
        return { { plan.created_by, cached->descriptor, true }, cached->diff_id };
    // What fails below (a damaged wheel, a file that changed) names itself but not the
    // layer it was going into.
    try {
        store::StagingDir staging(store);
        oci::WrittenLayer written = oci::write_layer(plan.entries(store, staging.path()),
            { request.compression, request.source_date_epoch, 0 }, store.layout().new_blob());
        store::remember_layer(store, plan.cache_key, { written.descriptor, written.diff_id });
        return { { plan.created_by, written.descriptor, false }, written.diff_id };
    } catch (const Error& e) {
        throw e.with_context(plan.name);
    }
}

// The artifacts are fetched only when a layer that reads them must be written: a store
// whose layers are cached builds without them, even after they were removed.
std::vector<FetchedArtifact> fetch_for_layers(const BuildRequest& request, const std::vector<PlannedLayer>& planned,
    const store::Store& store, const std::vector<std::optional<store::CachedLayer>>& cached,
    const std::function<void(const std::string&)>& progress)
{
    bool needed = false;
    for (std::size_t i = 0; i < planned.size(); ++i)
        needed = needed || (planned[i].reads_artifacts && !cached[i]);
    if (!needed)
        return {};
    std::mutex mutex;
    return fetch_artifacts(request.lock, store, request.fetch, [&](const registry::BlobProgress& fetched) {
        if (fetched.state != registry::BlobProgress::State::finished)
            return;
        std::lock_guard lock(mutex);
        progress("fetched " + fetched.label + " (" + std::to_string(fetched.size) + " bytes)");
    });
}

// The base is named as the lock names it, wherever --base fetched it from: its digest
// pins the content, and a path on the build machine would change the image's digest.
std::map<std::string, std::string> manifest_annotations(
    const lock::Lockfile& lock, const std::optional<oci::Descriptor>& base, std::int64_t epoch)
{
    std::map<std::string, std::string> annotations = image_labels(lock);
    annotations["org.opencontainers.image.created"] = rfc3339_utc(epoch);
    if (base) {
        annotations["org.opencontainers.image.base.name"] = lock.base_image().reference;
        annotations["org.opencontainers.image.base.digest"] = base->digest.text();
    }
    return annotations;
}

// The planned layers with the packages layer in its place, above the runtime layer when
// the lock pins one. The base's Python, when it is what the packages are for, is read
// from the tar headers of its layers: a few paths decide it, so nothing is unpacked.
std::vector<PlannedLayer> with_packages_layer(const BuildRequest& request, const store::Store& store,
    const std::vector<oci::Descriptor>& base_layers, bool has_base, std::optional<PackagesTarget>& target)
{
    const lock::Lockfile& lock = request.lock;
    std::vector<PlannedLayer> layers = request.layers;
    if (!lock.packages() || lock.packages()->empty())
        return layers;
    std::optional<BasePython> python;
    if (!lock.python().runtime && has_base) {
        try {
            python = find_base_python(oci::index_layers(store.layout(), base_layers, python_path));
        } catch (const Error& e) {
            throw e.with_context("base image " + request.base.reference);
        }
    }
    target = packages_target(lock, python, request.base.reference);
    auto packages = packages_layer(lock, target->scheme, request.source_date_epoch, request.compression);
    layers.insert(layers.begin() + (lock.python().runtime ? 1 : 0), std::move(*packages));
    return layers;
}

// The system packages' layer of a lock that names them, on what the base's layers say it
// holds (its dpkg status and top-level links, read without unpacking).
std::optional<SystemLayer> plan_system_layer(const BuildRequest& request, const store::Store& store,
    const std::vector<oci::Descriptor>& base_layers, bool has_base)
{
    if (!request.lock.system_packages())
        return std::nullopt;
    if (!has_base)
        throw Error(ErrorCode::invalid_input, "the lock pins system packages, and the base is scratch",
            "system packages go onto a Debian or Ubuntu base");
    try {
        return system_packages_layer(
            request.lock, read_base_filesystem(store.layout(), base_layers), request.compression);
    } catch (const Error& e) {
        throw e.with_context("base image " + request.base.reference);
    }
}

} // namespace

BuildRequest prepare_build(const std::filesystem::path& lockfile, const std::string& name, const std::string& base,
    oci::Compression compression, const std::filesystem::path& store_dir)
{
    lock::Lockfile lock = lock::Lockfile::parse(lockfile.string(), read_file(lockfile));
    std::string image = name.empty() ? lock.profile().name : name;
    store::check_image_name(image);
    BaseSource source = base.empty() ? locate_base(lock.base_image().reference, lock.base_image().manifest, store_dir)
                                     : locate_base(base, std::nullopt, store_dir);
    source.platform = registry::parse_platform(lock.base_image().platform);
    std::vector<PlannedLayer> layers = plan_layers(lock, compression);
    return BuildRequest { lock, image, source, layers, compression, lock.image().source_date_epoch, false, {} };
}

namespace {

// The image of one platform, its blobs and manifest written; nothing recorded yet.
BuildResult build_manifest(const BuildRequest& request, store::Store& store, const matrix::Matrix& matrix,
    const std::function<void(const std::string&)>& progress)
{
    const lock::Lockfile& lock = request.lock;
    const std::string& base_reference = request.base.reference;
    std::int64_t epoch = request.source_date_epoch;

    progress("base image " + base_reference);
    std::optional<oci::Descriptor> base = import_base(request.base, store, request.insecure_registry);
    std::vector<oci::Descriptor> layers;
    nlohmann::json base_config;
    std::vector<Finding> base_fit;
    std::vector<oci::Descriptor> base_layers;
    if (base) {
        oci::Manifest base_manifest
            = oci::Manifest::parse(read_base_blob(store, *base, base_reference), base_reference);
        base_config = JsonReader::parse_document_or_null(read_base_blob(store, base_manifest.config, base_reference));
        if (!base_config.is_object())
            throw Error(ErrorCode::invalid_input,
                "base image " + base_reference + ": its config " + base_manifest.config.digest.text()
                    + " is not a JSON object");
        check_base_architecture(base_config, request.base.platform, base_reference);
        base_fit = check_base_fits(lock, base_reference, base_config, matrix);
        base_layers = base_manifest.layers;
        for (const auto& layer : base_manifest.layers)
            layers.push_back(as_oci(layer));
    }
    std::vector<BuiltLayer> built;
    std::vector<FetchedArtifact> fetched;
    std::vector<std::string> system_notes;
    ConfigChanges changes { epoch, nvidia_environment(lock, matrix), image_labels(lock), {},
        request.base.platform.architecture };
    auto add_layer = [&](const PlannedLayer& plan, const std::optional<store::CachedLayer>& cached) {
        progress(plan.created_by);
        auto [layer, diff_id] = write_or_reuse(plan, cached, store, request);
        built.push_back(layer);
        layers.push_back(layer.descriptor);
        changes.layers.emplace_back(diff_id, plan.created_by);
        return layer;
    };
    // The system packages come first, right above the base: the Python they may bring is
    // the base's Python for the packages layer, so it is read from them too.
    if (std::optional<SystemLayer> system = plan_system_layer(request, store, base_layers, base.has_value())) {
        std::optional<store::CachedLayer> cached = store::find_cached_layer(store, system->layer.cache_key);
        fetched = fetch_for_layers(request, { system->layer }, store, { cached }, progress);
        BuiltLayer layer = add_layer(system->layer, cached);
        system_notes = layer.reused ? std::vector<std::string> { "system packages layer reused from the layer cache" }
                                    : *system->notes;
        base_layers.push_back(layer.descriptor);
    }
    std::optional<PackagesTarget> packages;
    std::vector<PlannedLayer> planned = with_packages_layer(request, store, base_layers, base.has_value(), packages);

    std::vector<std::optional<store::CachedLayer>> cached;
    for (const auto& plan : planned)
        cached.push_back(store::find_cached_layer(store, plan.cache_key));
    if (fetched.empty())
        fetched = fetch_for_layers(request, planned, store, cached, progress);
    for (std::size_t i = 0; i < planned.size(); ++i)
        add_layer(planned[i], cached[i]);

    oci::Descriptor config
        = store.layout().write_blob(oci::to_blob_json(compose_config(base_config, changes)), oci::media_type::k_config);
    oci::Manifest manifest { std::string(oci::media_type::k_manifest), config, layers,
        manifest_annotations(lock, base, epoch) };
    oci::Descriptor written
        = store.layout().write_blob(oci::to_blob_json(manifest.to_json()), oci::media_type::k_manifest);

    // The history is build_image's to record, once the tags move.
    return BuildResult { request.name, lock.digest().text(), written, built, base_fit, packages, system_notes, fetched,
        store::HistoryEntry { {}, {}, {}, written, {} }, {} };
}

} // namespace

BuildResult build_image(const BuildRequest& request, store::Store& store, const matrix::Matrix& matrix,
    std::int64_t now, const std::function<void(const std::string&)>& progress)
{
    BuildResult result = request.lock.other_platforms().empty()
        ? build_manifest(request, store, matrix, progress)
        : build_platforms(
            request,
            [&](const BuildRequest& platform) {
                progress("platform " + platform.lock.base_image().platform);
                return build_manifest(platform, store, matrix, progress);
            },
            store);
    store::Records records = store.records();
    result.history = store::record_build(records, result.name, result.manifest, result.lock_digest, now);
    store.commit(std::move(records));
    return result;
}

} // namespace dlenv::image
