#include "sbom/inventory.h"

#include "core/image_reference.h"
#include "sbom/purl.h"

namespace dlenv::sbom {
namespace {

constexpr const char* k_image = "Image";
constexpr const char* k_base = "Base";

// A ref of `kind` for `name`: any character but A-Z a-z 0-9 - is written ".XX" (hex), as
// SPDX identifiers allow no other.
std::string ref(const std::string& kind, const std::string& name)
{
    return kind + "-" + escape_bytes(name, "-", '.');
}

// The distribution a system package's purl names: Ubuntu's archives, else Debian's.
std::string deb_distro(const lock::LockedArchive& archive)
{
    return archive.url.find("ubuntu") != std::string::npos ? "ubuntu" : "debian";
}

template <typename Version>
void add_carried(
    std::vector<Item>& items, const std::optional<resolve::BaseFact<Version>>& fact, const std::string& name)
{
    if (fact)
        items.push_back({ ItemKind::carried, ref(k_base, name), name, fact->value.text(), "", "", "", "",
            "NVIDIA Corporation", "as the base says: " + fact->origin, k_base });
}

void add_base(std::vector<Item>& items, const lock::BaseImageSection& base, const std::optional<Digest>& built_on)
{
    const std::optional<Digest>& digest = base.digest ? base.digest : built_on;
    if (!digest)
        return;
    // A base read from a layout or an archive has no registry to name in a purl.
    std::string name = base.reference;
    std::string purl;
    if (is_registry_reference(base.reference)) {
        ImageReference reference = ImageReference::parse(base.reference);
        name = reference.familiar_name();
        purl = oci_purl(reference, *digest);
    }
    items.push_back({ ItemKind::base, k_base, name, digest->text(), purl, digest->hex(), "", "", "",
        "base image " + base.reference + ", built on its " + base.platform + " manifest "
            + (built_on ? built_on->text() : std::string("NOASSERTION")),
        k_image });
    if (base.carries) {
        add_carried(items, base.carries->cuda, "CUDA");
        add_carried(items, base.carries->cudnn, "cuDNN");
        add_carried(items, base.carries->nccl, "NCCL");
    }
}

} // namespace

std::vector<Item> inventory(const Subject& subject)
{
    const lock::Lockfile& lock = subject.lock;
    std::vector<Item> items { { ItemKind::image, k_image, subject.name, subject.image.text(), "", subject.image.hex(),
        "", "", "", "built from lock " + lock.digest().text(), "" } };
    add_base(items, lock.base_image(), subject.base);
    if (lock.packages())
        for (const auto& package : *lock.packages())
            items.push_back({ ItemKind::python, ref("PyPI", package.name), package.name, package.version,
                pypi_purl(package.name, package.version), package.sha256, package.url, package.filename, "", "",
                k_image });
    if (lock.system_packages()) {
        const lock::SystemPackagesSection& section = *lock.system_packages();
        for (const auto& deb : section.packages)
            items.push_back({ ItemKind::system, ref("Deb", deb.name), deb.name, deb.version,
                deb_purl(deb_distro(section.archive), deb.name, deb.version, deb.architecture), deb.sha256, deb.url,
                deb.filename, "", "", k_image });
    }
    for (const auto& layer : subject.layers)
        items.push_back({ ItemKind::layer, ref("Layer", layer.descriptor.digest.hex()), layer.created_by,
            layer.descriptor.digest.text(), "", layer.descriptor.digest.hex(), "", "", "",
            layer.descriptor.media_type + ", " + std::to_string(layer.descriptor.size) + " bytes", k_image });
    return items;
}

} // namespace dlenv::sbom
