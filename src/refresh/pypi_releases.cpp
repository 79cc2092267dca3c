#include "refresh/pypi_releases.h"

#include "core/json_reader.h"
#include "refresh/upstream.h"

#include <algorithm>

namespace dlenv::refresh {

std::vector<Pep440Version> parse_pypi_releases(const std::string& body, const std::string& url)
{
    nlohmann::json json = JsonReader::parse_document(url, body);
    JsonReader doc(url, json);
    JsonReader releases = doc.at("releases");
    if (!releases.raw().is_object())
        releases.fail("expected an object of versions");
    std::vector<Pep440Version> out;
    for (const auto& [text, files] : releases.raw().items()) {
        JsonReader entry = releases.at(text);
        auto version = Pep440Version::try_parse(text);
        if (!version)
            entry.fail("'" + text + "' is not a PEP 440 version", "this is not PyPI's JSON API; check the source URL");
        if (version->is_prerelease())
            continue;
        auto items = entry.items();
        if (std::any_of(items.begin(), items.end(), [](const JsonReader& f) { return !f.at("yanked").boolean(); }))
            out.push_back(*version);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<Pep440Version> pypi_releases(
    const http::Client& client, const std::string& pypi_url, const std::string& project, std::size_t max_bytes)
{
    std::string url = pypi_url + project + "/json";
    auto body = get_document(client, url, max_bytes);
    return body ? parse_pypi_releases(*body, url) : std::vector<Pep440Version> {};
}

} // namespace dlenv::refresh
