#include "resolve/profile.h"

#include "core/closest.h"
#include "core/error.h"
#include "core/file.h"
#include "core/image_name.h"
#include "core/json_reader.h"
#include "core/sha256.h"
#include "rootfs/file_mode.h"
#include "rootfs/path.h"

#include <algorithm>
#include <cstdio>

namespace dlenv::resolve {
namespace {

constexpr std::string_view k_format = "dlenv.profile/v1";
const std::vector<std::string> k_tiers = { "static", "gpu", "framework" };

Framework companion(const JsonReader& field)
{
    std::string name = field.string();
    if (name == "torchvision")
        return Framework::torchvision;
    if (name == "torchaudio")
        return Framework::torchaudio;
    field.fail("unknown companion '" + name + "'", "companions are torchvision and torchaudio");
}

// A framework object: {"name", "version", "extra"} and, for `framework`, "cuda".
FrameworkRequest framework_request(const JsonReader& field, bool with_cuda)
{
    if (with_cuda)
        field.allow_only({ "name", "version", "cuda", "extra" });
    else
        field.allow_only({ "name", "version", "extra" });
    std::string text = field.at("name").string() + "==" + field.at("version").string();
    FrameworkRequest request = [&] {
        try {
            return FrameworkRequest::parse(text);
        } catch (const Error& e) {
            field.fail(e.message(), e.hint());
        }
    }();
    if (request.is_pre_release())
        field.at("version").fail(
            "'" + request.version + "' is a pre-release", "pin a release: the matrices hold the facts of releases");
    if (is_companion(request.framework))
        field.at("name").fail("a companion cannot be the framework", "name torch and list it under companions");
    if (!request.extra.empty())
        field.at("name").fail("the extra goes in its own field",
            "write \"name\": \"" + std::string(to_string(request.framework)) + "\", \"extra\": \"" + request.extra
                + "\"");
    const std::string canonical(to_string(request.framework));
    if (field.at("name").string() != canonical) // the pip package the image installs
        field.at("name").fail("'" + field.at("name").string() + "' is read as " + canonical + " by check",
            "a profile names the pip package: write \"name\": \"" + canonical + "\"");
    request.extra = field.optional_string("extra").value_or("");
    return request;
}

std::vector<FrameworkRequest> also_frameworks(const JsonReader& list, const FrameworkRequest& first)
{
    std::vector<FrameworkRequest> out;
    for (const auto& item : list.items()) {
        FrameworkRequest choice = framework_request(item, false);
        std::string name(to_string(choice.framework));
        bool twice = choice.framework == first.framework;
        for (const auto& other : out)
            twice = twice || other.framework == choice.framework;
        if (twice)
            item.at("name").fail("one environment holds one " + name, "name each framework once");
        if (choice.framework == Framework::torch)
            item.at("name").fail("torch goes in framework, with its companions",
                "name torch as the framework and list " + std::string(to_string(first.framework)) + " under also");
        out.push_back(std::move(choice));
    }
    return out;
}

std::uint32_t file_mode(const JsonReader& field)
{
    std::string text = field.string();
    auto mode = rootfs::parse_file_mode(text);
    if (!mode)
        field.fail("expected an octal mode like \"0644\", got \"" + text + "\"");
    return *mode;
}

ProfileFile profile_file(const JsonReader& item)
{
    item.allow_only({ "source", "target", "mode" });
    ProfileFile file { item.at("source").string(), item.at("target").string(), 0644 };
    if (file.source.empty() || file.source.front() == '/')
        item.at("source").fail("expected a path relative to the profile's directory");
    if (std::string problem = rootfs::path_length_problem(file.source); !problem.empty())
        item.at("source").fail(problem);
    if (std::string problem = rootfs::image_target_problem(file.target); !problem.empty())
        item.at("target").fail(problem);
    if (auto mode = item.find("mode"))
        file.mode = file_mode(*mode);
    return file;
}

double fraction(const JsonReader& validation, std::string_view key, double fallback)
{
    auto field = validation.find(key);
    if (!field)
        return fallback;
    double value = field->number();
    if (value <= 0 || value > 1)
        field->fail("expected a fraction in (0, 1], got " + field->raw().dump());
    return value;
}

PythonRuntimeSource python_runtime(const JsonReader& field, const PythonVersion& python)
{
    if (field.raw().is_string()) {
        PythonVersion minor = field.as<PythonVersion>();
        if (minor.parts().size() != 2)
            field.fail("expected CPython's X.Y, like \"" + python.truncated(2).text() + "\"",
                "the matrix picks the newest python-build-standalone build of that minor");
        if (minor != python.truncated(2))
            field.fail("CPython " + minor.text() + " is not the profile's python " + python.text(),
                "set python_runtime to \"" + python.truncated(2).text() + "\", or python to \"" + minor.text() + "\"");
        return { "", "", minor };
    }
    field.allow_only({ "url", "sha256" });
    PythonRuntimeSource runtime { field.at("url").string(), field.at("sha256").string(), std::nullopt };
    if (!runtime.url.starts_with("https://") && !runtime.url.starts_with("http://")
        && !runtime.url.starts_with("file://"))
        field.at("url").fail("expected an https://, http:// or file:// URL");
    if (!runtime.url.ends_with(".tar.gz"))
        field.at("url").fail("expected a .tar.gz archive",
            "use python-build-standalone's install_only archive for the profile's Python");
    if (!is_sha256_hex(runtime.sha256))
        field.at("sha256").fail("expected 64 lowercase hexadecimal digits", "copy it from the release's SHA256SUMS");
    return runtime;
}

PackageSettings package_settings(const JsonReader& field, const PythonVersion& python)
{
    field.allow_only({ "indexes", "index_of", "machine", "glibc", "python_runtime" });
    PackageSettings settings;
    if (auto indexes = field.find("indexes")) {
        settings.indexes = indexes->string_map();
        for (const auto& [name, url] : settings.indexes)
            if (!url.starts_with("https://") && !url.starts_with("http://"))
                indexes->at(name).fail("expected the http(s) URL of a simple API, like https://pypi.org/simple/");
    }
    if (auto index_of = field.find("index_of"))
        settings.index_of = index_of->string_map();
    if (auto machine = field.find("machine")) {
        settings.machine = machine->string();
        if (settings.machine != "x86_64" && settings.machine != "aarch64")
            machine->fail("unknown machine '" + settings.machine + "'", "machines are x86_64 and aarch64");
    }
    if (auto glibc = field.find("glibc")) {
        std::string text = glibc->string();
        unsigned major = 0, minor = 0;
        char rest = 0;
        if (std::sscanf(text.c_str(), "%u.%u%c", &major, &minor, &rest) != 2)
            glibc->fail("expected MAJOR.MINOR like \"2.35\", got \"" + text + "\"",
                "use the glibc of the base image: `ldd --version` in it");
        settings.glibc_major = major;
        settings.glibc_minor = minor;
    }
    if (auto runtime = field.find("python_runtime"))
        settings.python_runtime = python_runtime(*runtime, python);
    return settings;
}

std::vector<std::string> non_empty_words(const JsonReader& field)
{
    std::vector<std::string> words = field.strings();
    if (words.empty())
        field.fail("expected at least one name");
    for (std::size_t i = 0; i < words.size(); ++i)
        if (words[i].empty() || words[i].find_first_of(" \t\n/") != std::string::npos)
            field.items()[i].fail("expected a name without spaces or '/', got \"" + words[i] + "\"");
    return words;
}

SystemArchive parse_system_archive(const JsonReader& field)
{
    field.allow_only({ "url", "suites", "components" });
    SystemArchive archive { field.at("url").string(), non_empty_words(field.at("suites")),
        non_empty_words(field.at("components")) };
    while (archive.url.ends_with('/'))
        archive.url.pop_back();
    if (!archive.url.starts_with("https://") && !archive.url.starts_with("http://")
        && !archive.url.starts_with("file://"))
        field.at("url").fail("expected the https://, http:// or file:// URL of an apt archive",
            "the URL of a sources.list line, like https://deb.debian.org/debian");
    return archive;
}

// The profile's platforms, each once; the first sets the packages' machine, which a
// `packages.machine` naming another contradicts.
std::vector<std::string> profile_platforms(
    const JsonReader& field, const std::optional<JsonReader>& packages, PackageSettings& settings)
{
    std::vector<std::string> platforms = field.strings();
    if (platforms.empty())
        field.fail("expected at least one platform", "name linux/amd64, linux/arm64 or both");
    for (std::size_t i = 0; i < platforms.size(); ++i) {
        if (!platform_machine(platforms[i]))
            field.items()[i].fail(
                "unknown platform '" + platforms[i] + "'", "platforms are linux/amd64 and linux/arm64");
        if (std::find(platforms.begin(), platforms.begin() + static_cast<std::ptrdiff_t>(i), platforms[i])
            != platforms.begin() + static_cast<std::ptrdiff_t>(i))
            field.items()[i].fail("'" + platforms[i] + "' is named twice");
    }
    std::string machine = *platform_machine(platforms.front());
    auto named = packages ? packages->find("machine") : std::nullopt;
    if (named && settings.machine != machine)
        named->fail("machine '" + settings.machine + "' is not that of the first platform, " + platforms.front(),
            "leave packages.machine out: each platform's machine follows from its name");
    settings.machine = machine;
    return platforms;
}

} // namespace

std::optional<std::string> platform_machine(std::string_view platform)
{
    if (platform == "linux/amd64")
        return "x86_64";
    if (platform == "linux/arm64")
        return "aarch64";
    return std::nullopt;
}

Profile Profile::parse(const std::string& file, const std::string& text)
{
    nlohmann::json json = JsonReader::parse_document(file, text);
    JsonReader doc(file, json);
    doc.allow_only({ "format", "name", "description", "framework", "also", "python", "companions", "requirements",
        "gpus", "driver_floor", "forward_compat", "base_image", "files", "source_date_epoch", "validation", "packages",
        "system_packages", "system_archive", "platforms" });
    if (std::string format = doc.at("format").string(); format != k_format)
        doc.at("format").fail("unknown format '" + format + "'", "this dlenv reads " + std::string(k_format));

    Profile p;
    p.file = file;
    p.sha256 = sha256_hex(text);
    p.name = doc.at("name").string();
    try {
        check_image_name(p.name);
    } catch (const Error& e) {
        doc.at("name").fail(e.message(), e.hint());
    }
    p.description = doc.optional_string("description").value_or("");

    auto framework = doc.at("framework");
    p.framework = framework_request(framework, true);
    p.cuda = framework.optional_as<CudaVersion>("cuda");
    if (auto list = doc.find("also"))
        p.also = also_frameworks(*list, p.framework);
    p.python = doc.at("python").as<PythonVersion>();

    if (auto list = doc.find("companions")) {
        for (const auto& item : list->items())
            p.companions.push_back(companion(item));
        if (!p.companions.empty() && p.framework.framework != Framework::torch)
            list->fail("companions go with torch only");
    }
    if (auto list = doc.find("requirements"))
        p.requirements = list->strings();
    if (auto packages = doc.find("packages"))
        p.packages = package_settings(*packages, p.python);
    if (auto list = doc.find("platforms"))
        p.platforms = profile_platforms(*list, doc.find("packages"), p.packages);
    if (auto list = doc.find("gpus"))
        p.gpus = list->strings();
    p.driver_floor = doc.optional_as<DriverVersion>("driver_floor");
    if (auto flag = doc.find("forward_compat"))
        p.forward_compat = flag->boolean();
    p.base_image = doc.at("base_image").string();
    if (auto list = doc.find("files"))
        for (const auto& item : list->items())
            p.files.push_back(profile_file(item));
    if (auto list = doc.find("system_packages"))
        p.system_packages = non_empty_words(*list);
    if (auto archive = doc.find("system_archive")) {
        if (p.system_packages.empty())
            archive->fail("names an archive but the profile has no system_packages");
        p.system_archive = parse_system_archive(*archive);
    }
    if (auto epoch = doc.find("source_date_epoch"))
        p.source_date_epoch = epoch->unsigned_integer();

    p.validation_tiers = k_tiers;
    if (auto validation = doc.find("validation")) {
        validation->allow_only({ "tiers", "bandwidth_min_fraction", "gemm_min_fraction", "acceptance" });
        if (auto tiers = validation->find("tiers")) {
            p.validation_tiers.clear();
            for (const auto& tier : tiers->items()) {
                if (std::find(k_tiers.begin(), k_tiers.end(), tier.string()) == k_tiers.end())
                    tier.fail("unknown tier '" + tier.string() + "'", "tiers are static, gpu and framework");
                p.validation_tiers.push_back(tier.string());
            }
        }
        p.bandwidth_min_fraction = fraction(*validation, "bandwidth_min_fraction", p.bandwidth_min_fraction);
        p.gemm_min_fraction = fraction(*validation, "gemm_min_fraction", p.gemm_min_fraction);
        if (auto acceptance = validation->find("acceptance"))
            p.acceptance = read_acceptance(*acceptance);
    }
    return p;
}

std::vector<Profile> shipped_profiles()
{
    std::vector<Profile> out;
    for (const auto& file : shipped_profile_files())
        out.push_back(Profile::parse("profiles/" + std::string(file.name), std::string(file.contents)));
    return out;
}

Profile load_profile(const std::string& name_or_path)
{
    if (std::filesystem::is_regular_file(name_or_path))
        return Profile::parse(name_or_path, read_file(name_or_path));
    std::vector<std::string> names;
    for (const auto& file : shipped_profile_files()) {
        std::string name(file.name.substr(0, file.name.size() - 5)); // drop ".json"
        if (name == name_or_path)
            return Profile::parse("profiles/" + std::string(file.name), std::string(file.contents));
        names.push_back(name);
    }
    auto near = closest_matches(name_or_path, names, 3);
    throw Error(ErrorCode::not_found, "no profile '" + name_or_path + "': neither a shipped profile nor a file",
        near.empty() ? "`dlenv profiles` lists the shipped ones" : "did you mean " + join_alternatives(near) + "?");
}

} // namespace dlenv::resolve
