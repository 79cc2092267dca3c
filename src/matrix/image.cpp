// A Matrix as bytes and back. Each row type lists its fields once, in fields(); the writer
// and the reader walk the same lists, so the two cannot disagree on the layout. Numbers
// are little-endian as the machine holds them: an image is read only by the build that
// wrote it. The sources come first, each once; a row cites one by its place in that table,
// and the rows read back share them as the loaded matrix did.
#include "core/error.h"
#include "matrix/matrix.h"

#include <cstring>
#include <type_traits>

namespace dlenv::matrix {

// The members of Matrix, for the writer and the reader.
struct MatrixFields {
    template <typename Archive, typename M> static void visit(Archive& a, M& m)
    {
        a(m.m_sha256, m.m_toolkits, m.m_minor_floors, m.m_forward, m.m_branches, m.m_driver_releases,
            m.m_windows_numbering, m.m_architectures, m.m_cudnn, m.m_cudnn_libraries, m.m_cudnn_gpu_floor, m.m_torch,
            m.m_torch_aarch64, m.m_torchaudio_stable_abi, m.m_torch_capability_range_warning,
            m.m_torch_compile_gpu_minimum, m.m_torch_windows, m.m_tensorflow, m.m_jax, m.m_tensorflow_windows,
            m.m_jax_windows, m.m_torch_macos, m.m_tensorflow_macos, m.m_tensorflow_linux_gpu_minimum,
            m.m_tensorflow_free_threaded, m.m_jax_macos, m.m_jax_cpu_extra, m.m_jax_native_code, m.m_minimum_jaxlib,
            m.m_jax_alone_releases, m.m_gpus, m.m_nvidia_images, m.m_cuda_components, m.m_python_runtimes);
    }
};

namespace {

// clang-format off
template <typename A> void fields(A& a, Source& r) { a(r.key, r.title, r.url); }
template <typename A> void fields(A& a, Provenance& r) { a(r.sources, r.confidence, r.note); }
template <typename A> void fields(A& a, CudaToolkit& r) { a(r.version, r.name, r.driver_linux, r.driver_windows, r.provenance); }
template <typename A> void fields(A& a, MinorVersionFloor& r) { a(r.major, r.driver_linux, r.driver_windows, r.provenance); }
template <typename A> void fields(A& a, ForwardCompatibility& r) { a(r.segments, r.provenance); }
template <typename A> void fields(A& a, DriverBranch& r) { a(r.branch, r.designation, r.end_of_life, r.max_cuda_major, r.provenance); }
template <typename A> void fields(A& a, ReportedCuda& r) { a(r.cuda, r.provenance); }
template <typename A> void fields(A& a, DriverReleases& r)
{
    a(r.branch, r.releases, r.complete_through, r.provenance, r.reports_cuda);
}
template <typename A> void fields(A& a, WindowsDriverNumbering& r) { a(r.provenance); }
template <typename A> void fields(A& a, NvidiaRequireCuda& r) { a(r.value, r.platforms, r.provenance); }
template <typename A> void fields(A& a, NvidiaImageRelease& r) { a(r.cuda, r.require_cuda, r.provenance); }
template <typename A> void fields(A& a, LibraryFile& r) { a(r.soname, r.file); }
template <typename A> void fields(A& a, CudaLibrary& r) { a(r.component, r.name, r.version, r.flavour, r.files); }
template <typename A> void fields(A& a, CudaComponents& r) { a(r.cuda, r.libraries, r.provenance); }
template <typename A> void fields(A& a, JetsonSoftware& r)
{
    a(r.newest_jetpack, r.cuda, r.upgrade_cuda, r.upstream_wheels_from, r.provenance);
}
template <typename A> void fields(A& a, Architecture& r)
{
    a(r.compute_capability, r.name, r.min_cuda, r.max_cuda, r.deprecated_from, r.min_driver_linux,
        r.max_driver_branch, r.segments, r.provenance, r.jetson);
}
template <typename A> void fields(A& a, CudnnBuild& r) { a(r.cuda, r.driver_linux, r.compute_capabilities); }
template <typename A> void fields(A& a, CudnnLibraries& r) { a(r.major, r.shim, r.loaded, r.provenance); }
template <typename A> void fields(A& a, CudnnRecommendation& r) { a(r.architectures, r.cuda); }
template <typename A> void fields(A& a, CudnnRelease& r) { a(r.version, r.builds, r.deprecated_architectures, r.recommended, r.provenance); }
template <typename A> void fields(A& a, TorchVariant& r)
{
    a(r.tag, r.cuda, r.cuda_full, r.experimental, r.pypi_default, r.unlabelled, r.cudnn, r.nccl, r.arch_list, r.ptx, r.windows,
        r.linux_aarch64, r.no_windows_wheels, r.known_issues, r.provenance);
}
template <typename A> void fields(A& a, KnownIssue& r)
{
    a(r.versions, r.above_capability, r.windows_only, r.fails, r.detail, r.fixed_in, r.provenance);
}
template <typename A> void fields(A& a, PlatformGpuCode& r) { a(r.arch_list, r.ptx, r.provenance); }
template <typename A> void fields(A& a, CompanionSet& r)
{
    a(r.torch, r.torchvision, r.torchaudio, r.torchvision_unlabelled, r.provenance);
}
template <typename A> void fields(A& a, TorchRelease& r)
{
    a(r.line, r.versions, r.python, r.python_experimental, r.python_experimental_linux_only,
        r.python_experimental_companions,
        r.python_free_threaded, r.python_free_threaded_experimental, r.python_free_threaded_windows,
        r.python_without_compile, r.variants, r.companions, r.provenance);
}
template <typename A> void fields(A& a, PipNccl& r) { a(r.versions, r.provenance); }
template <typename A> void fields(A& a, TensorflowGpuCode& r) { a(r.cubins, r.ptx, r.provenance, r.driver_fallback, r.driver_jit); }
template <typename A> void fields(A& a, PipExtraIssue& r)
{
    a(r.kind, r.versions, r.python_from, r.extra, r.detail, r.fixed_in, r.provenance);
}
template <typename A> void fields(A& a, TensorflowRelease& r)
{
    a(r.line, r.versions, r.python, r.cuda, r.cudnn, r.pip_extra, r.nccl, r.gpu_code, r.pip_extra_issues, r.provenance);
}
template <typename A> void fields(A& a, JaxBuild& r)
{
    a(r.extra, r.local_extra, r.pip_cuda, r.plugin, r.pjrt, r.wheel_page, r.cuda, r.cudnn, r.nccl, r.driver_linux,
        r.min_compute_capability, r.cubins, r.toolkit_driver_required, r.pip_cudnn_min, r.pip_extra_issues);
}
template <typename A> void fields(A& a, JaxExtraAlias& r) { a(r.name, r.means, r.deprecated, r.provenance); }
template <typename A> void fields(A& a, JaxBlackwell& r) { a(r.runs_on, r.fails_on, r.others_fail, r.provenance); }
template <typename A> void fields(A& a, JaxRelease& r)
{
    a(r.line, r.versions, r.jax_versions, r.python, r.python_free_threaded, r.builds, r.extra_aliases, r.blackwell,
        r.known_issues, r.provenance);
}
template <typename A> void fields(A& a, JaxJaxlibPair& r) { a(r.jax, r.jaxlib); }
template <typename A> void fields(A& a, MinimumJaxlib& r) { a(r.rows, r.provenance); }
template <typename A> void fields(A& a, JaxAloneReleases& r) { a(r.rows, r.provenance); }
template <typename A> void fields(A& a, WindowsGpuSupport& r)
{
    a(r.native_gpu, r.native_gpu_through, r.pypi_cpu_only, r.wsl2_experimental, r.pip_extra_linux_only,
        r.cpu_wheels_from, r.cpu_experimental, r.free_threaded_wheels, r.provenance);
}
template <typename A> void fields(A& a, MacosGpuSupport& r) { a(r.cuda_through, r.provenance); }
template <typename A> void fields(A& a, JaxCpuExtra& r) { a(r.from, r.provenance); }
template <typename A> void fields(A& a, JaxNativeCode& r) { a(r.capability, r.from, r.provenance); }
template <typename A> void fields(A& a, TensorPeak& r) { a(r.fp16, r.bf16, r.provenance); }
template <typename A> void fields(A& a, TorchaudioStableAbi& r) { a(r.from, r.provenance); }
template <typename A> void fields(A& a, TorchCapabilityRangeWarning& r) { a(r.from, r.until, r.provenance); }
template <typename A> void fields(A& a, TorchCompileGpuMinimum& r) { a(r.from, r.min, r.provenance); }
template <typename A> void fields(A& a, TensorflowGpuMinimum& r) { a(r.through, r.min, r.provenance); }
template <typename A> void fields(A& a, TensorflowFreeThreaded& r) { a(r.none_through, r.provenance); }
template <typename A> void fields(A& a, CudnnGpuFloor& r) { a(r.from, r.min, r.last_below, r.provenance); }
template <typename A> void fields(A& a, TorchAarch64& r)
{
    a(r.first_cuda_release, r.pypi_cpu_only_through, r.provenance);
}
template <typename A> void fields(A& a, Gpu& r)
{
    a(r.name, r.aliases, r.family, r.compute_capability, r.architecture, r.segment, r.memory_gb, r.memory_type,
        r.bandwidth_gb_s, r.tensor_tflops, r.provenance, r.host_aarch64);
}
template <typename A> void fields(A& a, PythonRuntimeArchive& r) { a(r.url, r.sha256); }
template <typename A> void fields(A& a, PythonRuntimeBuild& r) { a(r.python, r.release, r.archives, r.provenance); }
template <typename A, typename V> void fields(A& a, VersionRange<V>& r) { a(r.min, r.max); }
// clang-format on

template <typename Archive, typename Row>
concept Rows = requires(Archive& a, Row& row)
{
    fields(a, row);
};

class Writer {
public:
    template <typename... Fields> void operator()(const Fields&... values) { (put(values), ...); }

