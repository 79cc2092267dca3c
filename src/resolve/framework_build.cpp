#include "resolve/framework_build.h"

#include "core/closest.h"
#include "core/error.h"
#include "core/text.h"
#include "pypi/name.h"
#include "resolve/neighbours.h"

#include <algorithm>

namespace dlenv::resolve {
namespace {

std::string line_of(const std::string& version)
{
    std::size_t first = version.find('.');
    std::size_t second = first == std::string::npos ? first : version.find('.', first + 1);
    return version.substr(0, second);
}

// Whether `written` names `extra`: pip compares extras normalized as PEP 685 says
// (tensorflow[and_cuda] is tensorflow[and-cuda]).
bool same_extra(const std::string& extra, const std::string& written)
{
    return !extra.empty() && pypi::normalize_name(extra) == pypi::normalize_name(written);
}

FrameworkBuild torch_build(const matrix::TorchRelease& release, const matrix::TorchVariant& variant)
{
    return FrameworkBuild { .framework = Framework::torch,
        .line = release.line,
        .variant = variant.tag,
        .cuda = variant.cuda,
        .cudnn = variant.cudnn,
        .cudnn_bundled = true,
        .arch_list = variant.arch_list,
        .ptx = variant.ptx,
        .python = release.python,
        .python_experimental = release.python_experimental,
        .python_free_threaded = release.python_free_threaded,
        .torch = &release,
        .torch_variant = &variant,
        .provenance = variant.provenance };
}

// A build from source keeps its release's versions and Pythons; its CUDA is the one asked
// for, else the one of the release's wheel it stands in for.
FrameworkBuild source_build(FrameworkBuild build, const std::optional<CudaVersion>& cuda)
{
    build.variant.clear();
    if (cuda)
        build.cuda = *cuda;
    build.cudnn.reset();
    build.cudnn_bundled = false;
    build.arch_list.reset();
    build.ptx.reset();
    build.torch_variant = nullptr;
    build.from_source = true;
    return build;
}

// What to do about `what` (lines, releases) of package `name` older than the matrix's first,
// `first`: they are not on record, which says nothing of whether they were released.
std::string predates_matrix_hint(const std::string& name, Framework framework, const std::string& what,
    const std::string& first, const std::string& addition)
{
    return what + " before " + first + " are not on record: check " + name + " " + first + " or newer, or add "
        + addition + " to DIR/" + std::string(to_string(framework)) + ".json from its sources and pass --matrix DIR";
}

// What to do about a release after the matrix: the refresh proposes torch's rows from the
// wheel index, and lists TensorFlow's and JAX's releases for `addition`, added by hand.
std::string newer_than_matrix_hint(Framework framework, const std::string& addition)
{
    std::string refresh = "a release newer than the matrix: `dlenv matrix refresh --out DIR` ";
    return framework == Framework::torch
        ? refresh + "proposes its rows from the wheel index; review them, then pass --matrix DIR"
        : refresh + "lists its releases; add " + addition + " to DIR/" + std::string(to_string(framework))
            + ".json from the vendor's tested builds, then pass --matrix DIR";
}

// A line newer than every row is what a release after the matrix looks like: point at the
// refresh. One older than every row predates the matrix, whose first line is the way forward;
// any other gap names the lines on either side.
[[noreturn]] void throw_unknown_line(
    Framework framework, const std::string& line, const std::vector<std::string>& lines)
{
    std::string name(to_string(framework));
    std::string message = "the matrix has no " + name + " " + line;
    auto wanted = Pep440Version::try_parse(line);
    if (!wanted || lines.empty())
        throw Error(ErrorCode::invalid_input, message, "known lines: " + join_alternatives(lines, " and "));
    auto near = known_neighbours(lines, *wanted);
    if (!near.above)
        throw Error(ErrorCode::invalid_input, message + " (its newest " + name + " line is " + *near.below + ")",
            newer_than_matrix_hint(framework, "the line's row (CUDA, cuDNN, Python)"));
    if (!near.below)
        throw Error(ErrorCode::invalid_input, message + " (its oldest " + name + " line is " + *near.above + ")",
            predates_matrix_hint(name, framework, "lines", *near.above, "the line's row"));
    throw Error(ErrorCode::invalid_input, message, "nearest known lines: " + join_alternatives(near.texts(), " and "));
}

// A CUDA jaxlib's local label: "cuda12.cudnn89" is the CUDA 12 build, made with cuDNN 8.9;
// "cuda111" (jaxlib 0.1) the CUDA 11.1 one.
struct JaxlibLabel {
    std::uint32_t cuda_major;
    std::optional<std::uint32_t> cuda_minor; // named by a three-digit label
    std::optional<CudnnVersion> cudnn;

