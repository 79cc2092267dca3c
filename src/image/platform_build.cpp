#include "image/platform_build.h"

#include "core/error.h"
#include "oci/media_types.h"
#include "registry/platform.h"

namespace dlenv::image {
namespace {

BuildRequest request_for(const BuildRequest& request, const std::string& platform)
{
    BuildRequest out = request;
    out.lock = request.lock.for_platform(platform);
    out.base.platform = registry::parse_platform(platform);
    if (out.base.kind == BaseSource::Kind::registry)
        out.base.pinned_manifest = out.lock.base_image().manifest;
    return out;
}

void merge(BuildResult& into, BuildResult&& from)
{
    for (auto& layer : from.layers)
        into.layers.push_back(std::move(layer));
    into.base_fit.insert(into.base_fit.end(), from.base_fit.begin(), from.base_fit.end());
    into.system_packages.insert(into.system_packages.end(), from.system_packages.begin(), from.system_packages.end());
    for (auto& artifact : from.fetched)
        into.fetched.push_back(std::move(artifact));
}

} // namespace

BuildResult build_platforms(
    const BuildRequest& request, const std::function<BuildResult(const BuildRequest&)>& build, store::Store& store)
{
    std::optional<BuildResult> result;
    oci::Index index;
    for (const auto& platform : request.lock.platforms()) {
        BuildResult built = [&] {
            try {
                return build(request_for(request, platform));
            } catch (const Error& e) {
                throw e.with_context("platform " + platform);
            }
        }();
        oci::Descriptor manifest = built.manifest;
        manifest.platform = registry::parse_platform(platform);
        index.manifests.push_back(manifest);
        if (result)
            merge(*result, std::move(built));
        else
            result = std::move(built);
    }
    result->platforms = index.manifests;
    result->manifest = store.layout().write_blob(oci::to_blob_json(index.to_json()), oci::media_type::k_index);
    return std::move(*result);
}

void check_base_architecture(const nlohmann::json& config, const oci::Platform& platform, const std::string& base)
{
    for (const auto& [key, wanted] : { std::pair { "os", platform.os }, { "architecture", platform.architecture } }) {
        auto field = config.find(key);
        if (field == config.end() || !field->is_string() || field->get<std::string>() == wanted)
            continue;
        throw Error(ErrorCode::invalid_input,
            "base image " + base + ": its config's " + key + " is " + field->get<std::string>() + ", not " + wanted,
            "name a base built for " + platform.os + "/" + platform.architecture);
    }
}

} // namespace dlenv::image
