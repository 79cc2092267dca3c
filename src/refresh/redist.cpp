#include "refresh/redist.h"

#include "core/json_reader.h"
#include "refresh/upstream.h"

#include <algorithm>
#include <map>

namespace dlenv::refresh {
namespace {

// Past this many updates of one line, or new lines, the server is not NVIDIA's.
constexpr std::uint32_t k_max_probes = 32;

CudaVersion release(std::uint32_t major, std::uint32_t minor, std::uint32_t patch)
{
    return CudaVersion::parse(std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch));
}

std::uint32_t patch_of(const CudaVersion& v)
{
    return v.parts().size() > 2 ? v.parts()[2] : 0;
}

class Prober {
public:
    Prober(const http::Client& client, std::string base, std::size_t max_bytes)
        : m_client(client)
        , m_base(std::move(base))
        , m_max_bytes(max_bytes)
    {
    }

    std::optional<PublishedCudaRelease> get(const CudaVersion& version)
    {
        std::string url = m_base + "redistrib_" + version.text() + ".json";
        auto body = get_document(m_client, url, m_max_bytes);
        if (!body)
            return std::nullopt;
        return parse_redistrib(*body, url, version);
    }

    // The updates of X.Y after `patch`, until one is not published.
    void updates_after(
        std::uint32_t major, std::uint32_t minor, std::uint32_t patch, std::vector<PublishedCudaRelease>& out)
    {
        for (std::uint32_t next = patch + 1; next <= patch + k_max_probes; ++next) {
            auto found = get(release(major, minor, next));
            if (!found)
                return;
            out.push_back(std::move(*found));
        }
    }

private:
    const http::Client& m_client;
    std::string m_base;
    std::size_t m_max_bytes;
};

} // namespace

PublishedCudaRelease parse_redistrib(const std::string& body, const std::string& url, const CudaVersion& expected)
{
    nlohmann::json json = JsonReader::parse_document(url, body);
    JsonReader doc(url, json);
    CudaVersion label = doc.at("release_label").as<CudaVersion>();
    if (label != expected || label.parts().size() != 3)
        doc.at("release_label")
            .fail("expected " + expected.text() + ", got '" + label.text() + "'",
                "the server answers another release's manifest; check the source URL");
    PublishedCudaRelease out { label, url, doc.optional_string("release_date").value_or(""), std::nullopt };
    if (auto driver = doc.find("nvidia_driver"))
        out.bundled_driver = driver->at("version").as<DriverVersion>();
    return out;
}

std::vector<PublishedCudaRelease> unknown_cuda_releases(
    const matrix::Matrix& matrix, const http::Client& client, const std::string& redist_url, std::size_t max_bytes)
{
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> newest; // X.Y -> newest patch known
    for (const auto& toolkit : matrix.toolkits()) {
        auto key = std::pair(toolkit.version.major(), toolkit.version.minor());
        auto [at, added] = newest.try_emplace(key, patch_of(toolkit.version));
        at->second = std::max(at->second, patch_of(toolkit.version));
    }
    Prober prober(client, redist_url, max_bytes);
    std::vector<PublishedCudaRelease> out;
    for (const auto& [line, patch] : newest)
        prober.updates_after(line.first, line.second, patch, out);
    if (newest.empty())
        return out;
    auto [major, minor] = newest.rbegin()->first;
    for (std::uint32_t probes = 0; probes < k_max_probes; ++probes) {
        std::optional<PublishedCudaRelease> first = prober.get(release(major, minor + 1, 0));
        if (first) {
            ++minor;
        } else if ((first = prober.get(release(major + 1, 0, 0)))) {
            ++major;
            minor = 0;
        } else {
            break;
        }
        out.push_back(std::move(*first));
        prober.updates_after(major, minor, 0, out);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.version < b.version; });
    return out;
}

} // namespace dlenv::refresh
