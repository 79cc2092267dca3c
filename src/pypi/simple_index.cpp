#include "pypi/simple_index.h"

#include "core/error.h"
#include "core/file.h"
#include "core/sha256.h"
#include "core/temp_directory.h"
#include "pypi/remote_wheel.h"
#include "pypi/simple_page.h"

#include <optional>

namespace dlenv::pypi {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_json_type = "application/vnd.pypi.simple.v1+json";

} // namespace

SimpleIndex::SimpleIndex(std::string url, http::ClientOptions options, http::RetryPolicy retry, PageLimits limits)
    : m_url(url.ends_with('/') ? std::move(url) : url + "/")
    , m_client(std::move(options))
    , m_retry(retry)
    , m_limits(limits)
{
}

http::Response SimpleIndex::get(
    const std::string& url, const std::vector<http::Header>& headers, std::size_t max_bytes) const
{
    http::Request request;
    request.url = url;
    request.headers = headers;
    request.max_body_bytes = max_bytes;
    return http::with_retries(m_retry, [&] { return m_client.send(request); });
}

std::vector<DistributionFile> SimpleIndex::files(const std::string& project)
{
    auto known = m_files.find(project);
    if (known != m_files.end())
        return known->second;
    std::string page_url = m_url + project + "/";
    try {
        http::Response response
            = get(page_url, { { "Accept", std::string(k_json_type) + ", text/html;q=0.1" } }, m_limits.page_bytes);
        if (response.status == 404)
            return m_files[project];
        if (!response.ok())
            throw Error(ErrorCode::network, "GET " + page_url + " answered HTTP " + std::to_string(response.status),
                "check that the index URL is a simple API root, and that it is up");
        // Relative URLs resolve against the page that answered, after any redirect.
        std::string content_type = response.header("Content-Type").value_or("");
        auto listed = content_type.find(k_json_type) != std::string::npos
            ? parse_simple_json(response.body, response.url, project)
            : parse_simple_html(response.body, response.url, project);
        std::vector<DistributionFile> wheels;
        for (auto& file : listed)
            if (file.filename.ends_with(".whl") && !file.sha256.empty())
                wheels.push_back(std::move(file));
        if (wheels.empty() && !listed.empty())
            throw Error(ErrorCode::not_found,
                "no wheel of " + project + " with a sha256: the index lists only " + listed.front().filename
                    + (listed.size() > 1 ? " and " + std::to_string(listed.size() - 1) + " other files" : ""),
                "dlenv installs wheels only: build a wheel of " + project
                    + ", put it in a wheelhouse and assign the project to it");
        return m_files[project] = std::move(wheels);
    } catch (const Error& e) {
        throw e.with_context("index " + m_url);
    }
}

Metadata SimpleIndex::metadata(const DistributionFile& file)
{
    try {
        if (file.metadata_file)
            return pep658_metadata(file);
        if (auto wheel = RemoteWheel::open(m_client, m_retry, file.url))
            return read_wheel_metadata(
                file.filename, wheel->paths(), [&](const std::string& member) { return wheel->read(member); });
        return downloaded_metadata(file);
    } catch (const Error& e) {
        throw e.with_context("index " + m_url);
    }
}

Metadata SimpleIndex::pep658_metadata(const DistributionFile& file) const
{
    std::string url = file.url + ".metadata";
    http::Response response = get(url, {}, m_limits.metadata_bytes);
    if (!response.ok())
        throw Error(ErrorCode::network, "GET " + url + " answered HTTP " + std::to_string(response.status),
            "the index advertises a metadata file it does not serve; try again later");
    if (!file.metadata_sha256.empty() && sha256_hex(response.body) != file.metadata_sha256)
        throw Error(ErrorCode::verification_failed,
            url + " has sha256 " + sha256_hex(response.body) + ", the index says " + file.metadata_sha256,
            "the index or a proxy serves altered files; do not lock from it");
    return Metadata::parse(response.body, url);
}

Metadata SimpleIndex::downloaded_metadata(const DistributionFile& file) const
{
    TempDirectory temp(fs::temp_directory_path(), "dlenv-wheel-");
    fs::path path = temp.path() / file.filename;
    // Each attempt starts the file and the hash afresh.
    std::optional<AtomicFile> out;
    std::optional<Sha256> hash;
    http::Response response = http::with_retries(m_retry, [&] {
        out.emplace(path);
        hash.emplace();
        http::Request request;
        request.url = file.url;
        request.on_data = [&](std::string_view data) {
            hash->update(data);
            out->write(data);
        };
        return m_client.send(request);
    });
    if (!response.ok())
        throw Error(ErrorCode::network, "GET " + file.url + " answered HTTP " + std::to_string(response.status),
            "check that the index is up");
    std::string digest = hash->hex_digest();
    if (digest != file.sha256)
        throw Error(ErrorCode::verification_failed,
            file.url + " has sha256 " + digest + ", the index says " + file.sha256,
            "the index or a proxy serves altered files; do not lock from it");
    out->commit();
    return read_wheel_metadata(path);
}

} // namespace dlenv::pypi