    // The source table, then the rows.
    std::string image() &&
    {
        Writer table;
        table.put(static_cast<std::uint32_t>(m_sources.size()));
        for (const Source* source : m_sources)
            table.put(*source);
        return std::move(table.m_bytes) + m_bytes;
    }

private:
    void put(const SourceRef& source)
    {
        auto [it, added] = m_source_index.try_emplace(source.get(), static_cast<std::uint32_t>(m_sources.size()));
        if (added)
            m_sources.push_back(source.get());
        put(it->second);
    }
    void put(std::uint32_t n) { m_bytes.append(reinterpret_cast<const char*>(&n), sizeof n); }
    void put(bool b) { m_bytes.push_back(b ? '\1' : '\0'); }
    void put(double d) { m_bytes.append(reinterpret_cast<const char*>(&d), sizeof d); }
    void put(const std::string& text)
    {
        put(static_cast<std::uint32_t>(text.size()));
        m_bytes += text;
    }
    template <typename Kind> void put(const NumericVersion<Kind>& v) { put(v.text()); }
    void put(const Pep440Version& v) { put(v.str()); }
    void put(const ComputeCapability& cc) { (*this)(cc.major(), cc.minor()); }
    template <typename Enum>
    requires std::is_enum_v<Enum>
    void put(Enum e) { put(static_cast<std::uint32_t>(e)); }
    template <typename T> void put(const std::optional<T>& value)
    {
        put(value.has_value());
        if (value)
            put(*value);
    }
    template <typename T> void put(const std::vector<T>& items)
    {
        put(static_cast<std::uint32_t>(items.size()));
        for (const auto& item : items)
            put(item);
    }
    template <typename K, typename V> void put(const std::map<K, V>& items)
    {
        put(static_cast<std::uint32_t>(items.size()));
        for (const auto& [key, value] : items)
            (*this)(key, value);
    }
    // fields() names the members of a row without changing them.
    template <typename Row>
    requires Rows<Writer, Row>
    void put(const Row& row) { fields(*this, const_cast<Row&>(row)); }

