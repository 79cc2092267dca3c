#include "resolve/base_contents.h"

#include "core/error.h"
#include "core/json_reader.h"

#include <algorithm>
#include <regex>

namespace dlenv::resolve {
namespace {

const std::string k_version_json = "/usr/local/cuda/version.json";

// NVIDIA's own names for what an image of theirs holds: [registry/]nvidia/cuda:VERSION[-cudnnN]-FLAVOUR-OS.
struct TagFacts {
    std::optional<CudaVersion> cuda;
    bool runtime = false; // runtime and devel hold cuda-libraries-X-Y
    std::optional<std::uint32_t> cudnn_major;
};

TagFacts read_tag(const std::string& reference)
{
    static const std::regex cuda_image(
        R"(^(?:[^/]+/)?nvidia/cuda:([0-9]+\.[0-9]+\.[0-9]+)-(?:cudnn([0-9]*)-)?(base|runtime|devel)-.*$)");
    std::smatch m;
    TagFacts facts;
    if (!std::regex_match(reference, m, cuda_image))
        return facts;
    facts.cuda = CudaVersion::parse(m[1].str());
    facts.runtime = m[3] != "base";
    if (m[2].matched)
        facts.cudnn_major = m[2].length() ? static_cast<std::uint32_t>(std::stoul(m[2].str())) : 9;
    return facts;
}

// A package version without its distribution revision or build tag: "11.11.3.6-1" and
// "2.15.5-1+cuda11.8" give "11.11.3.6" and "2.15.5".
std::string without_revision(const std::string& text)
{
    return text.substr(0, text.find_first_of("-+"));
}

template <typename Version> Version parse_as(const std::string& text, const std::string& origin)
{
    try {
        return Version::parse(text);
    } catch (const Error& e) {
        throw Error(ErrorCode::invalid_input, origin + ": " + e.message(), e.hint());
    }
}

class Reader {
public:
    Reader(const BaseDescription& base, const std::string& where)
        : m_base(base)
        , m_where(where)
    {
        for (const auto& entry : base.env)
            if (auto equals = entry.find('='); equals != std::string::npos)
                m_env[entry.substr(0, equals)] = entry.substr(equals + 1);
        if (base.version_json) {
            m_version_json = JsonReader::parse_document(k_version_json, *base.version_json);
            if (!m_version_json.is_object())
                JsonReader(k_version_json, m_version_json).fail("expected an object of components");
        }
    }

    // The value of an env variable, or of a label, without its package revision.
    std::optional<BaseFact<std::string>> env(const std::string& name) const
    {
        auto it = m_env.find(name);
        if (it == m_env.end() || it->second.empty())
            return std::nullopt;
        return BaseFact<std::string> { without_revision(it->second), "env " + name };
    }
    std::optional<BaseFact<std::string>> label(const std::string& name) const
    {
        auto it = m_base.labels.find(name);
        if (it == m_base.labels.end() || it->second.empty())
            return std::nullopt;
        return BaseFact<std::string> { without_revision(it->second), "label " + name };
    }
    // The version version.json gives a component ("cuda", "libcublas").
    std::optional<BaseFact<std::string>> version_json(const std::string& component) const
    {
        if (!m_version_json.is_object() || !m_version_json.contains(component))
            return std::nullopt;
        JsonReader reader(k_version_json, m_version_json);
        return BaseFact<std::string> { reader.at(component).at("version").string(), k_version_json };
    }

