#include "sbom/spdx.h"

#include "core/time_text.h"
#include "sbom/inventory.h"
#include "sbom/purl.h"

namespace dlenv::sbom {
namespace {

using nlohmann::json;

std::string spdx_id(const std::string& ref)
{
    return "SPDXRef-" + ref;
}

std::string purpose(ItemKind kind)
{
    switch (kind) {
    case ItemKind::image:
    case ItemKind::base:
        return "CONTAINER";
    case ItemKind::system:
        return "OPERATING_SYSTEM";
    case ItemKind::layer:
        return "ARCHIVE";
    case ItemKind::carried:
    case ItemKind::python:
        break;
    }
    return "LIBRARY";
}

json package(const Item& item)
{
    json entry = { { "SPDXID", spdx_id(item.ref) }, { "name", item.name }, { "versionInfo", item.version },
        { "downloadLocation", item.download.empty() ? "NOASSERTION" : item.download }, { "filesAnalyzed", false },
        { "primaryPackagePurpose", purpose(item.kind) } };
    if (!item.file_name.empty())
        entry["packageFileName"] = item.file_name;
    if (!item.sha256.empty())
        entry["checksums"] = json::array({ { { "algorithm", "SHA256" }, { "checksumValue", item.sha256 } } });
    if (!item.purl.empty())
        entry["externalRefs"] = json::array({ { { "referenceCategory", "PACKAGE-MANAGER" }, { "referenceType", "purl" },
            { "referenceLocator", item.purl } } });
    if (!item.supplier.empty())
        entry["supplier"] = "Organization: " + item.supplier;
    if (!item.comment.empty())
        entry["comment"] = item.comment;
    return entry;
}

json relationship(const std::string& from, const std::string& type, const std::string& to)
{
    return { { "spdxElementId", from }, { "relationshipType", type }, { "relatedSpdxElement", to } };
}

} // namespace

json spdx_document(const Subject& subject, const std::string& version)
{
    json packages = json::array();
    json relationships = json::array();
    for (const Item& item : inventory(subject)) {
        packages.push_back(package(item));
        if (item.kind == ItemKind::image)
            relationships.push_back(relationship("SPDXRef-DOCUMENT", "DESCRIBES", spdx_id(item.ref)));
        else if (item.kind == ItemKind::base)
            relationships.push_back(relationship(spdx_id(item.parent), "DESCENDANT_OF", spdx_id(item.ref)));
        else
            relationships.push_back(relationship(spdx_id(item.parent), "CONTAINS", spdx_id(item.ref)));
    }
    return {
        { "spdxVersion", "SPDX-2.3" },
        { "dataLicense", "CC0-1.0" },
        { "SPDXID", "SPDXRef-DOCUMENT" },
        { "name", subject.name + "@" + subject.image.text() },
        { "documentNamespace", "https://dlenv.dev/spdx/" + purl_encode(subject.name) + "-" + subject.image.hex() },
        { "creationInfo",
            { { "created", rfc3339_utc(subject.lock.image().source_date_epoch) },
                { "creators", json::array({ "Tool: dlenv-" + version }) } } },
        { "packages", packages },
        { "relationships", relationships },
    };
}

} // namespace dlenv::sbom