    std::string m_bytes;
    std::map<const Source*, std::uint32_t> m_source_index;
    std::vector<const Source*> m_sources;
};

// A row for fields() to fill. A compute capability has no default, so the rows that hold
// one name every member (a member added to them warns here, as it must join fields()).
template <typename Row> Row blank()
{
    return Row {};
}
template <> ComputeCapability blank()
{
    return { 0, 0 };
}
template <> Architecture blank()
{
    return { { 0, 0 }, {}, {}, {}, {}, {}, {}, {} };
}
template <> TorchCompileGpuMinimum blank()
{
    return { {}, { 0, 0 }, {} };
}
template <> TensorflowGpuMinimum blank()
{
    return { {}, { 0, 0 }, {} };
}
template <> CudnnGpuFloor blank()
{
    return { {}, { 0, 0 }, {}, {} };
}
template <> JaxNativeCode blank()
{
    return { { 0, 0 }, {}, {} };
}
template <> Gpu blank()
{
    return { {}, {}, {}, { 0, 0 }, {}, {}, {}, {}, {}, {}, {} };
}

class Reader {
public:
    // Reads the source table at the head of `bytes`.
    explicit Reader(std::string_view bytes)
        : m_rest(bytes)
    {
        std::uint32_t size = 0;
        get(size);
        m_sources.reserve(size);
        for (std::uint32_t i = 0; i < size; ++i) {
            Source source;
            get(source);
            m_sources.push_back(std::make_shared<const Source>(std::move(source)));
        }
    }

