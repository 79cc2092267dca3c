#include "core/closest.h"
#include "core/error.h"
#include "core/file.h"
#include "core/json_reader.h"
#include "core/sha256.h"
#include "core/text.h"
#include "matrix/matrix.h"

#include <algorithm>
#include <map>

namespace dlenv::matrix {

// Reads the matrix files into a Matrix, refusing unknown fields and dangling sources.
class Loader {
public:
    explicit Loader(std::string origin)
        : m_origin(std::move(origin))
    {
    }

    Matrix load(const std::map<std::string, std::string>& files)
    {
        Matrix m;
        Sha256 hash;
        for (const auto& [name, contents] : files) {
            hash.update(name);
            hash.update("\0", 1);
            hash.update(contents);
            hash.update("\0", 1);
        }
        m.m_sha256 = hash.hex_digest();

        read(files, "cuda.json", [&](const JsonReader& doc) { read_cuda(doc, m); });
        read(files, "cudnn.json", [&](const JsonReader& doc) {
            doc.allow_only({ "format", "sources", "libraries", "gpu_code_floor", "releases" });
            for (const auto& row : doc.at("libraries").items())
                m.m_cudnn_libraries.push_back(read_cudnn_libraries(row));
            for (const auto& row : doc.at("releases").items())
                m.m_cudnn.push_back(read_cudnn(row, m));
            if (auto floor = doc.find("gpu_code_floor")) {
                floor->allow_only({ "from", "min", "last_below", "note", "source", "confidence" });
                m.m_cudnn_gpu_floor
                    = CudnnGpuFloor { floor->at("from").as<CudnnVersion>(), floor->at("min").as<ComputeCapability>(),
                          floor->at("last_below").as<CudnnVersion>(), provenance(*floor) };
                if (!(m.m_cudnn_gpu_floor->last_below < m.m_cudnn_gpu_floor->from))
                    floor->at("last_below").fail("not before from", "name the newest release before the floor");
            }
        });
        read(files, "torch.json", [&](const JsonReader& doc) {
            doc.allow_only({ "format", "sources", "linux_aarch64", "torchaudio_stable_abi", "capability_range_warning",
                "compile_gpu_minimum", "windows", "macos", "releases" });
            for (const auto& row : doc.at("releases").items())
                m.m_torch.push_back(read_torch(row));
            m.m_torch_windows = read_windows(doc);
            m.m_torch_macos = read_macos(doc);
            if (auto aarch64 = doc.find("linux_aarch64")) {
                aarch64->allow_only({ "first_cuda_release", "pypi_cpu_only_through", "note", "source", "confidence" });
                m.m_torch_aarch64 = TorchAarch64 { aarch64->at("first_cuda_release").as<Pep440Version>(),
                    aarch64->at("pypi_cpu_only_through").as<Pep440Version>(), provenance(*aarch64) };
            }
            if (auto stable = doc.find("torchaudio_stable_abi")) {
                stable->allow_only({ "from", "note", "source", "confidence" });
                m.m_torchaudio_stable_abi
                    = TorchaudioStableAbi { stable->at("from").as<Pep440Version>(), provenance(*stable) };
            }
            if (auto warning = doc.find("capability_range_warning")) {
                warning->allow_only({ "from", "until", "note", "source", "confidence" });
                m.m_torch_capability_range_warning
                    = TorchCapabilityRangeWarning { warning->at("from").as<Pep440Version>(),
                          warning->at("until").as<Pep440Version>(), provenance(*warning) };
                if (!(m.m_torch_capability_range_warning->from < m.m_torch_capability_range_warning->until))
                    warning->at("until").fail("a range that ends where it starts, or before",
                        "give the first release without the warning, after `from`");
            }
            if (auto compile = doc.find("compile_gpu_minimum")) {
                compile->allow_only({ "from", "min", "note", "source", "confidence" });
                m.m_torch_compile_gpu_minimum = TorchCompileGpuMinimum { compile->at("from").as<Pep440Version>(),
                    compile->at("min").as<ComputeCapability>(), provenance(*compile) };
            }
        });
        read(files, "tensorflow.json", [&](const JsonReader& doc) {
            doc.allow_only(
                { "format", "sources", "windows", "macos", "linux_gpu_minimum", "free_threaded", "releases" });
            for (const auto& row : doc.at("releases").items())
                m.m_tensorflow.push_back(read_tensorflow(row));
            m.m_tensorflow_windows = read_windows(doc);
            m.m_tensorflow_macos = read_macos(doc);
            if (auto minimum = doc.find("linux_gpu_minimum")) {
                minimum->allow_only({ "through", "min", "note", "source", "confidence" });
                m.m_tensorflow_linux_gpu_minimum = TensorflowGpuMinimum { minimum->at("through").as<Pep440Version>(),
                    minimum->at("min").as<ComputeCapability>(), provenance(*minimum) };
                // the minimum stands in for GPU code not on record, and must not overlap it
                for (const auto& release : m.m_tensorflow)
                    if (release.gpu_code
                        && !(m.m_tensorflow_linux_gpu_minimum->through < Pep440Version::parse(release.line)))
                        minimum->at("through").fail("tensorflow " + release.line + "'s GPU code is on record",
                            "end the minimum before the first line with gpu_code");
            }
            if (auto free_threaded = doc.find("free_threaded")) {
                free_threaded->allow_only({ "none_through", "note", "source", "confidence" });
                m.m_tensorflow_free_threaded
                    = TensorflowFreeThreaded { free_threaded->at("none_through").as<Pep440Version>(),
                          provenance(*free_threaded) };
            }
        });
        read(files, "jax.json", [&](const JsonReader& doc) {
            doc.allow_only({ "format", "sources", "windows", "macos", "cpu_extra", "native_code", "minimum_jaxlib",
                "jax_alone_releases", "releases" });
            for (const auto& row : doc.at("releases").items())
                m.m_jax.push_back(read_jax(row));
            m.m_jax_windows = read_windows(doc);
            m.m_jax_macos = read_macos(doc);
            if (auto cpu = doc.find("cpu_extra")) {
                cpu->allow_only({ "from", "note", "source", "confidence" });
                m.m_jax_cpu_extra = JaxCpuExtra { cpu->at("from").as<Pep440Version>(), provenance(*cpu) };
            }
            if (auto native = doc.find("native_code"))
                for (const auto& row : native->items()) {
                    row.allow_only({ "capability", "from", "note", "source", "confidence" });
                    m.m_jax_native_code.push_back({ row.at("capability").as<ComputeCapability>(),
                        row.at("from").as<Pep440Version>(), provenance(row) });
                }
            if (auto minimum = doc.find("minimum_jaxlib"))
                m.m_minimum_jaxlib = read_minimum_jaxlib(*minimum);
            if (auto alone = doc.find("jax_alone_releases"))
                m.m_jax_alone_releases = read_jax_alone_releases(*alone);
        });
        read_rows(files, "gpus.json", "gpus", m.m_gpus, [&](const JsonReader& row) { return read_gpu(row); });
        read(files, "driver_releases.json", [&](const JsonReader& doc) {
            doc.allow_only({ "format", "sources", "windows_numbering", "branches" });
            for (const auto& row : doc.at("branches").items())
                m.m_driver_releases.push_back(read_driver_releases(row, m));
            if (auto numbering = doc.find("windows_numbering")) {
                numbering->allow_only({ "note", "source", "confidence" });
                m.m_windows_numbering = WindowsDriverNumbering { provenance(*numbering) };
                check_windows_numbering(m, *numbering);
            }
        });
        read_rows(files, "nvidia_require_cuda.json", "releases", m.m_nvidia_images,
            [&](const JsonReader& row) { return read_nvidia_image_release(row); });
        read_rows(files, "cuda_components.json", "releases", m.m_cuda_components,
            [&](const JsonReader& row) { return read_cuda_components(row); });
        read_rows(files, "python_runtimes.json", "runtimes", m.m_python_runtimes,
            [&](const JsonReader& row) { return read_python_runtime(row); });
        check_gpu_names(m);
        check_gpu_segments(m);
        check_python_runtimes(m);
        return m;
    }

private:
    template <typename Body>
    void read(const std::map<std::string, std::string>& files, const std::string& name, Body body)
    {
        std::string file = m_origin + "/" + name;
        auto it = files.find(name);
        if (it == files.end())
            throw Error(ErrorCode::not_found, file + ": missing",
                "a matrix directory holds cuda.json, driver_releases.json, cudnn.json, "
                "torch.json, tensorflow.json, jax.json, gpus.json, nvidia_require_cuda.json, "
                "cuda_components.json and python_runtimes.json");
        nlohmann::json json = JsonReader::parse_document(file, it->second);
        JsonReader doc(file, json);
        if (std::string format = doc.at("format").string(); format != "dlenv.compat/v1")
            doc.at("format").fail("unknown format '" + format + "'",
                "this dlenv reads dlenv.compat/v1; upgrade dlenv or regenerate the file");
        m_sources.clear();
        for (const auto& [key, value] : doc.at("sources").raw().items()) {
            JsonReader source = doc.at("sources").at(key);
            source.allow_only({ "title", "url" });
            m_sources[key] = std::make_shared<const Source>(
                Source { key, source.at("title").string(), source.optional_string("url").value_or("") });
        }
        body(doc);
    }

