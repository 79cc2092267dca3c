#include "lock/lockfile.h"

#include "core/canonical_json.h"
#include "core/error.h"
#include "core/file.h"
#include "core/output_file.h"
#include "core/image_target.h"
#include "core/json_reader.h"
#include "core/regular_file.h"
#include "core/sha256.h"
#include "lock/package_plan.h"


namespace dlenv::lock {
namespace {

nlohmann::json cc_list(const std::vector<ComputeCapability>& list)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& cc : list)
        out.push_back(cc.text());
    return out;
}

template <typename T>
nlohmann::json optional_json(const std::optional<T>& value)
{
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json stack_json(const resolve::Stack& stack)
{
    nlohmann::json companions = nlohmann::json::array();
    for (const auto& c : stack.companions)
        companions.push_back({{"name", c.name}, {"version", c.version.str()}});
    nlohmann::json gpus = nlohmann::json::array();
    for (const auto& g : stack.gpus)
        gpus.push_back({{"name", g.name},
                        {"compute_capability", g.compute_capability.text()},
                        {"verdict", resolve::verdict_name(g.verdict)},
                        {"findings", g.codes}});
    return {
        {"framework",
         {{"name", stack.framework.name},
          {"version", stack.framework.version.public_str()},
          {"local_version", stack.framework.version.str()},
          {"variant", stack.variant}}},
        {"companions", companions},
        {"python", stack.python.text()},
        {"cuda", stack.cuda.text()},
        {"cudnn", optional_json(stack.cudnn)},
        {"nccl", optional_json(stack.nccl)},
        {"driver",
         {{"toolkit_min", stack.toolkit_driver.text()},
          {"minor_version_min", stack.minor_version_driver ? nlohmann::json(stack.minor_version_driver->text())
                                                           : nlohmann::json(nullptr)},
          {"forward_compat", stack.forward_compat}}},
        {"arch_list", cc_list(stack.arch_list)},
        {"ptx", cc_list(stack.ptx)},
        {"gpus", gpus},
        {"unconfirmed", stack.unconfirmed},
    };
}

// The directory every file of a profile must resolve inside, and how messages name it.
struct FilesRoot {
    std::filesystem::path path; // resolved
    std::string name;
};

FilesRoot files_root_of(const resolve::Profile& profile, const std::optional<std::filesystem::path>& files_root)
{
    std::filesystem::path dir = files_root ? *files_root : std::filesystem::absolute(profile.file).parent_path();
    std::error_code ec;
    std::filesystem::path resolved = std::filesystem::canonical(dir, ec);
    if (ec)
        throw Error(ErrorCode::invalid_input, "resolve " + dir.string() + ": " + ec.message());
    return { resolved, files_root ? "the --files-root" : "the profile's directory" };
}

nlohmann::json file_json(
    const resolve::Profile& profile, std::size_t i, const FilesRoot& root, const std::filesystem::path& lock_dir)
{
    const resolve::ProfileFile& file = profile.files[i];
    std::string field = profile.file + ": files[" + std::to_string(i) + "].source: ";
    std::filesystem::path source = std::filesystem::path(profile.file).parent_path() / file.source;
    std::filesystem::path resolved;
    try {
        resolved = resolve_regular_file(source);
    } catch (const Error& e) {
        throw Error(e.code(), field + e.message(), "the path is relative to the profile's directory");
    }
    if (!is_inside(resolved, root.path))
        throw Error(ErrorCode::invalid_input,
            field + file.source + " resolves to " + resolved.string() + ", outside " + root.name + " "
                + root.path.string(),
            "keep the image's files inside the profile's directory, or pass `dlenv lock --files-root DIR` "
            "to allow the files inside DIR");
    std::string bytes = read_file(resolved);
    std::filesystem::path relative =
        std::filesystem::absolute(source).lexically_relative(std::filesystem::absolute(lock_dir));
    return {{"source", relative.generic_string()},
            {"target", file.target},
            {"mode", file_mode_text(file.mode)},
            {"sha256", sha256_hex(bytes)},
            {"size", bytes.size()}};
}

nlohmann::json image_json(const resolve::Profile& profile, const std::optional<std::filesystem::path>& files_root,
    const std::filesystem::path& lock_dir)
{
    nlohmann::json files = nlohmann::json::array();
    if (!profile.files.empty()) {
        FilesRoot root = files_root_of(profile, files_root);
        for (std::size_t i = 0; i < profile.files.size(); ++i)
            files.push_back(file_json(profile, i, root, lock_dir));
    }
    return {{"source_date_epoch", profile.source_date_epoch}, {"files", files}};
}

nlohmann::json warnings_json(const resolve::Report& report)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : report.findings)
        if (f.severity == resolve::Severity::warning)
            out.push_back({{"code", f.code}, {"message", f.message}, {"source", f.source}});
    return out;
}

} // namespace

Lockfile::Lockfile(nlohmann::json json, std::string file)
    : m_json(std::move(json))
    , m_file(std::move(file))
    , m_stack(read_locked_stack(JsonReader(m_file, m_json).at("stack")))
{
}

std::string Lockfile::compute_digest(nlohmann::json json)
{
    json.erase("digest");
    return "sha256:" + sha256_hex(to_canonical_json(json));
}

