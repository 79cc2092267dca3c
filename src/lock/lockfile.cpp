#include "lock/lockfile.h"

#include "core/canonical_json.h"
#include "core/error.h"
#include "core/output_file.h"
#include "lock/package_plan.h"
#include "lock/section_json.h"

#include <set>

namespace dlenv::lock {
namespace {

const char* const k_lock_again = "run `dlenv lock` again";

// Every field but the digest, which is the sha256 of exactly these bytes.
nlohmann::json sections_json(const LockSections& sections)
{
    nlohmann::json json = {
        { "format", k_format },
        { "profile", to_json(sections.profile) },
        { "matrices", { { "sha256", sections.matrices_sha256 } } },
        { "stack", to_json(sections.stack) },
        { "base_image", to_json(sections.base_image) },
        { "image", to_json(sections.image) },
        { "requirements", sections.requirements },
        { "packages", packages_json(sections.packages) },
        { "package_sources", to_json(sections.package_sources) },
        { "python", to_json(sections.python) },
        { "validation", to_json(sections.validation) },
        { "warnings", to_json(sections.warnings) },
    };
    if (sections.host)
        json["host"] = to_json(*sections.host);
    if (sections.system_packages)
        json["system_packages"] = to_json(*sections.system_packages);
    if (!sections.other_platforms.empty()) {
        json["other_platforms"] = nlohmann::json::array();
        for (const auto& platform : sections.other_platforms)
            json["other_platforms"].push_back(to_json(platform));
    }
    return json;
}

std::string content_digest(nlohmann::json json)
{
    json.erase("digest");
    return Digest::of(to_canonical_json(json)).text();
}

LockSections read_sections(const JsonReader& doc)
{
    doc.allow_only(
        { "format", "digest", "profile", "matrices", "stack", "base_image", "image", "requirements", "packages",
            "package_sources", "python", "validation", "warnings", "host", "system_packages", "other_platforms" });
    LockedStack stack = read_locked_stack(doc.at("stack"));
    auto image = doc.find("image");
    if (!image)
        throw Error(
            ErrorCode::invalid_input, doc.file() + ": image: missing (an older dlenv wrote this lock)", k_lock_again);
    JsonReader matrices = doc.at("matrices");
    matrices.allow_only({ "sha256" });
    std::optional<std::vector<LockedPackage>> packages = read_locked_packages(doc.find("packages"));
    std::optional<LockedHost> host;
    if (auto field = doc.find("host"))
        host = read_locked_host(*field);
    std::optional<SystemPackagesSection> system_packages;
    if (auto field = doc.find("system_packages"))
        system_packages = read_system_packages(*field);
    std::vector<PlatformSection> platforms;
    if (auto field = doc.find("other_platforms"))
        for (const auto& item : field->items())
            platforms.push_back(read_platform_section(item));
    return { read_locked_profile(doc.at("profile")), matrices.at("sha256").string(), std::move(stack),
        read_base_image_section(doc.at("base_image")), read_image_section(*image), doc.at("requirements").strings(),
        std::move(packages), read_package_sources(doc.at("package_sources")), read_python_environment(doc.at("python")),
        read_validation(doc.at("validation")), read_locked_warnings(doc.at("warnings")), std::move(host),
        std::move(system_packages), std::move(platforms) };
}

// The lock is written from its sections, so a value they would write otherwise (an
// "sm_89" for "8.9", 1 for 1.0, a null host) would leave the written bytes at odds with
// the digest: such a lock is refused, naming the section, instead of rewritten.
void check_writes_back(const JsonReader& doc, const nlohmann::json& written)
{
    std::set<std::string> keys;
    for (const auto& [key, value] : doc.raw().items())
        keys.insert(key);
    for (const auto& [key, value] : written.items())
        keys.insert(key);
    keys.erase("digest");
    for (const auto& key : keys) {
        auto field = doc.raw().find(key);
        if (field == doc.raw().end())
            JsonReader(doc.file(), doc.raw(), key).fail("missing", k_lock_again);
        if (!written.contains(key) || to_canonical_json(*field) != to_canonical_json(written.at(key)))
            JsonReader(doc.file(), *field, key).fail("not written the way this dlenv writes it", k_lock_again);
    }
}

} // namespace

Lockfile::Lockfile(LockSections sections, std::string file)
    : m_whole(std::move(sections))
    , m_sections(m_whole)
    , m_file(std::move(file))
    , m_digest(Digest::of(to_canonical_json(sections_json(m_whole))))
{
}

void Lockfile::update()
{
    m_sections = m_whole;
    m_digest = Digest::of(to_canonical_json(sections_json(m_whole)));
}

Lockfile Lockfile::from_stack(const resolve::Profile& profile, const std::string& matrices_sha256,
    const HostFacts& host, const resolve::Stack& stack, const resolve::Report& report, const PackageSources& sources,
    const std::filesystem::path& lock_path, const std::optional<std::filesystem::path>& files_root)
{
    profile_requirements(profile); // refuses a malformed one now, not only once the closure is locked
    // absolute first: the parent of a bare "team.lock.json" is "", which has no absolute form
    std::filesystem::path lock_dir = std::filesystem::absolute(lock_path).parent_path();
    LockSections sections {
        { profile.name, profile.sha256 },
        matrices_sha256,
        locked_stack_of(stack),
        { profile.base_image, std::nullopt, std::nullopt, profile.platforms.front(), std::nullopt },
        image_section_of(profile, files_root, lock_dir),
        profile.requirements,
        std::nullopt,
        sources,
        python_environment(profile, stack),
        { profile.validation_tiers, { profile.bandwidth_min_fraction, profile.gemm_min_fraction }, profile.acceptance },
        locked_warnings(report.findings),
        locked_host(host),
        std::nullopt,
        {},
    };
    return Lockfile(std::move(sections), lock_path.string());
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
    std::string actual = content_digest(json);
    if (recorded != actual)
        doc.at("digest").fail("the lock does not match its digest (recorded " + recorded + ", content " + actual + ")",
            "the file was edited by hand: run `dlenv lock` again instead");
    Lockfile lock(read_sections(doc), file);
    if (lock.m_digest.text() != recorded)
        check_writes_back(doc, sections_json(lock.m_whole));
    return lock;
}

void Lockfile::pin_base(const Digest& digest, const Digest& manifest, const BaseCarries& carries)
{
    m_whole.base_image.digest = digest;
    m_whole.base_image.manifest = manifest;
    m_whole.base_image.carries = carries;
    update();
}

void Lockfile::add_warnings(const std::vector<Finding>& findings)
{
    std::vector<LockedWarning> warnings = locked_warnings(findings);
    m_whole.warnings.insert(m_whole.warnings.end(), warnings.begin(), warnings.end());
    update();
}

void Lockfile::set_packages(const std::vector<LockedPackage>& packages)
{
    m_whole.packages = packages;
    update();
}

void Lockfile::set_system_packages(const SystemPackagesSection& section)
{
    m_whole.system_packages = section;
    update();
}

void Lockfile::add_platform(PlatformSection section)
{
    m_whole.other_platforms.push_back(std::move(section));
    update();
}

PlatformSection& Lockfile::other_platform(const std::string& platform)
{
    for (auto& section : m_whole.other_platforms)
        if (section.platform == platform)
            return section;
    throw Error(ErrorCode::not_found, m_file + ": the lock has no platform " + platform);
}

void Lockfile::pin_platform_base(const std::string& platform, const Digest& manifest, const BaseCarries& carries)
{
    PlatformSection& section = other_platform(platform);
    section.manifest = manifest;
    section.carries = carries;
    update();
}

void Lockfile::set_platform_packages(const std::string& platform, const std::vector<LockedPackage>& packages)
{
    other_platform(platform).packages = packages;
    update();
}

std::vector<std::string> Lockfile::platforms() const
{
    std::vector<std::string> out = { m_whole.base_image.platform };
    for (const auto& section : m_whole.other_platforms)
        out.push_back(section.platform);
    return out;
}

Lockfile Lockfile::for_platform(const std::string& platform) const
{
    Lockfile view = *this;
    view.m_sections = m_whole;
    if (platform == m_whole.base_image.platform)
        return view;
    for (const auto& section : m_whole.other_platforms) {
        if (section.platform != platform)
            continue;
        view.m_sections.base_image.platform = section.platform;
        view.m_sections.base_image.manifest = section.manifest;
        view.m_sections.base_image.carries = section.carries;
        view.m_sections.python = section.python;
        view.m_sections.packages = section.packages;
        return view;
    }
    std::string have;
    for (const auto& name : platforms())
        have += (have.empty() ? "" : ", ") + name;
    throw Error(ErrorCode::not_found, m_file + ": the lock has no platform " + platform, "it pins " + have);
}

std::string Lockfile::text() const
{
    nlohmann::json json = sections_json(m_whole);
    json["digest"] = m_digest.text();
    return to_canonical_json(json);
}

void Lockfile::write(const std::filesystem::path& path) const
{
    write_output_file(path, text());
}

} // namespace dlenv::lock
