#include "resolve/explain.h"

#include "resolve/driver_branch.h"
#include "resolve/framework_build.h"
#include "resolve/newest_release.h"
#include "resolve/rules.h"
#include "resolve/targets.h"

#include <algorithm>

namespace dlenv::resolve {
namespace {

template <typename Version> std::string optional_text(const std::optional<Version>& v)
{
    return v ? v->text() : "not known";
}

std::string list_text(const std::optional<std::vector<ComputeCapability>>& list)
{
    if (!list)
        return "not known";
    if (list->empty())
        return "none";
    std::string out;
    for (const auto& cc : *list)
        out += (out.empty() ? "" : " ") + cc.text();
    return out;
}

template <typename Item, typename Text> std::string joined(const std::vector<Item>& items, Text text)
{
    std::string out;
    for (const auto& item : items)
        out += (out.empty() ? "" : ", ") + text(item);
    return out.empty() ? "none" : out;
}

std::string versions_text(const std::vector<Pep440Version>& versions)
{
    return joined(versions, [](const Pep440Version& v) { return v.str(); });
}

std::string segments_text(const std::vector<matrix::GpuSegment>& segments)
{
    return joined(segments, [](matrix::GpuSegment s) { return std::string(matrix::to_string(s)); });
}

class Rows {
public:
    void add(std::string file, std::string key, std::vector<std::pair<std::string, std::string>> facts,
        const matrix::Provenance& provenance)
    {
        auto same = [&](const RowUsed& row) { return row.file == file && row.key == key; };
        if (std::none_of(m_rows.begin(), m_rows.end(), same))
            m_rows.push_back({ std::move(file), std::move(key), std::move(facts), provenance });
    }

