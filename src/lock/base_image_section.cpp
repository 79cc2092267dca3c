#include "lock/base_image_section.h"

#include "lock/section_json.h"

namespace dlenv::lock {
namespace {

const std::string k_python_variable = "PYTHON_VERSION";

nlohmann::json optional_digest(const std::optional<Digest>& digest)
{
    return digest ? nlohmann::json(digest->text()) : nlohmann::json(nullptr);
}

template <typename Version> nlohmann::json fact_json(const std::optional<resolve::BaseFact<Version>>& fact)
{
    if (!fact)
        return nullptr;
    return { { "version", fact->value.text() }, { "origin", fact->origin } };
}

template <typename Version>
std::optional<resolve::BaseFact<Version>> read_fact(const JsonReader& carries, std::string_view key)
{
    auto fact = carries.find(key);
    if (!fact)
        return std::nullopt;
    fact->allow_only({ "version", "origin" });
    return resolve::BaseFact<Version> { fact->at("version").as<Version>(), fact->at("origin").string() };
}

std::optional<resolve::BaseFact<PythonVersion>> python_of(const resolve::BaseDescription& base)
{
    std::string prefix = k_python_variable + "=";
    for (const auto& entry : base.env) {
        if (!entry.starts_with(prefix))
            continue;
        auto version = PythonVersion::try_parse(entry.substr(prefix.size()));
        if (!version)
            return std::nullopt;
        return resolve::BaseFact<PythonVersion> { *version, "env " + k_python_variable };
    }
    return std::nullopt;
}

} // namespace

BaseCarries read_base_carries(const JsonReader& carries)
{
    carries.allow_only({ "cuda", "cudnn", "nccl", "python" });
    return { read_fact<CudaVersion>(carries, "cuda"), read_fact<CudnnVersion>(carries, "cudnn"),
        read_fact<NcclVersion>(carries, "nccl"), read_fact<PythonVersion>(carries, "python") };
}

nlohmann::json to_json(const BaseCarries& carries)
{
    return { { "cuda", fact_json(carries.cuda) }, { "cudnn", fact_json(carries.cudnn) },
        { "nccl", fact_json(carries.nccl) }, { "python", fact_json(carries.python) } };
}

BaseCarries base_carries_of(const resolve::BaseDescription& base, const resolve::BaseContents& contents)
{
    return { contents.cuda, contents.cudnn, contents.nccl, python_of(base) };
}

BaseImageSection read_base_image_section(const JsonReader& base)
{
    base.allow_only({ "reference", "digest", "manifest", "platform", "carries" });
    auto carries = base.find("carries");
    return { base.at("reference").string(), base.optional_as<Digest>("digest"), base.optional_as<Digest>("manifest"),
        base.at("platform").string(), carries ? std::optional(read_base_carries(*carries)) : std::nullopt };
}

nlohmann::json to_json(const BaseImageSection& base)
{
    nlohmann::json json = { { "reference", base.reference }, { "digest", optional_digest(base.digest) },
        { "manifest", optional_digest(base.manifest) }, { "platform", base.platform } };
    if (base.carries)
        json["carries"] = to_json(*base.carries);
    return json;
}

} // namespace dlenv::lock
