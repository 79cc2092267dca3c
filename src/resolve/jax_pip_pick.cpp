#include "resolve/jax_pip_pick.h"

#include <algorithm>
#include <vector>

namespace dlenv::resolve {
namespace {

// From 0.4.30 jax requires jaxlib (">={_minimum_jaxlib_version}, <={_jax_version}"): "jax now
// depends on jaxlib directly" (CHANGELOG.md, jax 0.4.30); before it only its extras did.
const Pep440Version& first_jax_requiring_jaxlib()
{
    static const Pep440Version version = Pep440Version::parse("0.4.30");
    return version;
}

// The release a request pins: a full version, not a line or a pre-release.
std::optional<Pep440Version> pinned(const FrameworkRequest* request)
{
    if (!request || request->version.empty())
        return std::nullopt;
    auto version = Pep440Version::parse(request->version);
    if (version.release().size() < 3 || version.is_prerelease())
        return std::nullopt;
    return version;
}

struct Named {
    const FrameworkRequest* jax = nullptr;
    const FrameworkRequest* jaxlib = nullptr;
    const FrameworkRequest* plugin = nullptr; // the first one pinned
};

Named named_jax_packages(const Query& asked)
{
    Named out;
    for (const auto& request : asked.frameworks) {
        if (request.framework != Framework::jax)
            continue;
        if (!request.jax_plugin.empty()) {
            if (!out.plugin && pinned(&request))
                out.plugin = &request;
        } else
            (request.jaxlib ? out.jaxlib : out.jax) = &request;
    }
    return out;
}

// Every jax release on record, newest first (before 0.4 a row's `versions` are jaxlib's).
std::vector<Pep440Version> jax_versions_newest_first(const matrix::Matrix& matrix)
{
    std::vector<Pep440Version> out;
    for (const auto& release : matrix.jax_releases())
        for (const auto& version : release.jax_versions ? *release.jax_versions : release.versions)
            if (!version.is_prerelease())
                out.push_back(version);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return b < a; });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// The build extra `extra` stands for in jax `version`'s setup.py: itself, or what its alias means.
std::string extra_meant(const matrix::Matrix& matrix, const Pep440Version& version, const std::string& extra)
{
    for (const auto& release : matrix.jax_releases())
        if (std::find(release.versions.begin(), release.versions.end(), version) != release.versions.end())
            for (const auto& alias : release.extra_aliases)
                if (alias.name == extra)
                    return alias.means;
    return extra;
}

// "cuda12" of jax-cuda12-plugin and jax-cuda12-pjrt.
std::string plugin_major(const std::string& plugin)
{
    const auto start = plugin.find('-') + 1;
    return plugin.substr(start, plugin.find('-', start) - start);
}

JaxPipPick pick(const matrix::Matrix& matrix, const Pep440Version& version, std::string because)
{
    std::string why;
    for (const auto& release : matrix.jax_releases())
        if (std::find(release.versions.begin(), release.versions.end(), version) != release.versions.end())
            why = release.provenance.cite();
    return { version, std::move(because), std::move(why) };
}

// jaxlib named without a version beside jax==X: any extra of X pins jaxlib X (or, for a jax
// released alone, the jaxlib before it), and so does X itself from 0.4.30.
std::optional<JaxPipPick> pick_jaxlib(const matrix::Matrix& matrix, const Named& named)
{
    const auto jax = pinned(named.jax);
    if (!jax || *jax < Pep440Version::parse("0.4") || (named.jax->extra.empty() && *jax < first_jax_requiring_jaxlib()))
        return std::nullopt;
    return pick(matrix, matrix.jaxlib_installed_with(*jax), "the jaxlib " + named.jax->text() + " requires");
}

// A plugin named without a version beside jax[cudaNN]==X: the extra pins the plugin of
// X's jaxlib. Beside jax with no CUDA extra, nothing pins it.
std::optional<JaxPipPick> pick_plugin(const matrix::Matrix& matrix, const Named& named, const FrameworkRequest& plugin)
{
    const auto jax = pinned(named.jax);
    if (!jax || named.jax->extra.empty())
        return std::nullopt;
    if (!extra_meant(matrix, *jax, named.jax->extra).starts_with(plugin_major(plugin.jax_plugin)))
        return std::nullopt;
    return pick(matrix, matrix.jaxlib_installed_with(*jax), "the version " + named.jax->text() + " pins");
}

// jax named without a version beside a pinned jaxlib (or plugin): pip settles on the newest
// jax whose requirements admit it. An extra requires the jaxlib and plugin of the release's
// own jaxlib up to the release; jax alone, from 0.4.30, a jaxlib from its minimum up to itself.
std::optional<JaxPipPick> pick_jax(const matrix::Matrix& matrix, const Named& named, const FrameworkRequest& jax)
{
    const FrameworkRequest* beside = pinned(named.jaxlib) ? named.jaxlib : named.plugin;
    const auto version = pinned(beside);
    if (!version || *version < Pep440Version::parse("0.4"))
        return std::nullopt;
    const bool extra = !jax.extra.empty();
    if (beside == named.plugin && !extra)
        return std::nullopt; // jax alone requires no plugin
    const auto& minimum = matrix.minimum_jaxlib();
    auto admits = [&](const Pep440Version& release) {
        if (release < *version)
            return false;
        if (extra)
            return !(*version < matrix.jaxlib_installed_with(release));
        if (release < first_jax_requiring_jaxlib())
            return true;
        const auto oldest = minimum ? minimum->for_jax(release) : std::nullopt;
        return !oldest || !(*version < *oldest);
    };
    for (const auto& release : jax_versions_newest_first(matrix))
        if (admits(release))
            return pick(
                matrix, release, "the newest whose requirements admit " + beside->text() + " (what pip settles on)");
    return std::nullopt;
}

} // namespace

std::optional<JaxPipPick> jax_pip_pick(
    const matrix::Matrix& matrix, const Query& asked, const FrameworkRequest& unversioned)
{
    if (unversioned.framework != Framework::jax)
        return std::nullopt;
    const Named named = named_jax_packages(asked);
    if (unversioned.jaxlib)
        return pick_jaxlib(matrix, named);
    if (!unversioned.jax_plugin.empty())
        return pick_plugin(matrix, named, unversioned);
    return pick_jax(matrix, named, unversioned);
}

} // namespace dlenv::resolve
