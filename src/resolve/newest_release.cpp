#include "resolve/newest_release.h"

#include "core/error.h"
#include "resolve/framework_build.h"
#include "resolve/jax_pip_pick.h"

#include <optional>

namespace dlenv::resolve {
namespace {

struct Newest {
    Pep440Version version;
    std::string why; // the sources of the row that holds it
};

Error nothing_on_record(const FrameworkRequest& request)
{
    return Error(ErrorCode::invalid_input, "the matrix holds no " + request.package() + " release",
        "name its version: " + request.package() + "==VERSION");
}

// The newest release, pre-releases aside, of `releases`.
template <typename Release> Newest newest_of(const std::vector<Release>& releases, const FrameworkRequest& request)
{
    const Pep440Version* newest = nullptr;
    const Release* row = nullptr;
    for (const auto& release : releases)
        for (const auto& version : release.versions)
            if (!version.is_prerelease() && (!newest || *newest < version)) {
                newest = &version;
                row = &release;
            }
    if (!newest)
        throw nothing_on_record(request);
    return { *newest, row->provenance.cite() };
}

Newest newest_framework(const matrix::Matrix& matrix, const FrameworkRequest& request)
{
    switch (request.framework) {
    case Framework::torch:
        return newest_of(matrix.torch_releases(), request);
    case Framework::tensorflow:
        return newest_of(matrix.tensorflow_releases(), request);
    default:
        return newest_of(matrix.jax_releases(), request);
    }
}

// The companion paired with the newest torch the query names: of its release (the line's newest
// where it names a line), else of any torch.
Newest newest_companion(
    const matrix::Matrix& matrix, const FrameworkRequest& request, const std::optional<FrameworkRequest>& torch)
{
    auto version_of = [&](const matrix::CompanionSet& set) {
        return request.framework == Framework::torchvision ? set.torchvision : set.torchaudio;
    };
    std::optional<Pep440Version> exact;
    if (torch && Pep440Version::parse(torch->version).release().size() > 2)
        exact = Pep440Version::parse(torch->version);
    const matrix::CompanionSet* newest = nullptr;
    auto pick_from = [&](const matrix::TorchRelease& release) {
        for (const auto& set : release.companions)
            if (version_of(set) && (!exact || set.torch.without_local() == *exact)
                && (!newest || newest->torch < set.torch))
                newest = &set;
    };
    if (torch)
        pick_from(find_release_line(matrix.torch_releases(), *torch));
    else
        for (const auto& release : matrix.torch_releases())
            pick_from(release);
    if (!newest && torch)
        throw Error(ErrorCode::invalid_input,
            "the matrix pairs no " + request.package() + " release with torch " + torch->version,
            "name its version: " + request.package() + "==VERSION");
    if (!newest)
        throw nothing_on_record(request);
    return { version_of(*newest)->without_local(), newest->provenance.cite() };
}

Finding newest_finding(const FrameworkRequest& asked, const Pep440Version& version, const std::string& why)
{
    return Finding { .code = "framework-newest-release",
        .verdict = Verdict::ok,
        .message = asked.text() + " names no version: read as " + asked.package() + " " + version.str()
            + ", the newest release on record (what pip installs, unless a newer one is out): pin the version "
            + "for an answer about yours",
        .why = why };
}

Finding pinned_beside_finding(const FrameworkRequest& asked, const JaxPipPick& pick)
{
    return Finding { .code = "framework-newest-release",
        .verdict = Verdict::ok,
        .message = asked.text() + " names no version: read as " + asked.package() + " " + pick.version.str() + ", "
            + pick.because,
        .why = pick.why };
}

} // namespace

NewestRead read_newest_releases(const matrix::Matrix& matrix, const Query& query)
{
    NewestRead read { query, {} };
    auto read_as = [&](FrameworkRequest& request, const Newest& newest) {
        read.findings.push_back(newest_finding(request, newest.version, newest.why));
        request.version = newest.version.public_str();
        request.version_read = true;
    };
    // a JAX package read from the ones pinned beside it may pin another in turn (jax from
    // jaxlib, then the plugin from jax): read until none is left to read so
    for (bool read_one = true; read_one;) {
        read_one = false;
        for (auto& request : read.query.frameworks) {
            if (!request.version.empty())
                continue;
            const auto pick = jax_pip_pick(matrix, read.query, request);
            if (!pick)
                continue;
            read.findings.push_back(pinned_beside_finding(request, *pick));
            request.version = pick->version.public_str();
            request.version_read = true;
            read_one = true;
        }
    }
    for (auto& request : read.query.frameworks)
        if (request.version.empty() && !is_companion(request.framework))
            read_as(request, newest_framework(matrix, request));
    std::optional<FrameworkRequest> torch;
    for (const auto& request : read.query.frameworks)
        if (request.framework == Framework::torch)
            torch = request;
    for (auto& request : read.query.frameworks)
        if (request.version.empty())
            read_as(request, newest_companion(matrix, request, torch));
    return read;
}

} // namespace dlenv::resolve