    // Whether a build whose CUDA range begins at `first` is the one the label names.
    bool names(const CudaVersion& first) const
    {
        return first.major() == cuda_major && (!cuda_minor || first.minor() == *cuda_minor);
    }
};

std::optional<JaxlibLabel> parse_jaxlib_label(std::string_view local)
{
    auto digits_after = [&](std::string_view prefix) -> std::optional<std::string> {
        if (!local.starts_with(prefix))
            return std::nullopt;
        std::size_t end = local.find('.');
        std::string digits(local.substr(prefix.size(), end == std::string_view::npos ? end : end - prefix.size()));
        if (!all_ascii_digits(digits))
            return std::nullopt;
        local.remove_prefix(end == std::string_view::npos ? local.size() : end + 1);
        return digits;
    };
    auto cuda = digits_after("cuda");
    if (!cuda || cuda->size() > 3)
        return std::nullopt;
    JaxlibLabel label { static_cast<std::uint32_t>(std::stoul(cuda->size() == 3 ? cuda->substr(0, 2) : *cuda)),
        cuda->size() == 3 ? std::optional(static_cast<std::uint32_t>(cuda->back() - '0')) : std::nullopt, {} };
    if (local.empty())
        return label;
    auto cudnn = digits_after("cudnn");
    if (!cudnn || !local.empty())
        return std::nullopt;
    std::string dotted;
    for (char c : *cudnn)
        dotted += (dotted.empty() ? "" : ".") + std::string(1, c);
    label.cudnn = CudnnVersion::parse(dotted);
    return label;
}

} // namespace

std::string FrameworkBuild::package() const
{
    return jaxlib ? "jaxlib" : std::string(to_string(framework));
}

std::string FrameworkBuild::release() const
{
    return version ? version->public_str() : line;
}

std::string FrameworkBuild::name() const
{
    std::string out = package() + " " + release();
    return variant.empty() ? out : out + " " + variant;
}

std::string variant_tag(const CudaVersion& cuda)
{
    return "cu" + std::to_string(cuda.major()) + std::to_string(cuda.minor());
}

// How a request names a row: by the row's line and releases.
struct RowKey {
    std::string line;
    const std::vector<Pep440Version>& versions;
};

template <typename Release> std::optional<RowKey> row_key(const Release& release, const FrameworkRequest&)
{
    return RowKey { release.line, release.versions };
}

// A JAX row before 0.4 holds jaxlib's releases: jax's name it by the jax releases that
// install one of them (jax==0.2.25 is the row of jaxlib 0.1.73), and a row no jax release
// installs has no key for jax.
std::optional<RowKey> row_key(const matrix::JaxRelease& release, const FrameworkRequest& request)
{
    if (!release.jax_versions || request.jaxlib)
        return RowKey { release.line, release.versions };
    if (release.jax_versions->empty())
        return std::nullopt;
    return RowKey { line_of(release.jax_versions->front().public_str()), *release.jax_versions };
}

template <typename Release>
const Release& find_release_line(const std::vector<Release>& releases, const FrameworkRequest& request)
{
    std::string name = request.package();
    std::string line = line_of(request.version);
    std::vector<std::string> lines;
    std::vector<std::string> known; // the releases of `line`, over every row of it
    for (const auto& release : releases) {
        const auto found = row_key(release, request);
        if (!found)
            continue;
        const RowKey& key = *found;
        if (std::find(lines.begin(), lines.end(), key.line) == lines.end())
            lines.push_back(key.line);
        if (key.line != line)
            continue;
        if (line == request.version)
            return release; // the newest row of the line
        auto wanted = Pep440Version::parse(request.version);
        for (const auto& v : key.versions) {
            // a post-release (tensorflow 2.15.0.post1) re-packages its release: same code, same
            // build; a pre-release (2.16.0rc0) is judged by the release it comes before
            bool same_release = !v.post() && !v.is_prerelease() && v.release() == wanted.release();
            if (v == wanted || ((wanted.post() || wanted.is_prerelease()) && same_release))
                return release;
            known.push_back(v.str());
        }
    }
    if (std::find(lines.begin(), lines.end(), line) != lines.end()) {
        std::sort(known.begin(), known.end(), [](const std::string& a, const std::string& b) {
            return Pep440Version::parse(a) < Pep440Version::parse(b);
        });
        // the line's rows begin after its first releases (jax 0.4 at 0.4.26): older ones are unknown, not unreleased
        if (!known.empty() && Pep440Version::parse(request.version) < Pep440Version::parse(known.front()))
            throw Error(ErrorCode::invalid_input,
                "the matrix has no " + name + " " + request.version + " (its " + name + " " + line
                    + " releases begin at " + known.front() + ")",
                predates_matrix_hint(name, request.framework, "releases", known.front(), "the release"));
        // a patch release after the newest one of the newest line is one after the matrix
        const auto wanted = Pep440Version::parse(request.version);
        const auto newest_line = known_neighbours(lines, Pep440Version::parse(line));
        if (!known.empty() && Pep440Version::parse(known.back()) < wanted && !newest_line.above)
            throw Error(ErrorCode::invalid_input,
                "the matrix has no " + name + " " + request.version + " (its newest " + name + " release is "
                    + known.back() + ")",
                newer_than_matrix_hint(request.framework, "the release to its line's row"));
        throw Error(ErrorCode::invalid_input, name + " " + request.version + " is not a release",
            known.empty() ? "use the line " + line
                          : "releases of " + name + " " + line + ": " + join_alternatives(known, " and "));
    }
    throw_unknown_line(request.framework, line, lines);
}

template const matrix::TorchRelease& find_release_line(
    const std::vector<matrix::TorchRelease>&, const FrameworkRequest&);
template const matrix::TensorflowRelease& find_release_line(
    const std::vector<matrix::TensorflowRelease>&, const FrameworkRequest&);
template const matrix::JaxRelease& find_release_line(const std::vector<matrix::JaxRelease>&, const FrameworkRequest&);

void use_platform_wheel_code(FrameworkBuild& build, const std::optional<matrix::PlatformGpuCode>& code)
{
    if (!code)
        return;
    build.arch_list = code->arch_list;
    build.ptx = code->ptx;
    build.code_provenance = code->provenance;
}

std::optional<FrameworkBuild> select_framework_build(
    const matrix::Matrix& matrix, const FrameworkRequest& request, const std::optional<CudaVersion>& cuda)
{
    std::optional<Pep440Version> exact;
    if (request.version.find('.') != request.version.rfind('.'))
        exact = Pep440Version::parse(request.version);

    std::optional<FrameworkBuild> build;
    switch (request.framework) {
    case Framework::torch: {
        const auto& release = find_release_line(matrix.torch_releases(), request);
        const bool source = request.names_source_build(); // stands in for the PyPI default
        const matrix::TorchVariant* chosen = nullptr;
        for (const auto& variant : release.variants) {
            bool match = !request.local.empty() && !source ? variant.tag == request.local
                : cuda && !source                          ? variant.cuda.truncated(2) == cuda->truncated(2)
                                                           : variant.pypi_default;
            if (match && !chosen)
                chosen = &variant;
        }
        if (!chosen && (request.local.empty() || source) && (!cuda || source))
            for (const auto& variant : release.variants) // no PyPI default on record: newest stable
                if (!variant.experimental && (!chosen || chosen->cuda < variant.cuda))
                    chosen = &variant;
        if (chosen && chosen->unlabelled && !source && request.local == chosen->tag)
            throw Error(ErrorCode::invalid_input,
                request.text() + " names no published wheel: the " + chosen->tag + " build of torch " + request.version
                    + " carries no label",
                "write torch==" + request.version + ", the name its " + chosen->tag + " wheels carry");
        if (chosen)
            build = source ? source_build(torch_build(release, *chosen), cuda) : torch_build(release, *chosen);
        if (build && !source)
            build->pypi_default = request.local.empty() && !cuda && chosen->pypi_default;
        if (build)
            build->extra = request.extra; // torch has none: require_known_extra refuses it
        break;
    }
    case Framework::tensorflow: {
        // each release is one build, on PyPI under its version alone
        if (!request.local.empty()) {
            FrameworkRequest unlabelled = request;
            unlabelled.local.clear();
            throw Error(ErrorCode::invalid_input,
                "'+" + request.local + "' in " + request.text()
                    + " names no TensorFlow wheel: TensorFlow's wheels carry no local label",
                "drop it: " + unlabelled.text() + " is the release's one build");
        }
        const auto& release = find_release_line(matrix.tensorflow_releases(), request);
        build = FrameworkBuild { .framework = Framework::tensorflow,
            .line = release.line,
            .extra = same_extra(release.pip_extra, request.extra) ? release.pip_extra : request.extra,
            .cuda = release.cuda,
            .cudnn = release.cudnn,
            .python = release.python,
            .tensorflow = &release,
            .provenance = release.provenance };
        if (const auto& free_threaded = matrix.tensorflow_free_threaded();
            free_threaded && !(free_threaded->none_through < Pep440Version::parse(release.line)))
            build->python_free_threaded = std::vector<PythonVersion> {};
        break;
    }
    case Framework::jax: {
        const auto& release = find_release_line(matrix.jax_releases(), request);
        const NamedJaxExtra named_extra = jax_extra(release, request.extra);
        const std::string& extra = named_extra.extra;
        // The first build that fits the CUDA, unless a later one is the extra the request names
        // (jax[cuda11_pip]==0.4.20 is the CUDA 11 build, though the CUDA 12 one comes first).
        auto named
            = [&](const matrix::JaxBuild& b) { return !extra.empty() && (extra == b.extra || extra == b.local_extra); };
        std::optional<JaxlibLabel> label;
        if (!request.local.empty() && !(label = parse_jaxlib_label(request.local)))
            throw Error(ErrorCode::invalid_input,
                "'" + request.local + "' in " + request.text() + " names no CUDA build of jaxlib",
                "write the label as jaxlib's wheels do (jaxlib==0.4.20+cuda12.cudnn89), or leave it out");
        // a label's cuDNN picks among builds of one CUDA major (cuda11.cudnn82 beside cuda11.cudnn86)
        auto same_cudnn = [&](const matrix::JaxBuild& b) {
            return label->cudnn && b.cudnn.min && b.cudnn.min->truncated(2) == label->cudnn->truncated(2);
        };
        bool cudnn_picks = label && std::any_of(release.builds.begin(), release.builds.end(), same_cudnn);
        // a label's cuDNN outside the build's was never published (jaxlib 0.4.12 has cuda12.cudnn89, no cudnn88)
        auto cudnn_outside = [&](const matrix::JaxBuild& b) {
            if (!label->cudnn)
                return false;
            auto label_cudnn = label->cudnn->truncated(2);
            return (b.cudnn.min && label_cudnn < b.cudnn.min->truncated(2))
                || (b.cudnn.max && *b.cudnn.max < label_cudnn);
        };
        auto labelled = [&](const matrix::JaxBuild& b) {
            return !label
                || (b.cuda.min && label->names(*b.cuda.min) && (cudnn_picks ? same_cudnn(b) : !cudnn_outside(b)));
        };
        const matrix::JaxBuild* chosen = nullptr;
        for (const auto& jax_build : release.builds)
            if (labelled(jax_build) && (!cuda || jax_build.cuda.contains(*cuda))
                && (!chosen || (named(jax_build) && !named(*chosen))))
                chosen = &jax_build;
        // The extra names the build whatever the host's CUDA: one that loads the host's
        // (check_jax_host_cuda judges it), or one that brings its CUDA from pip and runs on that.
        if (cuda && !extra.empty() && (!chosen || !named(*chosen)))
            for (const auto& other : release.builds)
                if (named(other))
                    chosen = &other;
        if (chosen)
            build = FrameworkBuild { .framework = Framework::jax,
                .line = row_key(release, request)->line,
                .variant = chosen->extra,
                // a host CUDA outside the build is a failed check, the build judged on its own
                .cuda = cuda && chosen->cuda.contains(*cuda) ? *cuda : *chosen->cuda.min,
                .cudnn = label && label->cudnn ? label->cudnn : chosen->cudnn.min,
                .python = release.python,
                .python_free_threaded = release.python_free_threaded,
                .jax = &release,
                .jax_build = chosen,
                .provenance = release.provenance,
                .jaxlib = request.jaxlib,
                .loads_host_cuda
                = !chosen->pip_cuda || (!extra.empty() && extra == chosen->local_extra) || (extra.empty() && label),
                .host_cuda_set_aside
                = cuda && chosen->pip_cuda && extra == chosen->extra && !chosen->cuda.contains(*cuda) };
        if (build) {
            build->extra = extra.empty() ? chosen->extra : extra;
            build->extra_alias = named_extra.alias;
        }
        break;
    }
    case Framework::torchvision:
    case Framework::torchaudio:
        throw Error(ErrorCode::invalid_input, std::string(to_string(request.framework)) + " is a companion of torch",
            "name torch too, e.g. --framework torch==2.1 --framework " + request.text());
    }
    if (build)
        build->version = exact;
    return build;
}

FrameworkBuild select_cpu_build(const matrix::Matrix& matrix, const FrameworkRequest& request)
{
    if (request.framework == Framework::jax && !request.local.empty())
        throw Error(ErrorCode::invalid_input,
            request.text() + " names both jax's CPU build and the label of a CUDA jaxlib ('" + request.local + "')",
            "drop [cpu] for that CUDA build, or the label for the CPU one");
    FrameworkRequest release = request;
    release.local.clear();
    release.extra.clear();
    FrameworkBuild build = *select_framework_build(matrix, release, std::nullopt);
    const auto& cpu_extra = matrix.jax_cpu_extra();
    // jax's own number (rows before 0.4 are jaxlib's); a line without its patch release stands
    // for its newest
    const bool patch_release = request.version.find('.') != request.version.rfind('.');
    if (build.jax && cpu_extra && patch_release && Pep440Version::parse(request.version) < cpu_extra->from)
        throw Error(ErrorCode::invalid_input,
            request.text() + ": jax " + request.version + " has no extra 'cpu', which jax "
                + cpu_extra->from.public_str() + " added",
            "drop [cpu] and install jaxlib beside jax " + request.version + ": jaxlib alone is its CPU build");
    build.cpu_only = true;
    build.variant = "cpu";
    build.extra.clear();
    build.pypi_default = false;
    return build;
}

std::vector<std::string> cuda_extras(const FrameworkBuild& build)
{
    if (build.jax)
        return build.jax->build_extras();
    if (build.tensorflow && !build.tensorflow->pip_extra.empty())
        return { build.tensorflow->pip_extra };
    return {};
}

void require_known_extra(const FrameworkBuild& build, const std::string& where, const std::string& written)
{
    std::vector<std::string> known = cuda_extras(build);
    if (build.extra.empty() || std::find(known.begin(), known.end(), build.extra) != known.end())
        return;
    // the release's extras, whichever of its builds each brings
    const std::string release = build.package() + " " + build.release();
    throw Error(ErrorCode::invalid_input, where + ": " + release + " has no extra '" + build.extra + "'",
        known.empty() ? "drop " + written + ": " + release + " has no pip extra that brings CUDA"
                      : "its extras: " + join_alternatives(known, " and "));
}

std::string pip_cuda_contradiction(
    const FrameworkRequest& request, const FrameworkBuild& build, const CudaVersion& cuda)
{
    return request.text() + " is JAX's CUDA " + build.jax_build->cuda.describe() + " build, not one for CUDA "
        + cuda.text();
}

NamedJaxExtra jax_extra(const matrix::JaxRelease& release, const std::string& written)
{
    for (const auto& extra : release.build_extras())
        if (same_extra(extra, written))
            return { extra };
    for (const auto& alias : release.extra_aliases)
        if (same_extra(alias.name, written))
            return { alias.means, &alias };
    return { written };
}

} // namespace dlenv::resolve
