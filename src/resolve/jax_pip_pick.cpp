#include "resolve/jax_pip_pick.h"

#include "resolve/framework_build.h"

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

// Before 0.4 jaxlib was numbered apart from jax.
const Pep440Version& first_shared_numbering()
{
    static const Pep440Version version = Pep440Version::parse("0.4");
    return version;
}

// The release a request pins: a full version, not a line or a pre-release; one read for an
// unversioned request counts.
std::optional<Pep440Version> pinned(const FrameworkRequest* request)
{
    if (!request || request->version.empty())
        return std::nullopt;
    auto version = Pep440Version::parse(request->version);
    if (version.release().size() < 3 || version.is_prerelease())
        return std::nullopt;
    return version;
}

// The first plugin named with a release pinned.
const FrameworkRequest* pinned_plugin(const JaxRequests& named)
{
    for (const auto* plugin : named.plugins)
        if (pinned(plugin))
            return plugin;
    return nullptr;
}

// The row of jax release `version` (from 0.4, where a row's versions are jax's).
const matrix::JaxRelease* release_of(const matrix::Matrix& matrix, const Pep440Version& version)
{
    for (const auto& release : matrix.jax_releases())
        if (!release.jax_versions
            && std::find(release.versions.begin(), release.versions.end(), version) != release.versions.end())
            return &release;
    return nullptr;
}

// The build `extra` installs in jax `version`; null where the release has no such extra, which
// pip then ignores.
const matrix::JaxBuild* build_of_extra(
    const matrix::Matrix& matrix, const Pep440Version& version, const std::string& extra)
{
    const auto* release = release_of(matrix, version);
    if (!release || extra.empty())
        return nullptr;
    const std::string meant = jax_extra(*release, extra).extra;
    for (const auto& build : release->builds)
        if (build.extra == meant || build.local_extra == meant)
            return &build;
    return nullptr;
}

bool installs(const matrix::JaxBuild& build, const std::string& plugin)
{
    return build.plugin == plugin || build.pjrt == plugin;
}

// Every jax release from 0.4 on, newest first.
std::vector<Pep440Version> jax_versions_newest_first(const matrix::Matrix& matrix)
{
    std::vector<Pep440Version> out;
    for (const auto& release : matrix.jax_releases())
        if (!release.jax_versions)
            for (const auto& version : release.versions)
                if (!version.is_prerelease())
                    out.push_back(version);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return b < a; });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

JaxPipPick pick(const matrix::Matrix& matrix, const Pep440Version& version, std::string because)
{
    const auto* release = release_of(matrix, version);
    return { version, std::move(because), release ? release->provenance.cite() : "" };
}

// Whether jax `version`, with the extra of `jax`, requires a jaxlib: any extra it has, and
// jax itself from 0.4.30.
bool requires_jaxlib(const matrix::Matrix& matrix, const Pep440Version& version, const FrameworkRequest& jax)
{
    return build_of_extra(matrix, version, jax.extra) || !(version < first_jax_requiring_jaxlib());
}

// jaxlib named without a version beside jax==X: X's requirement pins it to X's jaxlib (X's
// own number, or for a jax released alone the jaxlib before it); beside a jax line, to that line.
std::optional<JaxPipPick> pick_jaxlib(const matrix::Matrix& matrix, const JaxRequests& named)
{
    if (!named.jax || named.jax->version.empty())
        return std::nullopt;
    const std::string because = "the jaxlib " + named.jax->text() + " requires";
    if (const auto jax = pinned(named.jax)) {
        if (*jax < first_shared_numbering() || !requires_jaxlib(matrix, *jax, *named.jax))
            return std::nullopt;
        return pick(matrix, matrix.jaxlib_installed_with(*jax), because);
    }
    const auto line = Pep440Version::parse(named.jax->version);
    if (line.release().size() != 2 || line < first_shared_numbering())
        return std::nullopt;
    // pip takes the line's newest release, whose requirement keeps jaxlib in the line
    for (const auto& version : jax_versions_newest_first(matrix))
        if (std::equal(line.release().begin(), line.release().end(), version.release().begin()))
            return requires_jaxlib(matrix, version, *named.jax) ? std::optional(JaxPipPick { line, because, "" })
                                                                : std::nullopt;
    return std::nullopt;
}

// A plugin named without a version beside jax[cudaNN]==X whose build installs it: the extra
// pins it to X's jaxlib. Beside jax with no such extra, nothing pins it.
std::optional<JaxPipPick> pick_plugin(
    const matrix::Matrix& matrix, const JaxRequests& named, const FrameworkRequest& plugin)
{
    const auto jax = pinned(named.jax);
    if (!jax)
        return std::nullopt;
    const auto* build = build_of_extra(matrix, *jax, named.jax->extra);
    if (!build || !installs(*build, plugin.jax_plugin))
        return std::nullopt;
    return pick(matrix, matrix.jaxlib_installed_with(*jax), "the version " + named.jax->text() + " pins");
}

// jax named without a version beside a pinned jaxlib (or plugin): pip settles on the newest
// jax whose requirements admit it. A release's extra requires its own jaxlib and plugin up to
// the release; jax alone, from 0.4.30, a jaxlib from its minimum up to itself; a release
// without the extra is judged as jax alone.
std::optional<JaxPipPick> pick_jax(const matrix::Matrix& matrix, const JaxRequests& named, const FrameworkRequest& jax)
{
    const FrameworkRequest* plugin_pinned = pinned_plugin(named);
    const FrameworkRequest* beside = pinned(named.jaxlib) ? named.jaxlib : plugin_pinned;
    const auto version = pinned(beside);
    if (!version)
        return std::nullopt;
    const bool plugin = beside == plugin_pinned;
    const auto& minimum = matrix.minimum_jaxlib();
    // between the release's own jaxlib and the release, as its extra pins them
    auto within_extra = [&](const Pep440Version& release) {
        return !(*version < matrix.jaxlib_installed_with(release)) && !(release < *version);
    };
    auto admits = [&](const Pep440Version& release) {
        const auto* build = build_of_extra(matrix, release, jax.extra);
        if (plugin) // only an extra that installs this plugin pins it
            return !(build && installs(*build, beside->jax_plugin)) || within_extra(release);
        if (build)
            return !(*version < first_shared_numbering()) && within_extra(release);
        if (release < first_jax_requiring_jaxlib())
            return true;
        const auto oldest = minimum ? minimum->for_jax(release) : std::nullopt;
        return !(release < *version) && (!oldest || !(*version < *oldest));
    };
    const auto releases = jax_versions_newest_first(matrix);
    for (const auto& release : releases) {
        if (!admits(release))
            continue;
        if (release == releases.front())
            return std::nullopt; // nothing held it back: the newest, as for any unversioned package
        return pick(
            matrix, release, "the newest whose requirements admit " + beside->text() + " (what pip settles on)");
    }
    return std::nullopt;
}

} // namespace

std::optional<JaxPipPick> jax_pip_pick(
    const matrix::Matrix& matrix, const Query& asked, const FrameworkRequest& unversioned)
{
    if (unversioned.framework != Framework::jax)
        return std::nullopt;
    const JaxRequests named = jax_requests(asked);
    if (unversioned.jaxlib)
        return pick_jaxlib(matrix, named);
    if (!unversioned.jax_plugin.empty())
        return pick_plugin(matrix, named, unversioned);
    return pick_jax(matrix, named, unversioned);
}

} // namespace dlenv::resolve