Lockfile Lockfile::from_stack(const resolve::Profile& profile, const std::string& matrices_sha256,
                              const resolve::HostFacts& host, const resolve::Stack& stack,
                              const resolve::Report& report, const PackageSources& sources,
                              const std::filesystem::path& lock_path,
                              const std::optional<std::filesystem::path>& files_root)
{
    profile_requirements(profile); // refuses a malformed one now, not only once the closure is locked
    // absolute first: the parent of a bare "team.lock.json" is "", which has no absolute form
    std::filesystem::path lock_dir = std::filesystem::absolute(lock_path).parent_path();
    nlohmann::json json = {
        {"format", k_format},
        {"profile", {{"name", profile.name}, {"sha256", profile.sha256}}},
        {"matrices", {{"sha256", matrices_sha256}}},
        {"stack", stack_json(stack)},
        {"base_image",
         {{"reference", profile.base_image}, {"digest", nullptr}, {"manifest", nullptr}, {"platform", k_platform}}},
        {"image", image_json(profile, files_root, lock_dir)},
        {"requirements", profile.requirements},
        {"packages", nullptr},
        {"package_sources", to_json(sources)},
        {"python", to_json(lock::python_environment(profile, stack))},
        {"validation",
         {{"tiers", profile.validation_tiers},
          {"thresholds",
           {{"bandwidth_min_fraction", profile.bandwidth_min_fraction},
            {"gemm_min_fraction", profile.gemm_min_fraction}}}}},
        {"warnings", warnings_json(report)},
    };
    if (host.driver || !host.gpus.empty())
        json["host"] = {{"driver", host.driver ? nlohmann::json(host.driver->text()) : nlohmann::json(nullptr)},
                        {"gpus", host.gpus}};
    json["digest"] = compute_digest(json);
    return Lockfile(std::move(json), lock_path.string());
}

Lockfile Lockfile::parse(const std::string& file, const std::string& text)
{
    nlohmann::json json = JsonReader::parse_document(file, text);
    JsonReader doc(file, json);
    std::string format = doc.at("format").string();
    if (format != k_format)
        doc.at("format").fail("unknown format '" + format + "'",
                              "this dlenv reads " + std::string(k_format) + "; run `dlenv lock` again");
    std::string recorded = doc.at("digest").string();
    std::string actual = compute_digest(json);
    if (recorded != actual)
        doc.at("digest").fail("the lock does not match its digest (recorded " + recorded + ", content " + actual + ")",
                              "the file was edited by hand: run `dlenv lock` again instead");
    return Lockfile(std::move(json), file);
}

ImageSection Lockfile::image() const
{
    JsonReader doc(m_file, m_json);
    auto image = doc.find("image");
    if (!image)
        throw Error(ErrorCode::invalid_input, m_file + ": image: missing (an older dlenv wrote this lock)",
                    "run `dlenv lock` again");
    image->allow_only({"source_date_epoch", "files"});
    ImageSection section{image->at("source_date_epoch").non_negative_integer(), {}};
    for (const auto& item : image->at("files").items()) {
        item.allow_only({"source", "target", "mode", "sha256", "size"});
        LockedFile file{item.at("source").string(), item.at("target").string(), 0,
                        item.at("sha256").string(), item.at("size").non_negative_integer()};
        if (file.source.empty() || file.source.front() == '/')
            item.at("source").fail("expected a path relative to the lockfile's directory", "run `dlenv lock` again");
        if (std::string problem = path_length_problem(file.source); !problem.empty())
            item.at("source").fail(problem, "run `dlenv lock` again");
        if (std::string problem = image_target_problem(file.target); !problem.empty())
            item.at("target").fail(problem, "fix the profile's files and run `dlenv lock` again");
        auto mode = parse_file_mode(item.at("mode").string());
        if (!mode)
            item.at("mode").fail("expected an octal mode like \"0644\"", "run `dlenv lock` again");
        file.mode = *mode;
        if (!is_sha256_hex(file.sha256))
            item.at("sha256").fail("expected 64 lowercase hexadecimal digits", "run `dlenv lock` again");
        section.files.push_back(std::move(file));
    }
    return section;
}

std::string Lockfile::profile_name() const
{
    return JsonReader(m_file, m_json).at("profile").at("name").string();
}

std::string Lockfile::base_reference() const
{
    return JsonReader(m_file, m_json).at("base_image").at("reference").string();
}

std::optional<std::string> Lockfile::base_digest() const
{
    return JsonReader(m_file, m_json).at("base_image").optional_string("digest");
}

std::optional<std::string> Lockfile::base_manifest() const
{
    return JsonReader(m_file, m_json).at("base_image").optional_string("manifest");
}

std::string Lockfile::base_platform() const
{
    return JsonReader(m_file, m_json).at("base_image").at("platform").string();
}

void Lockfile::pin_base(const std::string& digest, const std::string& manifest)
{
    m_json["base_image"]["digest"] = digest;
    m_json["base_image"]["manifest"] = manifest;
    m_json["digest"] = compute_digest(m_json);
}

std::optional<std::vector<LockedPackage>> Lockfile::packages() const
{
    auto field = JsonReader(m_file, m_json).find("packages");
    if (!field)
        return std::nullopt;
    std::vector<LockedPackage> packages;
    for (const auto& item : field->items())
        packages.push_back(read_locked_package(item));
    return packages;
}

PackageSources Lockfile::package_sources() const
{
    return read_package_sources(JsonReader(m_file, m_json).at("package_sources"));
}

std::vector<std::string> Lockfile::validation_tiers() const
{
    return JsonReader(m_file, m_json).at("validation").at("tiers").strings();
}

PythonEnvironment Lockfile::python_environment() const
{
    return read_python_environment(JsonReader(m_file, m_json).at("python"));
}

void Lockfile::set_packages(const std::vector<LockedPackage>& packages)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& package : packages)
        list.push_back(to_json(package));
    m_json["packages"] = list;
    m_json["digest"] = compute_digest(m_json);
}

std::string Lockfile::text() const
{
    return to_canonical_json(m_json);
}

void Lockfile::write(const std::filesystem::path& path) const
{
    write_output_file(path, text());
}

} // namespace dlenv::lock