    std::vector<RowUsed> take() { return std::move(m_rows); }

private:
    std::vector<RowUsed> m_rows;
};

// What is known to go wrong with a row's pip extra, one row each.
void add_pip_extra_issues(
    const std::string& file, const std::string& key, const std::vector<matrix::PipExtraIssue>& issues, Rows& rows)
{
    for (std::size_t i = 0; i < issues.size(); ++i) {
        const auto& issue = issues[i];
        rows.add(file, key + ".pip_extra_issues[" + std::to_string(i) + "]",
            { { "kind", std::string(to_string(issue.kind)) },
                { "versions", issue.versions.empty() ? "every release of the row" : versions_text(issue.versions) },
                { "python_from", issue.python_from ? issue.python_from->text() : "every Python" },
                { "extra", issue.extra.empty() ? "every extra of the build" : issue.extra },
                { "detail", issue.detail } },
            issue.provenance);
    }
}

// The bugs a row's releases are known to ship with, one row each.
void add_known_issues(
    const std::string& file, const std::string& key, const std::vector<matrix::KnownIssue>& issues, Rows& rows)
{
    for (std::size_t i = 0; i < issues.size(); ++i) {
        const auto& issue = issues[i];
        rows.add(file, key + ".known_issues[" + std::to_string(i) + "]",
            { { "versions", versions_text(issue.versions) }, { "severity", issue.fails ? "error" : "warning" },
                { "above_capability", issue.above_capability ? issue.above_capability->text() : "every GPU" },
                { "platform", issue.windows_only ? "native Windows wheels" : "every platform" },
                { "fixed_in", issue.fixed_in ? issue.fixed_in->public_str() : "no fix on record" },
                { "detail", issue.detail } },
            issue.provenance);
    }
}

void add_build(const FrameworkBuild& build, Rows& rows)
{
    if (build.torch) {
        const auto& release = *build.torch;
        rows.add("torch.json", "releases[line=" + release.line + "]",
            { { "versions", versions_text(release.versions) }, { "python", release.python.describe() },
                { "python_experimental",
                    joined(release.python_experimental, [](const PythonVersion& v) { return v.text(); })
                        + (release.python_experimental_linux_only == true ? " (Linux wheels only)" : "")
                        + (release.python_experimental_companions == false ? " (no torchvision or torchaudio wheels)"
                                                                           : "") },
                { "python_free_threaded",
                    release.python_free_threaded
                        ? joined(*release.python_free_threaded, [](const PythonVersion& v) { return v.text() + "t"; })
                            + (release.python_free_threaded_windows == false ? " (no Windows wheels)" : "")
                        : "not known" },
                { "python_free_threaded_experimental",
                    release.python_free_threaded_experimental   ? joined(*release.python_free_threaded_experimental,
                          [](const PythonVersion& v) { return v.text() + "t"; })
                        : !release.python_free_threaded         ? "not known"
                        : release.python_free_threaded->empty() ? "none"
                                                                : "all of them" } },
            release.provenance);
    }
    if (build.torch && build.torch_variant) {
        const auto& variant = *build.torch_variant;
        const std::string key = "releases[line=" + build.torch->line + "].variants[tag=" + variant.tag + "]";
        rows.add("torch.json", key,
            { { "cuda", variant.cuda.text() }, { "cuda_full", optional_text(variant.cuda_full) },
                { "experimental", variant.experimental ? "true" : "false" },
                { "pypi_default", variant.pypi_default ? "true" : "false" }, { "cudnn", optional_text(variant.cudnn) },
                { "nccl", optional_text(variant.nccl) }, { "arch_list", list_text(variant.arch_list) },
                { "ptx", list_text(variant.ptx) } },
            variant.provenance);
        // sourced from the platform's wheels' own build
        for (const auto& [platform, code] :
            { std::pair { "windows", &variant.windows }, std::pair { "linux_aarch64", &variant.linux_aarch64 } })
            if (*code)
                rows.add("torch.json", key + "." + platform,
                    { { "arch_list", list_text((*code)->arch_list) }, { "ptx", list_text((*code)->ptx) } },
                    (*code)->provenance);
        add_known_issues("torch.json", key, variant.known_issues, rows);
    }
    if (build.tensorflow) {
        const auto& release = *build.tensorflow;
        rows.add("tensorflow.json", "releases[line=" + release.line + "]",
            { { "versions", versions_text(release.versions) }, { "python", release.python.describe() },
                { "cuda", release.cuda.text() }, { "cudnn", release.cudnn.text() } },
            release.provenance);
        if (release.nccl) // sourced apart from the tested configuration
            rows.add("tensorflow.json", "releases[line=" + release.line + "].nccl",
                { { "nccl", release.nccl->versions.describe() } }, release.nccl->provenance);
        if (release.gpu_code) // sourced from the release build's configuration
            rows.add("tensorflow.json", "releases[line=" + release.line + "].gpu_code",
                { { "cubins", list_text(release.gpu_code->cubins) }, { "ptx", list_text(release.gpu_code->ptx) } },
                release.gpu_code->provenance);
        if (release.gpu_code && release.gpu_code->driver_fallback)
            rows.add("tensorflow.json", "releases[line=" + release.line + "].gpu_code.driver_fallback",
                { { "xla", "hands what its CUDA's ptxas cannot compile to the driver" } },
                *release.gpu_code->driver_fallback);
        if (release.gpu_code && release.gpu_code->driver_jit)
            rows.add("tensorflow.json", "releases[line=" + release.line + "].gpu_code.driver_jit",
                { { "driver", "JIT-compiles its PTX for a GPU newer than its CUDA" } }, *release.gpu_code->driver_jit);
        add_pip_extra_issues("tensorflow.json", "releases[line=" + release.line + "]", release.pip_extra_issues, rows);
    }
    if (build.jax) {
        const auto& release = *build.jax;
        std::string key = "releases[line=" + release.line + "]";
        std::vector<std::pair<std::string, std::string>> facts { { "versions", versions_text(release.versions) },
            { "python", release.python.describe() } };
        if (build.jax_build) {
            key += ".builds[extra=" + build.jax_build->extra + "]";
            facts.insert(facts.end(),
                { { "cuda", build.jax_build->cuda.describe() }, { "cudnn", build.jax_build->cudnn.describe() },
                    { "nccl", build.jax_build->nccl.describe() },
                    { "driver_linux", optional_text(build.jax_build->driver_linux) },
                    { "min_compute_capability", optional_text(build.jax_build->min_compute_capability) },
                    { "cubins", list_text(build.jax_build->cubins) },
                    { "toolkit_driver_required", build.jax_build->toolkit_driver_required ? "true" : "false" },
                    { "pip_cudnn_min", optional_text(build.jax_build->pip_cudnn_min) } });
        }
        if (release.jax_versions)
            facts.emplace_back("jax_versions", versions_text(*release.jax_versions));
        rows.add("jax.json", key, std::move(facts), release.provenance);
        if (build.jax_build)
            add_pip_extra_issues("jax.json", key, build.jax_build->pip_extra_issues, rows);
        add_known_issues("jax.json", "releases[line=" + release.line + "]", release.known_issues, rows);
        if (release.blackwell) // sourced from reports and the build configuration, apart from the requirements
            rows.add("jax.json", "releases[line=" + release.line + "].blackwell",
                { { "runs_on", list_text(release.blackwell->runs_on) },
                    { "fails_on", list_text(release.blackwell->fails_on) },
                    { "others_fail", release.blackwell->others_fail ? "true" : "false" } },
                release.blackwell->provenance);
    }
}

// The driver facts a host's driver is judged by: Linux's, or Windows's.
std::string driver_field(HostOs os)
{
    return runs_windows_driver(os) ? "driver_windows" : "driver_linux";
}

void add_toolkit(const matrix::CudaToolkit& toolkit, HostOs os, Rows& rows)
{
    rows.add("cuda.json", "toolkits[version=" + toolkit.version.text() + "]",
        { { "name", toolkit.name }, { driver_field(os), optional_text(toolkit_driver(toolkit, os)) } },
        toolkit.provenance);
}

void add_windows(const matrix::Matrix& matrix, Framework framework, Rows& rows)
{
    const auto* windows = windows_gpu_support(matrix, framework);
    if (!windows)
        return;
    std::string native = !windows->native_gpu ? "no release"
        : windows->native_gpu_through         ? "through " + windows->native_gpu_through->public_str()
                                              : "every release";
    std::vector<std::pair<std::string, std::string>> facts { { "native_gpu", native } };
    if (windows->pypi_cpu_only)
        facts.emplace_back("pypi_wheel", "the CPU build");
    facts.emplace_back("wsl2_gpu",
        !windows->wsl2_experimental       ? "not on record"
            : *windows->wsl2_experimental ? "experimental"
                                          : "supported");
    if (!windows->pip_extra_linux_only.empty())
        facts.emplace_back("pip_extra_linux_only", windows->pip_extra_linux_only);
    if (windows->cpu_wheels_from)
        facts.emplace_back("cpu_wheels_from", windows->cpu_wheels_from->public_str());
    if (windows->cpu_experimental)
        facts.emplace_back("cpu_wheels", "experimental");
    rows.add(std::string(to_string(framework)) + ".json", "windows", std::move(facts), windows->provenance);
}

void add_macos(const matrix::Matrix& matrix, Framework framework, Rows& rows)
{
    const auto* macos = macos_gpu_support(matrix, framework);
    if (!macos)
        return;
    rows.add(std::string(to_string(framework)) + ".json", "macos",
        { { "cuda_through", macos->cuda_through ? macos->cuda_through->public_str() : "no release" } },
        macos->provenance);
}

void add_cuda(const matrix::Matrix& matrix, const Query& query, const CudaVersion& cuda, Rows& rows)
{
    if (const auto* first = matrix.first_toolkit(cuda))
        add_toolkit(*first, query.os, rows);
    else // no release of the line carries a driver floor: each of them says what is known
        for (const auto* toolkit : matrix.toolkit_releases(cuda.truncated(2)))
            add_toolkit(*toolkit, query.os, rows);
    if (query.cuda && query.cuda->parts().size() == 3)
        for (const auto* toolkit : matrix.toolkit_releases(*query.cuda))
            add_toolkit(*toolkit, query.os, rows);
    if (!query.driver)
        return;
    if (const auto* floor = matrix.minor_version_floor(cuda.major()))
        rows.add("cuda.json", "minor_version_compatibility[major=" + std::to_string(floor->major) + "]",
            { { driver_field(query.os), optional_text(minor_version_driver(*floor, query.os)) } }, floor->provenance);
    // The image gate: the NVIDIA_REQUIRE_CUDA an amd64 image of the line carries, judged on Linux.
    if (const auto* images = query.os == HostOs::linux_host ? matrix.nvidia_image_release(cuda) : nullptr)
        if (const auto* gate = images->require_cuda_for("amd64"))
            rows.add("nvidia_require_cuda.json", "releases[cuda=" + images->cuda.text() + "]",
                { { "require_cuda (amd64)", gate->value } }, images->provenance);
    if (query.forward_compat)
        rows.add("cuda.json", "forward_compatibility",
            { { "segments", segments_text(matrix.forward_compatibility().segments) } },
            matrix.forward_compatibility().provenance);
}

void add_driver_branch(const matrix::Matrix& matrix, const DriverVersion& driver, Rows& rows)
{
    for (const auto& branch : matrix.driver_branches())
        if (branch.branch == driver.major())
            rows.add("cuda.json", "driver_branches[branch=" + std::to_string(branch.branch) + "]",
                { { "designation", branch.designation }, { "end_of_life", branch.end_of_life },
                    { "max_cuda_major", branch.max_cuda_major ? std::to_string(*branch.max_cuda_major) : "none" } },
                branch.provenance);
}

void add_gpu(const matrix::Matrix& matrix, const GpuTarget& gpu, Rows& rows)
{
    std::vector<const matrix::Gpu*> models = gpu.variants;
    if (gpu.model)
        models.insert(models.begin(), gpu.model);
    for (const auto* model : models)
        rows.add("gpus.json", "gpus[name=" + model->name + "]",
            { { "compute_capability", model->compute_capability.text() },
                { "segment", std::string(matrix::to_string(model->segment)) } },
            model->provenance);
    if (const auto* arch = matrix.architecture(gpu.compute_capability)) {
        auto max_branch = arch->max_driver_branch;
        rows.add("cuda.json", "architectures[compute_capability=" + arch->compute_capability.text() + "]",
            { { "name", arch->name }, { "min_cuda", arch->min_cuda.text() },
                { "max_cuda", optional_text(arch->max_cuda) },
                { "min_driver_linux", optional_text(arch->min_driver_linux) },
                { "max_driver_branch", max_branch ? std::to_string(*max_branch) : "none" },
                { "segments", arch->segments ? segments_text(*arch->segments) : "not known" } },
            arch->provenance);
        if (const auto& jetson = arch->jetson)
            rows.add("cuda.json", "architectures[compute_capability=" + arch->compute_capability.text() + "].jetson",
                { { "newest_jetpack", jetson->newest_jetpack }, { "cuda", jetson->cuda.text() },
                    { "upgrade_cuda", optional_text(jetson->upgrade_cuda) },
                    { "upstream_wheels_from_cuda",
                        jetson->upstream_wheels_from ? jetson->upstream_wheels_from->text() : "none" } },
                jetson->provenance);
    }
}

std::string cudnn_build_text(const matrix::CudnnBuild& build)
{
    std::string out = "CUDA " + build.cuda.describe() + ", driver " + optional_text(build.driver_linux);
    return out + ", compute capabilities "
        + (build.compute_capabilities.empty() ? "not known" : list_text(build.compute_capabilities));
}

// Whether the query names a GPU below compute capability `cc`.
bool names_gpu_below(const matrix::Matrix& matrix, const Query& query, const ComputeCapability& cc)
{
    return std::any_of(query.gpus.begin(), query.gpus.end(), [&](const std::string& text) {
        return !other_vendor(text) && resolve_gpu(matrix, text).compute_capability < cc;
    });
}

// The cuDNN's releases, and the floor of the releases it is one of where a GPU named is below it.
void add_cudnn(const matrix::Matrix& matrix, const Query& query, const CudnnVersion& version, Rows& rows)
{
    for (const auto* release : matrix.cudnn_releases_matching(version))
        rows.add("cudnn.json", "releases[version=" + release->version.text() + "]",
            { { "builds", joined(release->builds, cudnn_build_text) } }, release->provenance);
    const auto& floor = matrix.cudnn_gpu_floor();
    if (floor && !(version < floor->from) && names_gpu_below(matrix, query, floor->min))
        rows.add("cudnn.json", "gpu_code_floor",
            { { "from", floor->from.text() }, { "min", floor->min.text() },
                { "last_below", floor->last_below.text() } },
            floor->provenance);
}

} // namespace

std::vector<RowUsed> rows_used(const matrix::Matrix& matrix, const Query& asked)
{
    const Query query = read_newest_releases(matrix, read_driver_branch(matrix, asked).query).query;
    Rows rows;
    std::optional<CudaVersion> cuda = query.cuda;
    std::optional<CudnnVersion> cudnn = query.cudnn;
    bool cuda_judged = true; // false on macOS for a build with no CUDA there
    for (const auto& request : query.frameworks) {
        if (is_companion(request.framework))
            continue;
        auto build = select_framework_build(matrix, request, request.local.empty() ? query.cuda : std::nullopt);
        if (!build)
            continue;
        add_build(*build, rows);
        if (const auto* warning = torch_capability_range_warning(matrix, *build))
            rows.add("torch.json", "capability_range_warning",
                { { "from", warning->from.str() }, { "until", warning->until.str() } }, warning->provenance);
        if (const auto* minimum = torch_compile_gpu_minimum(matrix, *build);
            minimum && brings_triton(query.os) && names_gpu_below(matrix, query, minimum->min))
            rows.add("torch.json", "compile_gpu_minimum",
                { { "from", minimum->from.str() }, { "min", minimum->min.text() } }, minimum->provenance);
        if (const auto* minimum = tensorflow_gpu_minimum(matrix, *build, query.os);
            minimum && names_gpu_below(matrix, query, minimum->min))
            rows.add("tensorflow.json", "linux_gpu_minimum",
                { { "through", minimum->through.str() }, { "min", minimum->min.text() } }, minimum->provenance);
        if (runs_windows_driver(query.os))
            add_windows(matrix, build->framework, rows);
        if (query.os == HostOs::macos) {
            add_macos(matrix, build->framework, rows);
            cuda_judged = cuda_judged && has_macos_cuda(matrix, *build);
        }
        cuda = build->cuda;
        if (!cudnn)
            cudnn = build->cudnn;
    }
    if (!cuda_judged)
        return rows.take();
    if (cuda)
        add_cuda(matrix, query, *cuda, rows);
    if (query.driver)
        add_driver_branch(matrix, *query.driver, rows);
    for (const auto& text : query.gpus)
        if (!other_vendor(text)) // no row of the matrix judges another vendor's GPU
            add_gpu(matrix, resolve_gpu(matrix, text), rows);
    if (cudnn)
        add_cudnn(matrix, query, *cudnn, rows);
    return rows.take();
}

nlohmann::json rows_json(const std::vector<RowUsed>& rows)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& row : rows) {
        nlohmann::json facts = nlohmann::json::object();
        for (const auto& [name, value] : row.facts)
            facts[name] = value;
        nlohmann::json sources = nlohmann::json::array();
        for (const auto& source : row.provenance.sources)
            sources.push_back({ { "key", source->key }, { "title", source->title }, { "url", source->url } });
        nlohmann::json item = { { "file", row.file }, { "key", row.key }, { "facts", facts }, { "sources", sources },
            { "confidence", matrix::to_string(row.provenance.confidence) } };
        if (!row.provenance.note.empty())
            item["note"] = row.provenance.note;
        out.push_back(std::move(item));
    }
    return out;
}

} // namespace dlenv::resolve