    // A file that holds one table of rows under `key`.
    template <typename Row, typename ReadRow>
    void read_rows(const std::map<std::string, std::string>& files, const std::string& name, std::string_view key,
        std::vector<Row>& out, ReadRow read_row)
    {
        read(files, name, [&](const JsonReader& doc) {
            doc.allow_only({ "format", "sources", key });
            for (const auto& row : doc.at(key).items())
                out.push_back(read_row(row));
        });
    }

    Provenance provenance(const JsonReader& row) const
    {
        Provenance p;
        auto keys = row.at("source");
        for (const auto& key : keys.items()) {
            auto it = m_sources.find(key.string());
            if (it == m_sources.end())
                key.fail("unknown source '" + key.string() + "'", "add it to the file's \"sources\" table");
            p.sources.push_back(it->second);
        }
        if (p.sources.empty())
            keys.fail("no source", "every fact names where it comes from");
        std::string confidence = row.at("confidence").string();
        if (confidence == "confirmed")
            p.confidence = Confidence::confirmed;
        else if (confidence == "secondary")
            p.confidence = Confidence::secondary;
        else if (confidence == "unconfirmed")
            p.confidence = Confidence::unconfirmed;
        else
            row.at("confidence").fail("expected confirmed, secondary or unconfirmed, got '" + confidence + "'");
        p.note = row.optional_string("note").value_or("");
        return p;
    }

    template <typename Version> static VersionRange<Version> range(const JsonReader& field)
    {
        field.allow_only({ "min", "max" });
        return { field.optional_as<Version>("min"), field.optional_as<Version>("max") };
    }

    template <typename Item> static std::vector<Item> list(const JsonReader& field)
    {
        std::vector<Item> out;
        for (const auto& item : field.items())
            out.push_back(item.as<Item>());
        return out;
    }

    void read_cuda(const JsonReader& doc, Matrix& m)
    {
        doc.allow_only({ "format", "sources", "toolkits", "minor_version_compatibility", "forward_compatibility",
            "driver_branches", "architectures" });
        for (const auto& row : doc.at("toolkits").items()) {
            row.allow_only({ "version", "name", "driver_linux", "driver_windows", "note", "source", "confidence" });
            m.m_toolkits.push_back({ row.at("version").as<CudaVersion>(), row.at("name").string(),
                row.optional_as<DriverVersion>("driver_linux"), row.optional_as<DriverVersion>("driver_windows"),
                provenance(row) });
        }
        for (const auto& row : doc.at("minor_version_compatibility").items()) {
            row.allow_only({ "major", "driver_linux", "driver_windows", "note", "source", "confidence" });
            m.m_minor_floors.push_back({ row.at("major").unsigned_integer(), row.at("driver_linux").as<DriverVersion>(),
                row.optional_as<DriverVersion>("driver_windows"), provenance(row) });
        }
        auto forward = doc.at("forward_compatibility");
        forward.allow_only({ "segments", "note", "source", "confidence" });
        for (const auto& segment : forward.at("segments").items())
            m.m_forward.segments.push_back(read_segment(segment));
        m.m_forward.provenance = provenance(forward);
        for (const auto& row : doc.at("driver_branches").items()) {
            row.allow_only(
                { "branch", "designation", "end_of_life", "max_cuda_major", "note", "source", "confidence" });
            auto max_major = row.find("max_cuda_major");
            m.m_branches.push_back({ row.at("branch").unsigned_integer(), row.at("designation").string(),
                row.optional_string("end_of_life").value_or(""),
                max_major ? std::optional(max_major->unsigned_integer()) : std::nullopt, provenance(row) });
        }
        for (const auto& row : doc.at("architectures").items()) {
            row.allow_only({ "compute_capability", "name", "min_cuda", "max_cuda", "deprecated_from",
                "min_driver_linux", "max_driver_branch", "segments", "jetson", "note", "source", "confidence" });
            auto max_branch = row.find("max_driver_branch");
            auto segments = read_segments(row.find("segments"));
            auto jetson = read_jetson(row, segments);
            m.m_architectures.push_back({ row.at("compute_capability").as<ComputeCapability>(), row.at("name").string(),
                row.at("min_cuda").as<CudaVersion>(), row.optional_as<CudaVersion>("max_cuda"),
                row.optional_as<CudaVersion>("deprecated_from"), row.optional_as<DriverVersion>("min_driver_linux"),
                max_branch ? std::optional(max_branch->unsigned_integer()) : std::nullopt, std::move(segments),
                provenance(row), std::move(jetson) });
            const auto& arch = m.m_architectures.back();
            if (arch.deprecated_from
                && (*arch.deprecated_from < arch.min_cuda || (arch.max_cuda && *arch.max_cuda < *arch.deprecated_from)))
                row.at("deprecated_from")
                    .fail("CUDA " + arch.deprecated_from->text() + " is outside the toolkits that target it ("
                            + arch.min_cuda.text() + " to " + (arch.max_cuda ? arch.max_cuda->text() : "now") + ")",
                        "name the release whose notes deprecate the architecture");
        }
    }

