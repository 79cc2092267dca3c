#include "refresh/row_edits.h"
#include "refresh/torch_index.h"

#include <algorithm>

namespace dlenv::refresh {
namespace {

using Json = nlohmann::ordered_json;

const std::vector<Pep440Version>& releases_of(const Published& published, const std::string& project)
{
    static const std::vector<Pep440Version> none;
    auto it = published.pypi.find(project);
    return it == published.pypi.end() ? none : it->second;
}

// Published releases no row can be derived for, as one line: the newest three by name.
void report(const std::vector<Pep440Version>& releases, const std::string& project, const std::string& why,
    const std::string& needs, Proposal& proposal)
{
    if (releases.empty())
        return;
    std::string shown = releases.size() > 3 ? std::to_string(releases.size() - 3) + " more, " : "";
    for (std::size_t i = releases.size() > 3 ? releases.size() - 3 : 0; i < releases.size(); ++i)
        shown += releases[i].public_str() + (i + 1 < releases.size() ? ", " : "");
    proposal.hand_rows.push_back(project + " " + shown + " on PyPI: " + why + "; needs " + needs);
}

std::vector<Pep440Version> newer_than(
    const std::vector<Pep440Version>& releases, const std::optional<Pep440Version>& newest)
{
    std::vector<Pep440Version> out;
    for (const auto& v : releases)
        if (!newest || *newest < v)
            out.push_back(v);
    return out;
}

} // namespace

void add_tensorflow(Documents& docs, const matrix::Matrix& matrix, const Published& published, Proposal& proposal)
{
    std::optional<Pep440Version> newest_line;
    for (const auto& release : matrix.tensorflow_releases())
        if (auto line = Pep440Version::parse(release.line); !newest_line || *newest_line < line)
            newest_line = line;
    std::vector<Pep440Version> unmatched;
    for (const auto& version : releases_of(published, "tensorflow")) {
        std::string line = release_line(version);
        auto known = std::find_if(matrix.tensorflow_releases().begin(), matrix.tensorflow_releases().end(),
            [&](const matrix::TensorflowRelease& r) { return r.line == line; });
        if (known == matrix.tensorflow_releases().end()) {
            if (newest_line && *newest_line < Pep440Version::parse(line))
                unmatched.push_back(version);
            continue;
        }
        if (std::find(known->versions.begin(), known->versions.end(), version) != known->versions.end())
            continue;
        Json& releases = docs.edit("tensorflow.json")["releases"];
        for (auto& row : releases) {
            if (row["line"] != line)
                continue;
            row["versions"].push_back(version.public_str());
            std::string key = docs.cite("tensorflow.json", source_key("PYPI_", "tensorflow"),
                "PyPI JSON API of tensorflow (its releases), read by dlenv matrix refresh",
                published.upstream.pypi + "tensorflow/json");
            if (std::find(row["source"].begin(), row["source"].end(), Json(key)) == row["source"].end())
                row["source"].push_back(key);
        }
        proposal.changes.push_back({ "tensorflow.json", "releases[line=" + line + "].versions", false,
            "+ " + version.public_str() + " (a patch release of the line: check that its tested build is the line's)",
            {} });
    }
    report(unmatched, "tensorflow", "no row of their lines",
        "a row per line (CUDA, cuDNN, Python from the tested build configurations)", proposal);
}

void add_jax_alone(Documents& docs, const matrix::Matrix& matrix, const Published& published, Proposal& proposal)
{
    const auto& jaxlib = releases_of(published, "jaxlib");
    if (jaxlib.empty())
        return; // jaxlib's releases were not read: nothing says which jax releases lack one
    // the jax releases of the rows whose jax and jaxlib share their numbers (0.4.0 on)
    std::vector<Pep440Version> shared;
    for (const auto& release : matrix.jax_releases())
        if (!release.jax_versions)
            shared.insert(shared.end(), release.versions.begin(), release.versions.end());
    for (const auto& version : releases_of(published, "jax")) {
        if (std::find(shared.begin(), shared.end(), version) == shared.end()
            || std::find(jaxlib.begin(), jaxlib.end(), version) != jaxlib.end() || matrix.jax_released_alone(version))
            continue;
        std::optional<Pep440Version> installs; // the newest jaxlib before it
        for (const auto& v : jaxlib)
            if (v < version && (!installs || *installs < v))
                installs = v;
        if (!installs)
            continue;
        Json& doc = docs.edit("jax.json");
        std::vector<std::string> sources;
        for (const std::string project : { "jax", "jaxlib" })
            sources.push_back(docs.cite("jax.json", source_key("PYPI_", project),
                "PyPI JSON API of " + project + " (its releases), read by dlenv matrix refresh",
                published.upstream.pypi + project + "/json"));
        if (!doc.contains("jax_alone_releases"))
            doc["jax_alone_releases"] = { { "rows", Json::array() },
                { "note",
                    "Rows proposed from PyPI: the jaxlib is the newest before the release, to be checked "
                    "against setup.py's _current_jaxlib_version at its tag." },
                { "source", Json::array() }, { "confidence", "secondary" } };
        Json& table = doc["jax_alone_releases"];
        Json& rows = table["rows"];
        auto at = std::find_if(rows.begin(), rows.end(),
            [&](const Json& row) { return version < Pep440Version::parse(row["jax"].get<std::string>()); });
        rows.insert(at, Json { { "jax", version.public_str() }, { "jaxlib", installs->public_str() } });
        for (const auto& key : sources)
            if (std::find(table["source"].begin(), table["source"].end(), Json(key)) == table["source"].end())
                table["source"].push_back(key);
        proposal.changes.push_back({ "jax.json", "jax_alone_releases[jax=" + version.public_str() + "]", true,
            "jaxlib " + installs->public_str() + ", the newest before it (PyPI has jax " + version.public_str()
                + " and no jaxlib of its number; check setup.py's _current_jaxlib_version at its tag)",
            {} });
    }
}

void report_unlisted(const matrix::Matrix& matrix, const Published& published, Proposal& proposal)
{
    std::optional<Pep440Version> newest_jax;
    for (const auto& release : matrix.jax_releases())
        for (const auto& v : release.versions)
            if (!newest_jax || *newest_jax < v)
                newest_jax = v;
    std::string why_jax
        = newest_jax ? "newer than every row's (" + newest_jax->public_str() + ")" : "no row lists a version";
    for (const std::string project : { "jax", "jaxlib" })
        report(newer_than(releases_of(published, project), newest_jax), project, why_jax,
            "a row (CUDA and cuDNN floors, Python range, the CUDA plugins)", proposal);
    std::optional<CudnnVersion> newest_cudnn;
    for (const auto& release : matrix.cudnn_releases())
        if (!newest_cudnn || *newest_cudnn < release.version)
            newest_cudnn = release.version;
    std::string why_cudnn
        = newest_cudnn ? "newer than every release row (" + newest_cudnn->text() + ")" : "no release row";
    for (const std::string project : { "nvidia-cudnn-cu11", "nvidia-cudnn-cu12", "nvidia-cudnn-cu13" }) {
        // A wheel's version has a fourth part (9.1.0.70), a release row three: 9.1.0.
        std::vector<Pep440Version> newer;
        for (const auto& v : releases_of(published, project)) {
            auto cudnn = CudnnVersion::try_parse(v.public_str());
            if (cudnn && (!newest_cudnn || *newest_cudnn < cudnn->truncated(3)))
                newer.push_back(v);
        }
        report(newer, project, why_cudnn, "a release row (builds, driver, compute capabilities)", proposal);
    }
}

} // namespace dlenv::refresh
