#include "store/reachability.h"

#include "oci/media_types.h"

namespace dlenv::store {
namespace {

void walk(const oci::ImageLayout& layout, const oci::Descriptor& node, const std::string& referrer,
    const std::function<bool(const oci::Descriptor&, const std::string&)>& visit)
{
    if (!visit(node, referrer))
        return;
    std::string self = node.digest.short_text();
    if (node.media_type == oci::media_type::k_index) {
        for (const auto& child : oci::Index::parse(layout.read_blob(node), self).manifests)
            walk(layout, child, "index " + self, visit);
    } else if (node.media_type == oci::media_type::k_manifest
        || node.media_type == oci::media_type::k_docker_manifest) {
        oci::Manifest manifest = oci::Manifest::parse(layout.read_blob(node), "manifest " + self);
        visit(manifest.config, "manifest " + self);
        for (const auto& layer : manifest.layers)
            visit(layer, "manifest " + self);
    }
}

} // namespace

void walk_image(const oci::ImageLayout& layout, const oci::Descriptor& root,
    const std::function<bool(const oci::Descriptor&, const std::string&)>& visit)
{
    walk(layout, root, "index.json", visit);
}

} // namespace dlenv::store
