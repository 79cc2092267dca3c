#include "matrix/matrix.h"
#include "core/text.h"

#include <algorithm>

namespace dlenv::matrix {
namespace {

} // namespace

std::string_view to_string(PipExtraIssue::Kind kind)
{
    switch (kind) {
    case PipExtraIssue::Kind::uninstallable:
        return "uninstallable";
    case PipExtraIssue::Kind::libraries_not_found:
        return "libraries-not-found";
    case PipExtraIssue::Kind::library_too_new:
        return "library-too-new";
    }
    return "";
}

std::vector<std::string> JaxRelease::build_extras() const
{
    std::vector<std::string> extras;
    for (const auto& build : builds)
        for (const auto* extra : { &build.extra, &build.local_extra })
            if (!extra->empty())
                extras.push_back(*extra);
    return extras;
}

std::optional<Pep440Version> MinimumJaxlib::for_jax(const Pep440Version& jax) const
{
    std::optional<Pep440Version> minimum;
    for (const auto& row : rows)
        if (!(jax < row.jax))
            minimum = row.jaxlib;
    return minimum;
}

const JaxJaxlibPair* JaxAloneReleases::find(const Pep440Version& jax) const
{
    auto row = std::find_if(rows.begin(), rows.end(), [&](const JaxJaxlibPair& r) { return r.jax == jax; });
    return row == rows.end() ? nullptr : &*row;
}

std::string_view to_string(GpuSegment segment)
{
    switch (segment) {
    case GpuSegment::datacenter:
        return "datacenter";
    case GpuSegment::workstation:
        return "workstation";
    case GpuSegment::geforce:
        return "geforce";
    case GpuSegment::jetson:
        return "jetson";
    }
    return "unknown";
}

std::string_view to_string(Confidence confidence)
{
    switch (confidence) {
    case Confidence::confirmed:
        return "confirmed";
    case Confidence::secondary:
        return "secondary";
    case Confidence::unconfirmed:
        return "unconfirmed";
    }
    return "unconfirmed";
}

std::optional<CudaVersion> variant_cuda(std::string_view tag)
{
    if (!tag.starts_with("cu") || tag.size() < 4)
        return std::nullopt;
    std::string_view digits = tag.substr(2);
    if (!all_ascii_digits(digits))
        return std::nullopt;
    return CudaVersion::parse(
        std::string(digits.substr(0, digits.size() - 1)) + "." + std::string(digits.substr(digits.size() - 1)));
}

bool Provenance::operator==(const Provenance& other) const
{
    return confidence == other.confidence && note == other.note
        && std::equal(sources.begin(), sources.end(), other.sources.begin(), other.sources.end(),
            [](const SourceRef& a, const SourceRef& b) { return *a == *b; });
}

std::string Provenance::cite() const
{
    std::vector<std::string> seen;
    std::string out;
    for (const auto& source : sources) {
        const std::string& where = source->url.empty() ? source->title : source->url;
        if (std::find(seen.begin(), seen.end(), where) != seen.end())
            continue;
        seen.push_back(where);
        out += (out.empty() ? "" : " | ") + where;
    }
    return out;
}

std::string Provenance::cite_with(const Provenance& other) const
{
    Provenance both = *this;
    both.sources.insert(both.sources.end(), other.sources.begin(), other.sources.end());
    return both.cite();
}

std::vector<const CudaToolkit*> Matrix::toolkit_releases(const CudaVersion& version) const
{
    std::vector<const CudaToolkit*> out;
    for (const auto& toolkit : m_toolkits)
        if (version.is_prefix_of(toolkit.version))
            out.push_back(&toolkit);
    return out;
}

const CudaToolkit* Matrix::first_toolkit(const CudaVersion& version) const
{
    const CudaToolkit* first = nullptr;
    for (const auto* toolkit : toolkit_releases(version.truncated(2)))
        if (toolkit->driver_linux && (!first || toolkit->version < first->version))
            first = toolkit;
    return first;
}

std::vector<std::string> Matrix::toolkit_lines() const
{
    std::vector<std::string> out;
    for (const auto& toolkit : m_toolkits) {
        std::string line = toolkit.version.truncated(2).text();
        if (std::find(out.begin(), out.end(), line) == out.end())
            out.push_back(line);
    }
    return out;
}

const MinorVersionFloor* Matrix::minor_version_floor(std::uint32_t cuda_major) const
{
    for (const auto& floor : m_minor_floors)
        if (floor.major == cuda_major)
            return &floor;
    return nullptr;
}

const NvidiaImageRelease* Matrix::nvidia_image_release(const CudaVersion& version) const
{
    const CudaVersion line = version.truncated(2);
    const NvidiaImageRelease* newest = nullptr;
    for (const auto& release : m_nvidia_images)
        if (release.cuda.truncated(2) == line && (!newest || newest->cuda < release.cuda))
            newest = &release;
    return newest;
}

const DriverReleases* Matrix::driver_releases(std::uint32_t branch) const
{
    for (const auto& releases : m_driver_releases)
        if (releases.branch == branch)
            return &releases;
    return nullptr;
}

std::optional<DriverBranchSpan> Matrix::driver_release_span() const
{
    if (m_driver_releases.empty())
        return std::nullopt;
    const auto [oldest, newest] = std::minmax_element(m_driver_releases.begin(), m_driver_releases.end(),
        [](const DriverReleases& a, const DriverReleases& b) { return a.branch < b.branch; });
    return DriverBranchSpan { oldest->branch, newest->branch };
}

std::optional<std::uint32_t> Matrix::windows_driver_branch(const DriverVersion& driver) const
{
    if (!m_windows_numbering)
        return std::nullopt;
    std::optional<std::uint32_t> owner;
    for (const auto& releases : m_driver_releases)
        if (releases.branch <= driver.major() && (!owner || *owner < releases.branch))
            owner = releases.branch;
    return owner;
}

bool DriverReleases::lists(const DriverVersion& driver) const
{
    return std::find(releases.begin(), releases.end(), driver) != releases.end();
}

bool DriverReleases::knows(const DriverVersion& driver) const
{
    return lists(driver) || (complete_through && driver <= *complete_through);
}

std::vector<DriverVersion> DriverReleases::nearest(const DriverVersion& driver) const
{
    std::vector<DriverVersion> out;
    for (const auto& release : releases)
        if (release.truncated(2) == driver.truncated(2))
            out.push_back(release);
    if (!out.empty())
        return out;
    auto above = std::lower_bound(releases.begin(), releases.end(), driver);
    if (above != releases.begin())
        out.push_back(*std::prev(above));
    if (above != releases.end())
        out.push_back(*above);
    return out;
}

const CudnnLibraries* Matrix::cudnn_libraries(std::uint32_t major) const
{
    for (const auto& libraries : m_cudnn_libraries)
        if (libraries.major == major)
            return &libraries;
    return nullptr;
}

const CudaComponents* Matrix::cuda_components(const CudaVersion& release) const
{
    for (const auto& components : m_cuda_components)
        if (components.cuda == release)
            return &components;
    return nullptr;
}

const JaxJaxlibPair* Matrix::jax_released_alone(const Pep440Version& jax) const
{
    return m_jax_alone_releases ? m_jax_alone_releases->find(jax) : nullptr;
}

Pep440Version Matrix::jaxlib_installed_with(const Pep440Version& jax) const
{
    const auto* row = jax_released_alone(jax);
    return row ? row->jaxlib : jax;
}

const PythonRuntimeBuild* Matrix::python_runtime(const PythonVersion& minor) const
{
    for (const auto& build : m_python_runtimes)
        if (build.python.truncated(2) == minor.truncated(2))
            return &build;
    return nullptr;
}

const NvidiaRequireCuda* NvidiaImageRelease::require_cuda_for(std::string_view architecture) const
{
    // platforms read "OS/architecture", or "linux/amd64 (OS not recorded)"
    for (const auto& value : require_cuda)
        for (const auto& platform : value.platforms) {
            std::string_view rest = std::string_view(platform).substr(platform.find('/') + 1);
            if (rest.substr(0, rest.find(' ')) == architecture)
                return &value;
        }
    return nullptr;
}

const Architecture* Matrix::architecture(const ComputeCapability& cc) const
{
    for (const auto& arch : m_architectures)
        if (arch.compute_capability == cc)
            return &arch;
    return nullptr;
}

std::vector<const CudnnRelease*> Matrix::cudnn_releases_matching(const CudnnVersion& version) const
{
    std::vector<const CudnnRelease*> out;
    for (const auto& release : m_cudnn)
        if (version.is_prefix_of(release.version) || release.version.is_prefix_of(version))
            out.push_back(&release);
    return out;
}

const Gpu* Matrix::find_gpu(std::string_view name) const
{
    for (const auto& gpu : m_gpus) {
        if (equal_ignoring_case(gpu.name, name))
            return &gpu;
        for (const auto& alias : gpu.aliases)
            if (equal_ignoring_case(alias, name))
                return &gpu;
    }
    return nullptr;
}

std::vector<const Gpu*> Matrix::gpu_family(std::string_view family) const
{
    std::vector<const Gpu*> out;
    for (const auto& gpu : m_gpus)
        if (!gpu.family.empty() && equal_ignoring_case(gpu.family, family))
            out.push_back(&gpu);
    return out;
}

std::vector<std::string> Matrix::gpu_names() const
{
    std::vector<std::string> out;
    for (const auto& gpu : m_gpus) {
        out.push_back(gpu.name);
        out.insert(out.end(), gpu.aliases.begin(), gpu.aliases.end());
    }
    return out;
}

} // namespace dlenv::matrix
