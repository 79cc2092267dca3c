#include "refresh/row_edits.h"

#include <algorithm>

namespace dlenv::refresh {
namespace {

using Json = nlohmann::ordered_json;

// "12.4 Update 1", "12.4 GA": how NVIDIA's release notes name the releases.
std::string release_name(const CudaVersion& version)
{
    std::string line = version.truncated(2).text();
    std::uint32_t update = version.parts()[2];
    return update == 0 ? line + " GA" : line + " Update " + std::to_string(update);
}

std::string source_key(const CudaVersion& version)
{
    std::string key = "REDIST_";
    for (auto part : version.parts())
        key += std::to_string(part);
    return key;
}

} // namespace

void add_toolkits(Documents& docs, const Published& published, Proposal& proposal)
{
    for (const auto& release : published.cuda) {
        std::string key = docs.cite("cuda.json", source_key(release.version),
            "NVIDIA CUDA " + release.version.text() + " redistributable manifest redistrib_" + release.version.text()
                + ".json (component versions of the release), read by dlenv matrix refresh",
            release.url);
        std::string bundled = release.bundled_driver
            ? " (the manifest bundles Linux driver " + release.bundled_driver->text() + ")"
            : "";
        Json row { { "version", release.version.text() }, { "name", release_name(release.version) },
            { "driver_linux", nullptr }, { "driver_windows", nullptr },
            { "note",
                "Proposed by dlenv matrix refresh from redistrib_" + release.version.text() + ".json"
                    + (release.release_date.empty() ? "" : ", released " + release.release_date)
                    + ". The minimum drivers are not derived: fill them from the release notes' driver table" + bundled
                    + "." },
            { "source", Json::array({ key }) }, { "confidence", "confirmed" } };
        Json& toolkits = docs.edit("cuda.json")["toolkits"];
        auto at = std::find_if(toolkits.begin(), toolkits.end(),
            [&](const Json& t) { return CudaVersion::parse(t["version"].get<std::string>()) < release.version; });
        toolkits.insert(at, row);
        proposal.changes.push_back({ "cuda.json", "toolkits[version=" + release.version.text() + "]", true,
            release_name(release.version) + (release.release_date.empty() ? "" : ", released " + release.release_date)
                + bundled,
            { "driver_linux", "driver_windows" } });
    }
}

} // namespace dlenv::refresh
