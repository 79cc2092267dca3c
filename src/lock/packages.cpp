#include "lock/packages.h"

#include "core/version.h"
#include "lock/section_json.h"

namespace dlenv::lock {
namespace {

const char* const k_hint = "run `dlenv lock` again";

} // namespace

nlohmann::json to_json(const LockedPackage& package)
{
    return { { "name", package.name }, { "version", package.version }, { "index", package.index },
        { "filename", package.filename }, { "url", package.url }, { "sha256", package.sha256 },
        { "size", package.size ? nlohmann::json(*package.size) : nlohmann::json(nullptr) },
        { "required_by", package.required_by } };
}

nlohmann::json to_json(const PackageSources& sources)
{
    return { { "indexes", sources.indexes }, { "index_of", sources.index_of },
        { "default_index", sources.default_index } };
}

nlohmann::json to_json(const PythonEnvironment& environment)
{
    nlohmann::json runtime = nullptr;
    if (environment.runtime) {
        runtime = { { "url", environment.runtime->url }, { "sha256", environment.runtime->sha256 } };
        // Only a build the matrix picked has them, so a lock of a named archive keeps its bytes.
        if (!environment.runtime->version.empty())
            runtime["version"] = environment.runtime->version;
        if (!environment.runtime->release.empty())
            runtime["release"] = environment.runtime->release;
    }
    return { { "version", environment.version }, { "machine", environment.machine }, { "glibc", environment.glibc },
        { "prefix", environment.prefix }, { "runtime", runtime } };
}

LockedPackage read_locked_package(const JsonReader& field)
{
    field.allow_only({ "name", "version", "index", "filename", "url", "sha256", "size", "required_by" });
    LockedPackage package { field.at("name").string(), field.at("version").string(), field.at("index").string(),
        field.at("filename").string(), field.at("url").string(), read_sha256_hex(field.at("sha256")), std::nullopt,
        field.at("required_by").strings() };
    if (auto size = field.find("size"))
        package.size = size->non_negative_integer();
    if (!package.filename.ends_with(".whl") || package.filename.find('/') != std::string::npos)
        field.at("filename").fail("expected a wheel's file name", k_hint);
    return package;
}

PackageSources read_package_sources(const JsonReader& field)
{
    field.allow_only({ "indexes", "index_of", "default_index" });
    PackageSources sources { field.at("indexes").string_map(), field.at("index_of").string_map(),
        field.at("default_index").string() };
    if (!sources.indexes.contains(sources.default_index))
        field.at("default_index").fail("names no index of `indexes`", k_hint);
    for (const auto& [project, index] : sources.index_of)
        if (!sources.indexes.contains(index))
            field.at("index_of").at(project).fail("names no index of `indexes`", k_hint);
    return sources;
}

PythonEnvironment read_python_environment(const JsonReader& field)
{
    field.allow_only({ "version", "machine", "glibc", "prefix", "runtime" });
    PythonEnvironment environment { field.at("version").string(), field.at("machine").string(),
        field.at("glibc").string(), field.at("prefix").string(), std::nullopt };
    if (!environment.prefix.starts_with('/'))
        field.at("prefix").fail("expected an absolute path in the image", k_hint);
    if (auto runtime = field.find("runtime")) {
        runtime->allow_only({ "url", "sha256", "version", "release" });
        environment.runtime = PythonRuntime { runtime->at("url").string(), read_sha256_hex(runtime->at("sha256")),
            runtime->optional_string("version").value_or(""), runtime->optional_string("release").value_or("") };
        if (auto version = runtime->find("version")) {
            PythonVersion full = version->as<PythonVersion>();
            if (full.truncated(2).text() != environment.version)
                version->fail("CPython " + full.text() + " is not the lock's python " + environment.version, k_hint);
        }
    }
    return environment;
}

nlohmann::json packages_json(const std::optional<std::vector<LockedPackage>>& packages)
{
    if (!packages)
        return nullptr;
    nlohmann::json list = nlohmann::json::array();
    for (const auto& package : *packages)
        list.push_back(to_json(package));
    return list;
}

std::optional<std::vector<LockedPackage>> read_locked_packages(const std::optional<JsonReader>& field)
{
    if (!field)
        return std::nullopt;
    std::vector<LockedPackage> packages;
    for (const auto& item : field->items())
        packages.push_back(read_locked_package(item));
    return packages;
}

} // namespace dlenv::lock
