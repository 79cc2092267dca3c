#include "sbom/cyclonedx.h"

#include "core/sha256.h"
#include "core/time_text.h"
#include "sbom/inventory.h"

#include <map>

namespace dlenv::sbom {
namespace {

using nlohmann::json;

// "urn:uuid:" and a UUID of version 5's layout (RFC 4122 §4.3) made from the SHA-256 of
// `name`, so one name gives one serial number.
std::string name_uuid(const std::string& name)
{
    std::string hex = sha256_hex(name);
    const char* variant = "89ab";
    return "urn:uuid:" + hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-5" + hex.substr(13, 3) + "-"
        + variant[std::stoi(hex.substr(16, 1), nullptr, 16) % 4] + hex.substr(17, 3) + "-" + hex.substr(20, 12);
}

std::string component_type(ItemKind kind)
{
    switch (kind) {
    case ItemKind::image:
    case ItemKind::base:
        return "container";
    case ItemKind::layer:
        return "file";
    case ItemKind::carried:
    case ItemKind::python:
    case ItemKind::system:
        break;
    }
    return "library";
}

json component(const Item& item)
{
    json entry = { { "type", component_type(item.kind) }, { "bom-ref", item.ref }, { "name", item.name },
        { "version", item.version } };
    if (!item.purl.empty())
        entry["purl"] = item.purl;
    if (!item.sha256.empty())
        entry["hashes"] = json::array({ { { "alg", "SHA-256" }, { "content", item.sha256 } } });
    if (!item.download.empty())
        entry["externalReferences"] = json::array({ { { "type", "distribution" }, { "url", item.download } } });
    if (!item.file_name.empty())
        entry["properties"] = json::array({ { { "name", "dlenv:file_name" }, { "value", item.file_name } } });
    if (!item.supplier.empty())
        entry["supplier"] = { { "name", item.supplier } };
    if (!item.comment.empty())
        entry["description"] = item.comment;
    return entry;
}

} // namespace

json cyclonedx_bom(const Subject& subject, const std::string& version)
{
    std::vector<Item> items = inventory(subject);
    json components = json::array();
    std::map<std::string, json> held; // parent ref -> the refs it holds, in order
    for (const Item& item : items) {
        if (item.kind == ItemKind::image)
            continue;
        components.push_back(component(item));
        held[item.parent].push_back(item.ref);
    }
    json dependencies = json::array();
    for (const auto& [parent, refs] : held)
        dependencies.push_back({ { "ref", parent }, { "dependsOn", refs } });
    return {
        { "bomFormat", "CycloneDX" },
        { "specVersion", "1.5" },
        { "serialNumber", name_uuid(subject.name + "@" + subject.image.text()) },
        { "version", 1 },
        { "metadata",
            { { "timestamp", rfc3339_utc(subject.lock.image().source_date_epoch) },
                { "tools",
                    { { "components",
                        json::array(
                            { { { "type", "application" }, { "name", "dlenv" }, { "version", version } } }) } } },
                { "component", component(items.front()) } } },
        { "components", components },
        { "dependencies", dependencies },
    };
}

} // namespace dlenv::sbom