    template <typename... Fields> void operator()(Fields&... values) { (get(values), ...); }

    bool done() const { return m_rest.empty(); }

private:
    std::string_view take(std::size_t size)
    {
        if (size > m_rest.size())
            throw Error(ErrorCode::io, "the built-in matrix image is truncated", "rebuild dlenv");
        std::string_view out = m_rest.substr(0, size);
        m_rest.remove_prefix(size);
        return out;
    }
    template <typename Number> void copy(Number& n) { std::memcpy(&n, take(sizeof n).data(), sizeof n); }

    void get(std::uint32_t& n) { copy(n); }
    void get(double& d) { copy(d); }
    void get(bool& b) { b = take(1)[0] != '\0'; }
    void get(std::string& text)
    {
        std::uint32_t size = 0;
        get(size);
        text = take(size);
    }
    template <typename Kind> void get(NumericVersion<Kind>& v) { v = NumericVersion<Kind>::parse(text()); }
    void get(Pep440Version& v) { v = Pep440Version::parse(text()); }
    void get(ComputeCapability& cc)
    {
        std::uint32_t major = 0, minor = 0;
        (*this)(major, minor);
        cc = { major, minor };
    }
    template <typename Enum>
    requires std::is_enum_v<Enum>
    void get(Enum& e)
    {
        std::uint32_t n = 0;
        get(n);
        e = static_cast<Enum>(n);
    }
    template <typename T> void get(std::optional<T>& value)
    {
        bool present = false;
        get(present);
        value.reset();
        if (present)
            get(value.emplace(blank<T>()));
    }
    template <typename T> void get(std::vector<T>& items)
    {
        std::uint32_t size = 0;
        get(size);
        items.clear();
        items.reserve(size);
        for (std::uint32_t i = 0; i < size; ++i)
            get(items.emplace_back(blank<T>()));
    }
    template <typename K, typename V> void get(std::map<K, V>& items)
    {
        std::uint32_t size = 0;
        get(size);
        items.clear();
        for (std::uint32_t i = 0; i < size; ++i) {
            K key;
            V value = blank<V>();
            (*this)(key, value);
            items.emplace(std::move(key), std::move(value));
        }
    }
    template <typename Row>
    requires Rows<Reader, Row>
    void get(Row& row) { fields(*this, row); }

    void get(SourceRef& source)
    {
        std::uint32_t index = 0;
        get(index);
        if (index >= m_sources.size())
            throw Error(ErrorCode::io, "the built-in matrix image cites a source it does not hold", "rebuild dlenv");
        source = m_sources[index];
    }

    std::string text()
    {
        std::string out;
        get(out);
        return out;
    }

    std::string_view m_rest;
    std::vector<SourceRef> m_sources;
};

} // namespace

std::string Matrix::image() const
{
    Writer writer;
    MatrixFields::visit(writer, *this);
    return std::move(writer).image();
}

Matrix Matrix::from_image(std::string_view image)
{
    Matrix m;
    Reader reader(image);
    MatrixFields::visit(reader, m);
    if (!reader.done())
        throw Error(ErrorCode::io, "the built-in matrix image has bytes past its end", "rebuild dlenv");
    return m;
}

} // namespace dlenv::matrix
