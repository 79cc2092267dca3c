#include "deb/archive.h"

#include "core/error.h"
#include "core/file.h"
#include "core/sha256.h"
#include "deb/compressed.h"

#include <algorithm>
#include <filesystem>

namespace dlenv::deb {
namespace {

constexpr std::string_view k_file_scheme = "file://";

// The compressions apt tries, in its order of preference.
const std::vector<std::string> k_packages_names = { "Packages.xz", "Packages.gz", "Packages" };

std::string tail_of(const std::string& text)
{
    return text.size() > 200 ? text.substr(0, 200) + "..." : text;
}

} // namespace

std::string fetch_bounded(const http::Client& client, const std::string& url, std::size_t limit)
{
    auto too_large
        = [&] { return Error(ErrorCode::invalid_input, url + ": more than " + std::to_string(limit) + " bytes"); };
    if (url.starts_with(k_file_scheme)) {
        std::filesystem::path path = url.substr(k_file_scheme.size());
        std::error_code error;
        if (!std::filesystem::is_regular_file(path, error))
            throw Error(ErrorCode::network, "GET " + url + ": no such file");
        if (std::filesystem::file_size(path) > limit)
            throw too_large();
        return read_file(path);
    }
    std::string body;
    http::Request request;
    request.url = url;
    request.on_data = [&](std::string_view piece) {
        if (body.size() + piece.size() > limit)
            throw too_large();
        body.append(piece);
    };
    http::Response response = client.send(request);
    if (!response.ok())
        throw Error(ErrorCode::network, "GET " + url + ": HTTP " + std::to_string(response.status),
            response.status == 404 ? "check the archive's URL, suite and components" : tail_of(response.body));
    return body;
}

ArchiveIndex read_archive(const ArchiveSource& source, const std::string& architecture, const http::Client& client,
    const std::function<void(const std::string&)>& progress)
{
    auto fetch = [&](const std::string& url, std::size_t limit) {
        if (progress)
            progress(url);
        return fetch_bounded(client, url, limit);
    };
    ArchiveIndex index;
    for (const auto& suite : source.suites) {
        std::string base = source.url + "/dists/" + suite + "/";
        std::string release_text = fetch(base + "Release", k_max_release_bytes);
        index.releases.push_back({ suite, sha256_hex(release_text) });
        Release release = parse_release(base + "Release", release_text);
        for (const auto& component : source.components) {
            std::string directory = component + "/binary-" + architecture + "/";
            auto listed = std::find_if(k_packages_names.begin(), k_packages_names.end(),
                [&](const std::string& name) { return release.files.contains(directory + name); });
            if (listed == k_packages_names.end())
                throw Error(ErrorCode::not_found, base + "Release lists no " + directory + "Packages(.xz|.gz)",
                    "check that the suite has the component " + component + " for " + architecture);
            std::string path = directory + *listed;
            const IndexedFile& expected = release.files.at(path);
            std::string bytes = fetch(base + path, static_cast<std::size_t>(expected.size) + 1);
            std::string actual = sha256_hex(bytes);
            if (actual != expected.sha256 || static_cast<std::int64_t>(bytes.size()) != expected.size)
                throw Error(ErrorCode::verification_failed,
                    base + path + " has sha256 " + actual + " (" + std::to_string(bytes.size())
                        + " bytes), its Release says " + expected.sha256 + " (" + std::to_string(expected.size)
                        + " bytes)",
                    "the archive changed while it was read, or a proxy altered it; try again, or use a snapshot");
            std::string text = decompress_index(bytes, base + path, k_max_packages_bytes);
            std::vector<Package> packages = parse_packages(base + path, text, suite + "/" + component);
            index.packages.insert(index.packages.end(), std::make_move_iterator(packages.begin()),
                std::make_move_iterator(packages.end()));
        }
    }
    return index;
}

} // namespace dlenv::deb
