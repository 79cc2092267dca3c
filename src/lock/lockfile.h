#pragma once

#include "core/digest.h"
#include "core/finding.h"
#include "core/host_facts.h"
#include "lock/base_image_section.h"
#include "lock/image_section.h"
#include "lock/locked_stack.h"
#include "lock/packages.h"
#include "lock/platform_section.h"
#include "lock/provenance.h"
#include "lock/system_packages.h"
#include "lock/validation.h"
#include "resolve/profile.h"
#include "resolve/stack.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::lock {

constexpr std::string_view k_format = "dlenv.lock/v1";

// Every section of a lock but its digest, typed; each is read and written beside its type.
struct LockSections {
    LockedProfile profile;
    std::string matrices_sha256; // matrices.sha256: of the matrices the stack was resolved against
    LockedStack stack;
    BaseImageSection base_image;
    ImageSection image;
    std::vector<std::string> requirements; // the profile's, as it wrote them
    std::optional<std::vector<LockedPackage>> packages; // sorted by name; nullopt: not locked
    PackageSources package_sources;
    PythonEnvironment python;
    Validation validation;
    std::vector<LockedWarning> warnings;
    std::optional<LockedHost> host;
    std::optional<SystemPackagesSection> system_packages; // only when the profile names system packages
    // The profile's further platforms, in its order; written ("other_platforms") only when
    // there are any, so a lock of one platform keeps its bytes.
    std::vector<PlatformSection> other_platforms;
};

// A lockfile: everything a build reads, pinned, as canonical JSON
// ("format": "dlenv.lock/v1", keys sorted, two-space indent, trailing newline). Its
// "digest" is the sha256 of the canonical bytes of every other field, so an edited
// lock is caught. Read once, checked whole, and written from its typed sections: a lock
// read back writes the same bytes.
class Lockfile {
public:
    // Builds the lock of a resolved profile, to be written to `lock_path`: the profile's
    // files are pinned by sha256 and size, with paths relative to the lock's directory
    // (see image_section_of, whose errors come through); the packages come from
    // `sources` and are not locked yet (set_packages does that). Equal inputs give equal
    // bytes.
    static Lockfile from_stack(const resolve::Profile& profile, const std::string& matrices_sha256,
        const HostFacts& host, const resolve::Stack& stack, const resolve::Report& report,
        const PackageSources& sources, const std::filesystem::path& lock_path,
        const std::optional<std::filesystem::path>& files_root = std::nullopt);

    // Reads and verifies a lockfile: its format version and digest first, then every
    // section's fields and types, with no field left unread. Errors name the file and
    // field; a digest mismatch says to lock again.
    static Lockfile parse(const std::string& file, const std::string& text);

    const std::string& file() const { return m_file; } // where it was read from, for messages
    const LockedProfile& profile() const { return m_sections.profile; }
    const std::string& matrices_sha256() const { return m_sections.matrices_sha256; }
    const LockedStack& stack() const { return m_sections.stack; }
    const BaseImageSection& base_image() const { return m_sections.base_image; }
    const ImageSection& image() const { return m_sections.image; }
    const std::vector<std::string>& requirements() const { return m_sections.requirements; }
    // The Python closure, sorted by name; nullopt when it was not locked (--offline
    // without a wheelhouse).
    const std::optional<std::vector<LockedPackage>>& packages() const { return m_sections.packages; }
    const PackageSources& package_sources() const { return m_sections.package_sources; }
    const PythonEnvironment& python() const { return m_sections.python; }
    const Validation& validation() const { return m_sections.validation; }
    const std::vector<LockedWarning>& warnings() const { return m_sections.warnings; }
    const std::optional<LockedHost>& host() const { return m_sections.host; }
    // The distribution packages added to the base; nullopt when the profile names none,
    // or when they were not locked (--offline).
    const std::optional<SystemPackagesSection>& system_packages() const { return m_sections.system_packages; }
    const Digest& digest() const { return m_digest; }
    std::string text() const; // the canonical bytes

    // The platforms the lock pins: its own (base_image.platform) first, then the others.
    std::vector<std::string> platforms() const;
    const std::vector<PlatformSection>& other_platforms() const { return m_whole.other_platforms; }
    // The lock as a build for `platform` (one of platforms()) reads it: base_image's
    // platform, manifest and carries, python and packages are that platform's; file(),
    // text() and digest() stay the whole lock's, which the image carries and is labelled
    // with. Error(not_found) naming the lock's platforms for another.
    Lockfile for_platform(const std::string& platform) const;

    void write(const std::filesystem::path& path) const; // as an OutputFile: "-", a device or FIFO, or atomically

    // The mutators below are for the lock as built or read, not a view of another platform.
    // Pins the base image: `digest` is what its tag named when locked (an index or a
    // manifest), `manifest` the image manifest for the lock's platform, `carries` what
    // that manifest's config says the base holds. Recomputes the lock's digest.
    void pin_base(const Digest& digest, const Digest& manifest, const BaseCarries& carries);
    // Records the warnings among `findings`, of a check made once the lock was built (the
    // framework against the pinned base), after the resolution's. Recomputes the digest.
    void add_warnings(const std::vector<Finding>& findings);
    // Records the locked Python closure. Recomputes the lock's digest.
    void set_packages(const std::vector<LockedPackage>& packages);
    // Records the locked system packages. Recomputes the lock's digest.
    void set_system_packages(const SystemPackagesSection& section);
    // Adds a further platform, not pinned yet. Recomputes the lock's digest.
    void add_platform(PlatformSection section);
    // Pins the base manifest of a further platform and what its config says, and records
    // its closure. Error(not_found) for a platform the lock lacks. Recompute the digest.
    void pin_platform_base(const std::string& platform, const Digest& manifest, const BaseCarries& carries);
    void set_platform_packages(const std::string& platform, const std::vector<LockedPackage>& packages);

private:
    Lockfile(LockSections sections, std::string file);
    PlatformSection& other_platform(const std::string& platform);
    void update(); // m_sections and m_digest from m_whole, after a change

    // The mutators change m_whole, the lock's own view; m_sections is what the accessors
    // give, equal to it but for a view of another platform.
    LockSections m_whole;
    LockSections m_sections;
    std::string m_file;
    Digest m_digest;
};

} // namespace dlenv::lock