    std::optional<JetsonSoftware> read_jetson(
        const JsonReader& row, const std::optional<std::vector<GpuSegment>>& segments) const
    {
        auto jetson = row.find("jetson");
        if (!jetson)
            return std::nullopt;
        jetson->allow_only(
            { "newest_jetpack", "cuda", "upgrade_cuda", "upstream_wheels_from_cuda", "note", "source", "confidence" });
        if (segments != std::vector { GpuSegment::jetson })
            jetson->fail("JetPack facts on an architecture not sold in Jetson modules alone",
                "set \"segments\" to [\"jetson\"], or drop \"jetson\"");
        JetsonSoftware out { jetson->at("newest_jetpack").string(), jetson->at("cuda").as<CudaVersion>(),
            jetson->optional_as<CudaVersion>("upgrade_cuda"),
            jetson->optional_as<CudaVersion>("upstream_wheels_from_cuda"), provenance(*jetson) };
        if (out.upgrade_cuda && !(out.cuda < *out.upgrade_cuda))
            jetson->at("upgrade_cuda")
                .fail("upgrade_cuda " + out.upgrade_cuda->text() + " is not newer than the JetPack's CUDA "
                        + out.cuda.text(),
                    "name the newest CUDA the upgrade packages bring, or null for none");
        return out;
    }

    // The listed releases, oldest first and each once, with the drivers cuda.json's toolkits of
    // the branch bundle merged in: a runfile's driver is a Linux release even where no other
    // list names it.
    DriverReleases read_driver_releases(const JsonReader& row, const Matrix& m) const
    {
        row.allow_only({ "branch", "releases", "complete_through", "reports_cuda", "note", "source", "confidence" });
        DriverReleases out { row.at("branch").unsigned_integer(), {},
            row.optional_as<DriverVersion>("complete_through"), provenance(row), std::nullopt };
        if (auto reported = row.find("reports_cuda")) { // null: not on record
            reported->allow_only({ "cuda", "note", "source", "confidence" });
            out.reports_cuda = ReportedCuda { reported->at("cuda").as<CudaVersion>(), provenance(*reported) };
        }
        for (const auto& item : row.at("releases").items()) {
            DriverVersion release = item.as<DriverVersion>();
            if (release.major() != out.branch)
                item.fail("release " + release.text() + " is not of branch " + std::to_string(out.branch),
                    "move it to the row of branch " + std::to_string(release.major()));
            if (!out.releases.empty() && release <= out.releases.back())
                item.fail(
                    "release " + release.text() + " is out of order", "list the releases oldest first, each once");
            out.releases.push_back(release);
        }
        if (out.complete_through && !out.lists(*out.complete_through))
            row.at("complete_through")
                .fail("complete_through " + out.complete_through->text() + " is not one of the branch's releases",
                    "name the newest release the list is complete to");
        for (const auto& toolkit : m.m_toolkits)
            if (toolkit.driver_linux && toolkit.driver_linux->major() == out.branch
                && !out.lists(*toolkit.driver_linux))
                out.releases.insert(std::upper_bound(out.releases.begin(), out.releases.end(), *toolkit.driver_linux),
                    *toolkit.driver_linux);
        return out;
    }

    CudnnLibraries read_cudnn_libraries(const JsonReader& row) const
    {
        row.allow_only({ "major", "shim", "loaded", "note", "source", "confidence" });
        return { row.at("major").unsigned_integer(), row.at("shim").string(), row.at("loaded").strings(),
            provenance(row) };
    }

    CudaComponents read_cuda_components(const JsonReader& row) const
    {
        row.allow_only({ "cuda", "libraries", "note", "source", "confidence" });
        CudaComponents components { row.at("cuda").as<CudaVersion>(), {}, provenance(row) };
        for (const auto& item : row.at("libraries").items()) {
            item.allow_only({ "component", "name", "version", "flavour", "files" });
            std::string flavour = item.at("flavour").string();
            if (flavour != "base" && flavour != "runtime")
                item.at("flavour").fail("unknown flavour '" + flavour + "'", "use base or runtime");
            CudaLibrary library { item.at("component").string(), item.at("name").string(), item.at("version").string(),
                flavour == "base" ? ImageFlavour::base : ImageFlavour::runtime, {} };
            for (const auto& file : item.at("files").items()) {
                file.allow_only({ "soname", "file" });
                library.files.push_back({ file.at("soname").string(), file.at("file").string() });
            }
            components.libraries.push_back(std::move(library));
        }
        return components;
    }

    NvidiaImageRelease read_nvidia_image_release(const JsonReader& row) const
    {
        row.allow_only({ "cuda", "require_cuda", "note", "source", "confidence" });
        NvidiaImageRelease release { row.at("cuda").as<CudaVersion>(), {}, provenance(row) };
        std::string prefix = "cuda>=" + release.cuda.truncated(2).text();
        for (const auto& item : row.at("require_cuda").items()) {
            // brands and branches restate the value, for people reading the file
            item.allow_only({ "value", "cuda_min", "brand_driver_branches", "brands", "platforms", "note", "source",
                "confidence" });
            std::string value = item.at("value").string();
            if (value != prefix && !value.starts_with(prefix + " "))
                item.at("value").fail(
                    "expected the value of a CUDA " + release.cuda.text() + " image to begin with " + prefix);
            release.require_cuda.push_back({ std::move(value), item.at("platforms").strings(),
                item.find("source") ? provenance(item) : release.provenance });
        }
        return release;
    }

