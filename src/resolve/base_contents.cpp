#include "resolve/base_contents.h"

#include "core/error.h"
#include "core/json_reader.h"

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

} // namespace

BaseDescription describe_config(std::string reference, const nlohmann::json& config)
{
    BaseDescription base { std::move(reference), {}, {}, std::nullopt };
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
    std::string tag_origin = "tag " + base.reference;

    contents.cuda = read.typed<CudaVersion>(first_of({ read.version_json("cuda"), read.env("CUDA_VERSION") }));
    if (!contents.cuda && tag.cuda)
        contents.cuda = BaseFact<CudaVersion> { *tag.cuda, tag_origin };
    contents.cudnn
        = read.typed<CudnnVersion>(first_of({ read.env("NV_CUDNN_VERSION"), read.label("com.nvidia.cudnn.version") }));
    contents.nccl
        = read.typed<NcclVersion>(first_of({ read.env("NV_LIBNCCL_PACKAGE_VERSION"), read.env("NCCL_VERSION") }));
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
    }
    if (contents.nccl)
        contents.libraries.push_back({ "libnccl.so." + std::to_string(contents.nccl->value.major()), "NCCL",
            BaseFact<std::string> { contents.nccl->value.text(), contents.nccl->origin } });
    return contents;
}

} // namespace dlenv::resolve