    template <typename Version>
    std::optional<BaseFact<Version>> typed(const std::optional<BaseFact<std::string>>& fact) const
    {
        if (!fact)
            return std::nullopt;
        return BaseFact<Version> { parse_as<Version>(fact->value, m_where + fact->origin), fact->origin };
    }

private:
    const BaseDescription& m_base;
    std::string m_where;
    std::map<std::string, std::string> m_env;
    nlohmann::json m_version_json;
};

template <typename Fact> std::optional<Fact> first_of(std::initializer_list<std::optional<Fact>> facts)
{
    for (const auto& fact : facts)
        if (fact)
            return fact;
    return std::nullopt;
}

// The env variables NVIDIA's Dockerfiles pin a component's package with.
std::optional<std::string> env_of_component(const std::string& component)
{
    static const std::map<std::string, std::string> names = {
        { "cuda_cudart", "NV_CUDA_CUDART_VERSION" },
        { "libcublas", "NV_LIBCUBLAS_VERSION" },
        { "libcusparse", "NV_LIBCUSPARSE_VERSION" },
        { "libnpp", "NV_LIBNPP_VERSION" },
    };
    auto it = names.find(component);
    return it == names.end() ? std::nullopt : std::optional(it->second);
}

void add_cuda_libraries(
    const Reader& read, const CudaVersion& cuda, bool runtime, const matrix::Matrix& matrix, BaseContents& contents)
{
    const matrix::CudaComponents* components = matrix.cuda_components(cuda);
    if (!components) {
        // A release the matrix has no components of: what the sonames alone say.
        auto cudart = first_of({ read.version_json("cuda_cudart"), read.env("NV_CUDA_CUDART_VERSION") });
        contents.libraries.push_back({ cudart_soname(cuda), "CUDA Runtime (cudart)", cudart });
        if (runtime)
            contents.libraries.push_back({ "libcublas.so." + std::to_string(cuda.major()), "CUDA cuBLAS",
                first_of({ read.version_json("libcublas"), read.env("NV_LIBCUBLAS_VERSION") }) });
        return;
    }
    std::string table = "cuda_components.json (CUDA " + components->cuda.text() + ")";
    for (const auto& library : components->libraries) {
        if (library.flavour == matrix::ImageFlavour::runtime && !runtime)
            continue;
        auto env = env_of_component(library.component);
        auto version = first_of({ read.version_json(library.component), env ? read.env(*env) : std::nullopt,
            std::optional(BaseFact<std::string> { library.version, table }) });
        for (const auto& file : library.files)
            contents.libraries.push_back({ file.soname, library.name, version });
    }
}

// The version a found library's file name carries, when it has a minor part:
// libcublas.so.13.1.0.3 gives 13.1.0.3; libcublas.so.13 (the soname's own) gives none.
std::optional<BaseFact<std::string>> file_version(const FoundLibrary& library)
{
    std::string version = library_file_version(library.file);
    if (version.find('.') == std::string::npos)
        return std::nullopt;
    return BaseFact<std::string> { version, "file " + library.file };
}

const FoundLibrary* found(const BaseDescription& base, const std::string& soname)
{
    for (const auto& library : base.found)
        if (library.soname == soname)
            return &library;
    return nullptr;
}

// The first of `sonames` found with a version in its file name.
std::optional<BaseFact<std::string>> found_version(const BaseDescription& base, const std::vector<std::string>& sonames)
{
    for (const auto& soname : sonames)
        if (const FoundLibrary* library = found(base, soname))
            if (auto version = file_version(*library))
                return version;
    return std::nullopt;
}

// The CUDA release libcudart's file names: the matrix's release whose cudart component
// has that version (13.0.96 is CUDA 13.0.2's), else its X.Y.
std::optional<BaseFact<CudaVersion>> found_cuda(const BaseDescription& base, const matrix::Matrix& matrix)
{
    for (const auto& release : matrix.cuda_components())
        for (const auto& library : release.libraries)
            if (library.component == "cuda_cudart")
                for (const auto& file : library.files)
                    if (const FoundLibrary* cudart = found(base, file.soname)) {
                        auto version = file_version(*cudart);
                        if (!version)
                            continue;
                        if (version->value == library.version)
                            return BaseFact<CudaVersion> { release.cuda, version->origin };
                        if (auto line = CudaVersion::try_parse(version->value))
                            return BaseFact<CudaVersion> { line->truncated(2), version->origin };
                    }
    return std::nullopt;
}

// Every component one of whose files is found, held whole: each of its files promised at
// the release's version of it, or at the version a found file of it names.
void add_found_cuda_libraries(const BaseDescription& base, const std::optional<BaseFact<CudaVersion>>& cuda,
    const matrix::Matrix& matrix, BaseContents& contents)
{
    const matrix::CudaComponents* release = cuda ? matrix.cuda_components(cuda->value) : nullptr;
    std::vector<std::string> held; // sonames already promised
    auto promise = [&](const matrix::CudaLibrary& library, std::optional<BaseFact<std::string>> version) {
        for (const auto& file : library.files)
            if (std::find(held.begin(), held.end(), file.soname) == held.end()) {
                held.push_back(file.soname);
                contents.libraries.push_back({ file.soname, library.name, version });
            }
    };
    std::vector<const matrix::CudaComponents*> releases;
    if (release)
        releases.push_back(release);
    for (const auto& other : matrix.cuda_components())
        releases.push_back(&other);
    for (const auto* table : releases)
        for (const auto& library : table->libraries) {
            std::vector<std::string> sonames;
            for (const auto& file : library.files)
                sonames.push_back(file.soname);
            bool any
                = std::any_of(sonames.begin(), sonames.end(), [&](const std::string& s) { return found(base, s); });
            if (!any)
                continue;
            std::optional<BaseFact<std::string>> version = table == release
                ? std::optional(BaseFact<std::string> { library.version,
                    "cuda_components.json (CUDA " + release->cuda.text() + ", which " + cuda->origin + " is)" })
                : found_version(base, sonames);
            promise(library, version);
        }
}

// cuDNN found in the image: its shim and the sub-libraries it dlopens, whole.
void add_found_cudnn(const BaseDescription& base, const matrix::Matrix& matrix, BaseContents& contents)
{
    for (const auto& cudnn : matrix.cudnn_libraries()) {
        std::vector<std::string> sonames { cudnn.shim };
        sonames.insert(sonames.end(), cudnn.loaded.begin(), cudnn.loaded.end());
        if (std::none_of(sonames.begin(), sonames.end(), [&](const std::string& s) { return found(base, s); }))
            continue;
        auto version = found_version(base, sonames);
        if (version)
            if (auto typed = CudnnVersion::try_parse(version->value))
                contents.cudnn = BaseFact<CudnnVersion> { *typed, version->origin };
        for (const auto& soname : sonames)
            contents.libraries.push_back({ soname, "cuDNN", version });
        return;
    }
}

void add_found_nccl(const BaseDescription& base, BaseContents& contents)
{
    const FoundLibrary* nccl = found(base, "libnccl.so.2");
    if (!nccl)
        return;
    auto version = file_version(*nccl);
    if (version)
        if (auto typed = NcclVersion::try_parse(version->value))
            contents.nccl = BaseFact<NcclVersion> { *typed, version->origin };
    contents.libraries.push_back({ nccl->soname, "NCCL", version });
}

} // namespace

BaseDescription describe_config(std::string reference, const nlohmann::json& config)
{
    BaseDescription base { std::move(reference), {}, {}, std::nullopt, {} };
    auto runtime = config.find("config");
    if (runtime == config.end() || !runtime->is_object())
        return base;
    if (auto env = runtime->find("Env"); env != runtime->end() && env->is_array())
        for (const auto& entry : *env)
            if (entry.is_string())
                base.env.push_back(entry.get<std::string>());
    if (auto labels = runtime->find("Labels"); labels != runtime->end() && labels->is_object())
        for (const auto& [key, value] : labels->items())
            if (value.is_string())
                base.labels[key] = value.get<std::string>();
    return base;
}

std::string library_file_version(std::string_view file)
{
    std::size_t so = file.find(".so.");
    return so == std::string_view::npos ? std::string() : std::string(file.substr(so + 4));
}

std::string cudart_soname(const CudaVersion& cuda)
{
    if (cuda.major() >= 12)
        return "libcudart.so." + std::to_string(cuda.major());
    if (cuda.major() == 11)
        return "libcudart.so.11.0";
    return "libcudart.so." + std::to_string(cuda.major()) + "." + std::to_string(cuda.minor());
}

BaseContents base_contents_of(const BaseDescription& base, const matrix::Matrix& matrix)
{
    Reader read(base, "base image " + base.reference + ": ");
    TagFacts tag = read_tag(base.reference);
    BaseContents contents;

    contents.cuda = read.typed<CudaVersion>(first_of({ read.version_json("cuda"), read.env("CUDA_VERSION") }));
    contents.cudnn
        = read.typed<CudnnVersion>(first_of({ read.env("NV_CUDNN_VERSION"), read.label("com.nvidia.cudnn.version") }));
    contents.nccl
        = read.typed<NcclVersion>(first_of({ read.env("NV_LIBNCCL_PACKAGE_VERSION"), read.env("NCCL_VERSION") }));
    if (!contents.cuda && !base.found.empty()) {
        // Nothing declares CUDA: what the image's files hold comes before what its name says.
        contents.cuda = found_cuda(base, matrix);
        add_found_cuda_libraries(base, contents.cuda, matrix, contents);
        add_found_cudnn(base, matrix, contents);
        add_found_nccl(base, contents);
        return contents;
    }
    if (!contents.cuda && tag.cuda)
        contents.cuda = BaseFact<CudaVersion> { *tag.cuda, "tag " + base.reference };
    if (!contents.cuda)
        return contents;

    bool runtime = tag.runtime || read.env("NV_CUDA_LIB_VERSION") || read.env("NV_LIBCUBLAS_VERSION");
    add_cuda_libraries(read, contents.cuda->value, runtime, matrix, contents);

    std::optional<std::uint32_t> cudnn_major
        = contents.cudnn ? std::optional(contents.cudnn->value.major()) : tag.cudnn_major;
    if (cudnn_major) {
        std::optional<BaseFact<std::string>> version;
        if (contents.cudnn)
            version = BaseFact<std::string> { contents.cudnn->value.text(), contents.cudnn->origin };
        if (const matrix::CudnnLibraries* cudnn = matrix.cudnn_libraries(*cudnn_major)) {
            contents.libraries.push_back({ cudnn->shim, "cuDNN", version });
            for (const auto& soname : cudnn->loaded)
                contents.libraries.push_back({ soname, "cuDNN", version });
        } else {
            contents.libraries.push_back({ "libcudnn.so." + std::to_string(*cudnn_major), "cuDNN", version });
        }
    } else {
        add_found_cudnn(base, matrix, contents);
    }
    if (contents.nccl)
        contents.libraries.push_back({ "libnccl.so." + std::to_string(contents.nccl->value.major()), "NCCL",
            BaseFact<std::string> { contents.nccl->value.text(), contents.nccl->origin } });
    else
        add_found_nccl(base, contents);
    return contents;
}

std::vector<std::string> cuda_library_sonames(const matrix::Matrix& matrix)
{
    std::vector<std::string> sonames;
    auto add = [&](const std::string& soname) {
        if (std::find(sonames.begin(), sonames.end(), soname) == sonames.end())
            sonames.push_back(soname);
    };
    for (const auto& release : matrix.cuda_components())
        for (const auto& library : release.libraries)
            for (const auto& file : library.files)
                add(file.soname);
    for (const auto& cudnn : matrix.cudnn_libraries()) {
        add(cudnn.shim);
        for (const auto& soname : cudnn.loaded)
            add(soname);
    }
    add("libnccl.so.2");
    return sonames;
}

} // namespace dlenv::resolve