    // An architecture name another row names: one of cuda.json's architectures.
    std::string architecture_name(const JsonReader& item, const Matrix& m) const
    {
        std::string name = item.string();
        bool known = std::any_of(m.m_architectures.begin(), m.m_architectures.end(),
            [&](const Architecture& arch) { return arch.name == name; });
        if (!known)
            item.fail("unknown architecture '" + name + "'", "name one of cuda.json's architectures (\"Pascal\")");
        return name;
    }

    CudnnRelease read_cudnn(const JsonReader& row, const Matrix& m) const
    {
        row.allow_only(
            { "version", "builds", "deprecated_architectures", "recommended", "note", "source", "confidence" });
        CudnnRelease release { row.at("version").as<CudnnVersion>(), {}, {}, {}, provenance(row) };
        if (auto deprecated = row.find("deprecated_architectures"))
            for (const auto& item : deprecated->items())
                release.deprecated_architectures.push_back(architecture_name(item, m));
        if (auto recommended = row.find("recommended"))
            for (const auto& item : recommended->items()) {
                item.allow_only({ "architectures", "cuda" });
                CudnnRecommendation recommendation { {}, range<CudaVersion>(item.at("cuda")) };
                for (const auto& name : item.at("architectures").items())
                    recommendation.architectures.push_back(architecture_name(name, m));
                release.recommended.push_back(std::move(recommendation));
            }
        auto builds = row.find("builds"); // null: the builds are not known
        for (const auto& build : builds ? builds->items() : std::vector<JsonReader> {}) {
            build.allow_only({ "cuda", "driver_linux", "compute_capabilities" });
            auto ccs = build.find("compute_capabilities");
            release.builds.push_back(
                { range<CudaVersion>(build.at("cuda")), build.optional_as<DriverVersion>("driver_linux"),
                    ccs ? list<ComputeCapability>(*ccs) : std::vector<ComputeCapability> {} });
        }
        return release;
    }

    TorchRelease read_torch(const JsonReader& row) const
    {
        row.allow_only({ "line", "versions", "python", "variants", "companions", "note", "source", "confidence" });
        JsonReader python = row.at("python");
        python.allow_only({ "min", "max", "experimental", "experimental_linux_only", "experimental_companion_wheels",
            "free_threaded", "free_threaded_experimental", "free_threaded_windows_wheels", "without_compile" });
        auto without_compile = python.find("without_compile");
        auto free_threaded = python.find("free_threaded"); // null: not on record
        auto free_threaded_experimental = python.find("free_threaded_experimental"); // absent: all of them
        auto linux_only = python.find("experimental_linux_only"); // null: not on record
        auto companions = python.find("experimental_companion_wheels"); // null: not on record
        auto free_threaded_windows = python.find("free_threaded_windows_wheels"); // null: not on record
        TorchRelease release { row.at("line").string(), list<Pep440Version>(row.at("versions")),
            { python.optional_as<PythonVersion>("min"), python.optional_as<PythonVersion>("max") },
            list<PythonVersion>(python.at("experimental")),
            linux_only ? std::optional(linux_only->boolean()) : std::nullopt,
            companions ? std::optional(companions->boolean()) : std::nullopt,
            free_threaded ? std::optional(list<PythonVersion>(*free_threaded)) : std::nullopt,
            free_threaded_experimental ? std::optional(list<PythonVersion>(*free_threaded_experimental)) : std::nullopt,
            free_threaded_windows ? std::optional(free_threaded_windows->boolean()) : std::nullopt,
            without_compile ? list<PythonVersion>(*without_compile) : std::vector<PythonVersion> {}, {}, {},
            provenance(row) };
        if (release.python_experimental_linux_only && release.python_experimental.empty())
            python.at("experimental_linux_only")
                .fail("the platforms of experimental Pythons where the line lists none",
                    "drop experimental_linux_only, or list them in experimental");
        if (release.python_experimental_companions && release.python_experimental.empty())
            python.at("experimental_companion_wheels")
                .fail("companion wheels of experimental Pythons where the line lists none",
                    "drop experimental_companion_wheels, or list them in experimental");
        for (const auto& v : release.python_free_threaded_experimental.value_or(std::vector<PythonVersion> {}))
            if (!release.python_free_threaded
                || std::find(release.python_free_threaded->begin(), release.python_free_threaded->end(), v)
                    == release.python_free_threaded->end())
                python.at("free_threaded_experimental")
                    .fail(v.text() + "t is not among the line's free-threaded Pythons",
                        "list it in free_threaded, or drop it from free_threaded_experimental");
        if (release.python_free_threaded_windows
            && (!release.python_free_threaded || release.python_free_threaded->empty()))
            python.at("free_threaded_windows_wheels")
                .fail("Windows wheels of free-threaded Pythons where the line lists none",
                    "drop free_threaded_windows_wheels, or list them in free_threaded");
        for (const auto& v : row.at("variants").items()) {
            v.allow_only({ "tag", "cuda", "cuda_full", "status", "pypi_default", "unlabelled", "cudnn", "nccl",
                "arch_list", "ptx", "windows", "linux_aarch64", "no_windows_wheels", "known_issues", "note", "source",
                "confidence" });
            // An unrecorded status counts as stable; it only matters when no PyPI default is on record.
            std::string status = v.optional_string("status").value_or("stable");
            if (status != "stable" && status != "experimental")
                v.at("status").fail("expected stable or experimental, got '" + status + "'");
            auto arch_list = v.find("arch_list");
            auto ptx = v.find("ptx");
            release.variants.push_back(
                { v.at("tag").string(), v.at("cuda").as<CudaVersion>(), v.optional_as<CudaVersion>("cuda_full"),
                    status == "experimental", v.find("pypi_default") && v.at("pypi_default").boolean(),
                    v.find("unlabelled") && v.at("unlabelled").boolean(), v.optional_as<CudnnVersion>("cudnn"),
                    v.optional_as<NcclVersion>("nccl"),
                    arch_list ? std::optional(list<ComputeCapability>(*arch_list)) : std::nullopt,
                    ptx ? std::optional(list<ComputeCapability>(*ptx)) : std::nullopt, read_platform_code(v, "windows"),
                    read_platform_code(v, "linux_aarch64"),
                    v.find("no_windows_wheels") && v.at("no_windows_wheels").boolean(),
                    read_known_issues(v, release.versions), provenance(v) });
            if (release.variants.back().no_windows_wheels && release.variants.back().windows)
                v.at("no_windows_wheels")
                    .fail("no Windows wheels where the variant's Windows GPU code is on record",
                        "drop no_windows_wheels, or the windows block");
        }
        if (auto companions = row.find("companions"))
            for (const auto& c : companions->items()) {
                c.allow_only(
                    { "torch", "torchvision", "torchaudio", "torchvision_unlabelled", "note", "source", "confidence" });
                release.companions.push_back({ c.at("torch").as<Pep440Version>(),
                    c.optional_as<Pep440Version>("torchvision"), c.optional_as<Pep440Version>("torchaudio"),
                    c.find("torchvision_unlabelled") && c.at("torchvision_unlabelled").boolean(), provenance(c) });
            }
        std::sort(release.versions.begin(), release.versions.end());
        return release;
    }

    // A torch variant's or a jax row's known issues, each naming releases of its row.
    std::vector<KnownIssue> read_known_issues(
        const JsonReader& variant, const std::vector<Pep440Version>& row_versions) const
    {
        std::vector<KnownIssue> out;
        auto issues = variant.find("known_issues");
        if (!issues)
            return out;
        for (const auto& issue : issues->items()) {
            issue.allow_only({ "versions", "above_capability", "windows_only", "severity", "detail", "fixed_in", "note",
                "source", "confidence" });
            const std::string severity = issue.at("severity").string();
            if (severity != "error" && severity != "warning")
                issue.at("severity").fail("expected error or warning, got '" + severity + "'");
            KnownIssue known { list<Pep440Version>(issue.at("versions")),
                issue.optional_as<ComputeCapability>("above_capability"),
                issue.find("windows_only") && issue.at("windows_only").boolean(), severity == "error",
                issue.at("detail").string(), issue.optional_as<Pep440Version>("fixed_in"), provenance(issue) };
            if (known.versions.empty())
                issue.at("versions").fail("no release named", "list the releases of the row the issue hits");
            require_row_releases(issue.at("versions"), known.versions, row_versions, "versions");
            out.push_back(std::move(known));
        }
        return out;
    }

    // A blackwell record's list of architectures (fails_on may be absent: none).
    static std::vector<ComputeCapability> blackwell_list(const JsonReader& blackwell, std::string_view field)
    {
        std::vector<ComputeCapability> out;
        auto list = blackwell.find(field);
        if (!list)
            return out;
        for (const auto& item : list->items()) {
            auto cc = item.as<ComputeCapability>();
            if (cc.major() < 10)
                item.fail("compute capability " + cc.text() + " is not a Blackwell architecture",
                    "list only 10.0 and newer: older GPUs are judged by the build's min_compute_capability");
            out.push_back(cc);
        }
        return out;
    }

    // null or absent: not on record
    std::optional<PlatformGpuCode> read_platform_code(const JsonReader& variant, std::string_view platform) const
    {
        auto code = variant.find(platform);
        if (!code)
            return std::nullopt;
        code->allow_only({ "arch_list", "ptx", "note", "source", "confidence" });
        return PlatformGpuCode { list<ComputeCapability>(code->at("arch_list")),
            list<ComputeCapability>(code->at("ptx")), provenance(*code) };
    }

    // A table's rows of a jax release and a jaxlib release, by jax release, oldest first.
    std::vector<JaxJaxlibPair> read_jax_jaxlib_rows(const JsonReader& table) const
    {
        table.allow_only({ "rows", "note", "source", "confidence" });
        std::vector<JaxJaxlibPair> out;
        for (const auto& row : table.at("rows").items()) {
            row.allow_only({ "jax", "jaxlib" });
            JaxJaxlibPair read { row.at("jax").as<Pep440Version>(), row.at("jaxlib").as<Pep440Version>() };
            if (!out.empty() && !(out.back().jax < read.jax))
                row.at("jax").fail("rows out of order", "list the jax releases oldest first, each once");
            out.push_back(read);
        }
        return out;
    }

    MinimumJaxlib read_minimum_jaxlib(const JsonReader& minimum) const
    {
        return { read_jax_jaxlib_rows(minimum), provenance(minimum) };
    }

    JaxAloneReleases read_jax_alone_releases(const JsonReader& alone) const
    {
        JaxAloneReleases out { read_jax_jaxlib_rows(alone), provenance(alone) };
        const auto rows = alone.at("rows").items();
        for (std::size_t i = 0; i < out.rows.size(); ++i)
            if (!(out.rows[i].jaxlib < out.rows[i].jax))
                rows[i].at("jaxlib").fail("not older than the row's jax " + out.rows[i].jax.public_str(),
                    "name the older jaxlib the release's extras install (setup.py's _current_jaxlib_version)");
        return out;
    }

    std::optional<WindowsGpuSupport> read_windows(const JsonReader& doc) const
    {
        auto windows = doc.find("windows");
        if (!windows)
            return std::nullopt;
        windows->allow_only({ "native_gpu", "native_gpu_through", "pypi_cpu_only", "wsl2_gpu", "pip_extra_linux_only",
            "cpu_wheels_from", "cpu_experimental", "free_threaded_wheels", "note", "source", "confidence" });
        WindowsGpuSupport out { windows->at("native_gpu").boolean(),
            windows->optional_as<Pep440Version>("native_gpu_through"), false, std::nullopt,
            windows->optional_string("pip_extra_linux_only").value_or(""),
            windows->optional_as<Pep440Version>("cpu_wheels_from"), false, std::nullopt, provenance(*windows) };
        if (auto free_threaded = windows->find("free_threaded_wheels"))
            out.free_threaded_wheels = free_threaded->boolean();
        if (auto experimental = windows->find("cpu_experimental"))
            out.cpu_experimental = experimental->boolean();
        if (!out.native_gpu && out.native_gpu_through)
            windows->at("native_gpu_through")
                .fail("a last release with GPU on native Windows where native_gpu is false",
                    "drop native_gpu_through, or set native_gpu to true");
        if (auto cpu_only = windows->find("pypi_cpu_only"))
            out.pypi_cpu_only = cpu_only->boolean();
        if (!out.native_gpu && out.pypi_cpu_only)
            windows->at("pypi_cpu_only")
                .fail("PyPI's wheel named the CPU build where no build has GPU on native Windows",
                    "drop pypi_cpu_only: it tells where the CUDA builds come from");
        if (auto wsl2 = windows->optional_string("wsl2_gpu")) {
            if (*wsl2 != "supported" && *wsl2 != "experimental")
                windows->at("wsl2_gpu").fail("expected supported or experimental, got '" + *wsl2 + "'");
            out.wsl2_experimental = *wsl2 == "experimental";
        }
        return out;
    }

    std::optional<MacosGpuSupport> read_macos(const JsonReader& doc) const
    {
        auto macos = doc.find("macos");
        if (!macos)
            return std::nullopt;
        macos->allow_only({ "cuda_through", "note", "source", "confidence" });
        return MacosGpuSupport { macos->optional_as<Pep440Version>("cuda_through"), provenance(*macos) };
    }

    TensorflowRelease read_tensorflow(const JsonReader& row) const
    {
        row.allow_only({ "line", "versions", "python", "cuda", "cudnn", "pip_extra", "nccl", "gpu_code",
            "pip_extra_issues", "note", "source", "confidence" });
        TensorflowRelease release { row.at("line").string(), list<Pep440Version>(row.at("versions")),
            range<PythonVersion>(row.at("python")), row.at("cuda").as<CudaVersion>(),
            row.at("cudnn").as<CudnnVersion>(), row.optional_string("pip_extra").value_or(""), {}, {}, {},
            provenance(row) };
        release.nccl = read_pip_nccl(row, release.pip_extra);
        if (auto code = row.find("gpu_code")) { // null: not on record
            code->allow_only({ "cubins", "ptx", "driver_fallback", "driver_jit", "note", "source", "confidence" });
            release.gpu_code = TensorflowGpuCode { list<ComputeCapability>(code->at("cubins")),
                list<ComputeCapability>(code->at("ptx")), provenance(*code), std::nullopt, std::nullopt };
            for (auto [key, record] : { std::pair { "driver_fallback", &release.gpu_code->driver_fallback },
                     std::pair { "driver_jit", &release.gpu_code->driver_jit } })
                if (auto reports = code->find(key)) {
                    reports->allow_only({ "note", "source", "confidence" });
                    *record = provenance(*reports);
                }
            if (release.gpu_code->driver_jit && release.gpu_code->ptx.empty())
                code->at("driver_jit")
                    .fail("a driver JIT of PTX the wheels do not carry", "drop driver_jit, or list the PTX in ptx");
        }
        if (auto issues = row.find("pip_extra_issues"))
            for (const auto& issue : issues->items())
                release.pip_extra_issues.push_back(
                    read_pip_extra_issue(issue, release.pip_extra, release.versions, "versions"));
        std::sort(release.versions.begin(), release.versions.end());
        return release;
    }

    // `row_versions` are the releases the extra is of, the row's `versions_field`.
    PipExtraIssue read_pip_extra_issue(const JsonReader& issue, const std::string& pip_extra,
        const std::vector<Pep440Version>& row_versions, std::string_view versions_field) const
    {
        issue.allow_only(
            { "kind", "versions", "python_from", "extra", "detail", "fixed_in", "note", "source", "confidence" });
        if (pip_extra.empty())
            issue.fail("an issue of a pip extra on a row without one", "name the extra in \"pip_extra\"");
        std::string kind = issue.at("kind").string();
        PipExtraIssue out { PipExtraIssue::Kind::uninstallable, list<Pep440Version>(issue.at("versions")),
            issue.optional_as<PythonVersion>("python_from"), issue.optional_string("extra").value_or(""),
            issue.at("detail").string(), issue.optional_as<Pep440Version>("fixed_in"), provenance(issue) };
        if (kind == to_string(PipExtraIssue::Kind::libraries_not_found))
            out.kind = PipExtraIssue::Kind::libraries_not_found;
        else if (kind == to_string(PipExtraIssue::Kind::library_too_new))
            out.kind = PipExtraIssue::Kind::library_too_new;
        else if (kind != to_string(PipExtraIssue::Kind::uninstallable))
            issue.at("kind").fail("expected uninstallable, libraries-not-found or library-too-new, got '" + kind + "'");
        if (!out.extra.empty() && out.extra != pip_extra)
            issue.at("extra").fail("'" + out.extra + "' is not the pip extra " + pip_extra,
                "name the pip extra, or drop \"extra\" for every extra");
        require_row_releases(issue.at("versions"), out.versions, row_versions, versions_field);
        return out;
    }

    // Every release `list` names (read as `versions`) is one of the row's `versions_field`.
    static void require_row_releases(const JsonReader& list, const std::vector<Pep440Version>& versions,
        const std::vector<Pep440Version>& row_versions, std::string_view versions_field)
    {
        for (std::size_t i = 0; i < versions.size(); ++i)
            if (std::find(row_versions.begin(), row_versions.end(), versions[i]) == row_versions.end())
                list.items()[i].fail(versions[i].str() + " is not a release of the row",
                    "list releases from the row's \"" + std::string(versions_field) + "\"");
    }

    // The NCCL the row's pip extra requires: a floor, and a ceiling where the extra has one.
    std::optional<PipNccl> read_pip_nccl(const JsonReader& row, const std::string& pip_extra) const
    {
        auto nccl = row.find("nccl"); // null: the extra's pin is not on record
        if (!nccl)
            return std::nullopt;
        if (pip_extra.empty())
            nccl->fail(
                "an NCCL requirement on a row without a pip extra", "name the extra in \"pip_extra\" or drop \"nccl\"");
        nccl->allow_only({ "min", "max", "note", "source", "confidence" });
        auto min = nccl->at("min").as<NcclVersion>();
        auto max = nccl->optional_as<NcclVersion>("max");
        if (max && *max < min)
            nccl->at("max").fail("below min " + min.text(), "an == pin has min and max equal");
        return PipNccl { { min, max }, provenance(*nccl) };
    }

    JaxRelease read_jax(const JsonReader& row) const
    {
        row.allow_only({ "line", "versions", "jax_versions", "python", "builds", "extra_aliases", "blackwell",
            "known_issues", "note", "source", "confidence" });
        auto jax_versions = row.find("jax_versions");
        JsonReader python = row.at("python");
        python.allow_only({ "min", "max", "free_threaded" });
        auto free_threaded = python.find("free_threaded"); // null: not on record
        JaxRelease release { row.at("line").string(), list<Pep440Version>(row.at("versions")),
            jax_versions ? std::optional(list<Pep440Version>(*jax_versions)) : std::nullopt,
            { python.optional_as<PythonVersion>("min"), python.optional_as<PythonVersion>("max") },
            free_threaded ? std::optional(list<PythonVersion>(*free_threaded)) : std::nullopt, {}, {}, {},
            read_known_issues(row, list<Pep440Version>(row.at("versions"))), provenance(row) };
        auto line_of = [](const Pep440Version& v) {
            return std::pair(v.release()[0], v.release().size() > 1 ? v.release()[1] : 0);
        };
        if (jax_versions)
            for (const auto& item : jax_versions->items())
                if (line_of(item.as<Pep440Version>()) != line_of(release.jax_versions->front()))
                    item.fail("jax " + item.string() + " is of another line than the row's first jax release",
                        "give each jax line's releases a row of their own");
        for (const auto& b : row.at("builds").items()) {
            b.allow_only({ "extra", "local_extra", "pip_cuda", "plugin", "pjrt", "plugin_wheel_page", "cuda", "cudnn",
                "nccl", "driver_linux", "min_compute_capability", "cubins", "toolkit_driver_required", "pip_cudnn_min",
                "pip_extra_issues" });
            auto cubins = b.find("cubins");
            const std::string plugin = b.at("plugin").string();
            const bool plugin_wheel_page = b.find("plugin_wheel_page") && b.at("plugin_wheel_page").boolean();
            if (plugin_wheel_page && plugin.empty())
                b.at("plugin_wheel_page")
                    .fail("a wheel page for the plugin of a build without one",
                        "drop it: a CUDA jaxlib is always served by JAX's wheel page");
            release.builds.push_back({ b.at("extra").string(), b.at("local_extra").string(), b.at("pip_cuda").boolean(),
                plugin, b.optional_string("pjrt").value_or(""), plugin.empty() || plugin_wheel_page,
                range<CudaVersion>(b.at("cuda")), range<CudnnVersion>(b.at("cudnn")), range<NcclVersion>(b.at("nccl")),
                b.optional_as<DriverVersion>("driver_linux"),
                b.optional_as<ComputeCapability>("min_compute_capability"),
                cubins ? std::optional(list<ComputeCapability>(*cubins)) : std::nullopt,
                b.find("toolkit_driver_required") && b.at("toolkit_driver_required").boolean(),
                b.optional_as<CudnnVersion>("pip_cudnn_min"), {} });
            auto& build = release.builds.back();
            if (build.pip_cudnn_min && !build.pip_cuda)
                b.at("pip_cudnn_min")
                    .fail("a pip cuDNN pin on a build whose extra brings no CUDA from pip",
                        "drop it, or set \"pip_cuda\": true");
            if (build.pip_cudnn_min && build.cudnn.min && !(*build.cudnn.min < *build.pip_cudnn_min))
                b.at("pip_cudnn_min")
                    .fail("not above the build's cuDNN floor " + build.cudnn.min->text(),
                        "drop it: the build's own floor already says so");
            if (auto issues = b.find("pip_extra_issues"))
                for (const auto& issue : issues->items())
                    // the extra is jax's: before 0.4 its releases are the row's jax_versions
                    build.pip_extra_issues.push_back(release.jax_versions
                            ? read_pip_extra_issue(issue, build.extra, *release.jax_versions, "jax_versions")
                            : read_pip_extra_issue(issue, build.extra, release.versions, "versions"));
        }
        if (auto aliases = row.find("extra_aliases")) {
            const auto extras = release.build_extras();
            for (const auto& alias : aliases->items())
                release.extra_aliases.push_back(read_jax_extra_alias(alias, extras));
        }
        if (auto blackwell = row.find("blackwell")) { // null: not on record
            blackwell->allow_only({ "runs_on", "fails_on", "others_fail", "note", "source", "confidence" });
            release.blackwell
                = JaxBlackwell { blackwell_list(*blackwell, "runs_on"), blackwell_list(*blackwell, "fails_on"),
                      blackwell->at("others_fail").boolean(), provenance(*blackwell) };
            const auto& facts = *release.blackwell;
            for (const auto& cc : facts.fails_on)
                if (std::find(facts.runs_on.begin(), facts.runs_on.end(), cc) != facts.runs_on.end())
                    blackwell->at("fails_on")
                        .fail("compute capability " + cc.text() + " is in runs_on too",
                            "list an architecture where the sources put it: runs_on or fails_on");
        }
        std::sort(release.versions.begin(), release.versions.end());
        return release;
    }

    // `extras`: the row's build extras, which an alias must name and must not be
    JaxExtraAlias read_jax_extra_alias(const JsonReader& alias, const std::vector<std::string>& extras) const
    {
        alias.allow_only({ "name", "means", "deprecated", "note", "source", "confidence" });
        JaxExtraAlias out { alias.at("name").string(), alias.at("means").string(),
            alias.find("deprecated") && alias.at("deprecated").boolean(), provenance(alias) };
        if (std::find(extras.begin(), extras.end(), out.name) != extras.end())
            alias.at("name").fail("'" + out.name + "' is a build's own extra", "drop the alias");
        if (std::find(extras.begin(), extras.end(), out.means) == extras.end())
            alias.at("means").fail(
                "'" + out.means + "' is not the extra of one of the row's builds", "name " + join_alternatives(extras));
        return out;
    }

    Gpu read_gpu(const JsonReader& row) const
    {
        row.allow_only({ "name", "aliases", "family", "compute_capability", "architecture", "segment", "memory_gb",
            "memory_type", "bandwidth_gb_s", "tensor_tflops", "host", "note", "source", "confidence" });
        auto host = row.optional_string("host");
        if (host && *host != "aarch64")
            row.at("host").fail("expected aarch64, got '" + *host + "'", "name the host only where it is always Arm");
        auto memory = row.find("memory_gb");
        auto bandwidth = row.find("bandwidth_gb_s");
        return { row.at("name").string(), row.at("aliases").strings(), row.optional_string("family").value_or(""),
            row.at("compute_capability").as<ComputeCapability>(), row.at("architecture").string(),
            read_segment(row.at("segment")), memory ? std::optional(memory->number()) : std::nullopt,
            row.optional_string("memory_type").value_or(""),
            bandwidth ? std::optional(bandwidth->number()) : std::nullopt, read_tensor_peak(row), provenance(row),
            host.has_value() };
    }

    std::optional<TensorPeak> read_tensor_peak(const JsonReader& row) const
    {
        auto peak = row.find("tensor_tflops"); // null: no sourced peak
        if (!peak)
            return std::nullopt;
        peak->allow_only({ "fp16", "bf16", "note", "source", "confidence" });
        auto fp16 = peak->find("fp16");
        auto bf16 = peak->find("bf16");
        return TensorPeak { fp16 ? std::optional(fp16->number()) : std::nullopt,
            bf16 ? std::optional(bf16->number()) : std::nullopt, provenance(*peak) };
    }

    static GpuSegment read_segment(const JsonReader& field)
    {
        std::string text = field.string();
        for (auto segment :
            { GpuSegment::datacenter, GpuSegment::workstation, GpuSegment::geforce, GpuSegment::jetson })
            if (text == to_string(segment))
                return segment;
        field.fail("expected datacenter, workstation, geforce or jetson, got '" + text + "'");
    }

    static std::optional<std::vector<GpuSegment>> read_segments(const std::optional<JsonReader>& field)
    {
        if (!field)
            return std::nullopt;
        std::vector<GpuSegment> out;
        for (const auto& item : field->items())
            out.push_back(read_segment(item));
        return out;
    }

    // A model sold in a segment its architecture is not known in would make a bare compute
    // capability's segment a wrong answer.
    void check_gpu_segments(const Matrix& m) const
    {
        for (const auto& gpu : m.m_gpus) {
            const Architecture* arch = m.architecture(gpu.compute_capability);
            if (!arch || !arch->segments)
                continue;
            if (std::find(arch->segments->begin(), arch->segments->end(), gpu.segment) == arch->segments->end())
                throw Error(ErrorCode::invalid_input,
                    m_origin + "/gpus.json: " + gpu.name + " is a " + std::string(to_string(gpu.segment))
                        + " part, but cuda.json lists no " + std::string(to_string(gpu.segment))
                        + " parts of compute capability " + gpu.compute_capability.text(),
                    "correct the model's segment or the architecture's segments");
        }
    }

    PythonRuntimeBuild read_python_runtime(const JsonReader& row) const
    {
        row.allow_only({ "python", "release", "archives", "note", "source", "confidence" });
        PythonRuntimeBuild build { row.at("python").as<PythonVersion>(), row.at("release").string(), {},
            provenance(row) };
        if (build.python.parts().size() != 3)
            row.at("python").fail("expected CPython's full version, like \"3.10.19\"");
        JsonReader archives = row.at("archives");
        archives.allow_only({ "x86_64", "aarch64" });
        for (const auto& [machine, value] : archives.raw().items()) {
            JsonReader archive = archives.at(machine);
            archive.allow_only({ "url", "sha256" });
            PythonRuntimeArchive pinned { archive.at("url").string(), archive.at("sha256").string() };
            // The release's own asset name, so a row cannot pair one build's URL with another's version.
            std::string name = "/cpython-" + build.python.text() + "+" + build.release + "-" + machine
                + "-unknown-linux-gnu-install_only.tar.gz";
            if (!pinned.url.ends_with(name))
                archive.at("url").fail("expected the release's asset ..." + name);
            if (!is_sha256_hex(pinned.sha256))
                archive.at("sha256").fail("expected 64 lowercase hexadecimal digits");
            build.archives[machine] = std::move(pinned);
        }
        return build;
    }

    // Two builds of one minor would leave the lock's pick to the file's order.
    void check_python_runtimes(const Matrix& m) const
    {
        for (const auto& build : m.m_python_runtimes)
            if (m.python_runtime(build.python) != &build)
                throw Error(ErrorCode::invalid_input,
                    m_origin + "/python_runtimes.json: two builds of CPython " + build.python.truncated(2).text(),
                    "keep the newest build of each minor only");
    }

    // The numbering stands for every Windows driver, so each Linux/Windows pair cuda.json
    // records (a toolkit's bundled drivers, a minor-version floor) must agree with it.
    void check_windows_numbering(const Matrix& m, const JsonReader& numbering) const
    {
        auto check = [&](const std::string& row, const DriverVersion& on_linux, const DriverVersion& on_windows) {
            const auto branch = m.windows_driver_branch(on_windows);
            if (branch != on_linux.major())
                numbering.fail("cuda.json's " + row + " pairs Linux " + on_linux.text() + " with Windows "
                        + on_windows.text() + ", which the numbering reads as branch "
                        + (branch ? std::to_string(*branch) : std::string("none")),
                    "correct the pair, or the numbering if NVIDIA has changed it");
        };
        for (const auto& toolkit : m.m_toolkits)
            if (toolkit.driver_linux && toolkit.driver_windows)
                check("CUDA " + toolkit.version.text(), *toolkit.driver_linux, *toolkit.driver_windows);
        for (const auto& floor : m.m_minor_floors)
            if (floor.driver_windows)
                check("CUDA " + std::to_string(floor.major) + " minor-version floor", floor.driver_linux,
                    *floor.driver_windows);
    }

    // A name that means two GPUs would make every answer about it a guess.
    void check_gpu_names(const Matrix& m) const
    {
        std::map<std::string, std::string> owner;
        for (const auto& gpu : m.m_gpus) {
            std::vector<std::string> names = gpu.aliases;
            names.push_back(gpu.name);
            std::sort(names.begin(), names.end());
            names.erase(std::unique(names.begin(), names.end()), names.end());
            for (const auto& name : names) {
                auto [it, inserted] = owner.emplace(ascii_lowercase(name), gpu.name);
                if (!inserted && it->second != gpu.name)
                    throw Error(ErrorCode::invalid_input,
                        m_origin + "/gpus.json: '" + name + "' names both " + it->second + " and " + gpu.name,
                        "keep the alias on one row only");
            }
        }
        for (const auto& gpu : m.m_gpus)
            if (!gpu.family.empty())
                check_family(m, gpu);
    }

    // A family stands for its variants in every check of a stack, so it must not also name
    // one model, and its variants must agree on what those checks read.
    void check_family(const Matrix& m, const Gpu& gpu) const
    {
        std::string where = m_origin + "/gpus.json: family '" + gpu.family + "' of " + gpu.name;
        if (const Gpu* named = m.find_gpu(gpu.family))
            throw Error(ErrorCode::invalid_input, where + " is also the name of " + named->name,
                "a family name may not name one model");
        const Gpu& first = *m.gpu_family(gpu.family).front();
        if (first.compute_capability != gpu.compute_capability || first.segment != gpu.segment)
            throw Error(ErrorCode::invalid_input,
                where + " differs from " + first.name + " in compute capability or segment",
                "a family's variants share both; give the model its own family or none");
    }

    std::string m_origin;
    std::map<std::string, SourceRef> m_sources;
};

Matrix Matrix::load(const std::map<std::string, std::string>& files, const std::string& origin)
{
    return Loader(origin).load(files);
}

std::map<std::string, std::string> read_matrix_directory(const std::filesystem::path& dir)
{
    std::map<std::string, std::string> files;
    if (!std::filesystem::is_directory(dir))
        throw Error(ErrorCode::not_found, "matrix directory " + dir.string() + " does not exist",
            "pass a directory holding the files of profiles/compat/");
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".json")
            files[entry.path().filename().string()] = read_file(entry.path());
    return files;
}

Matrix Matrix::load_directory(const std::filesystem::path& dir)
{
    return load(read_matrix_directory(dir), dir.string());
}

} // namespace dlenv::matrix
