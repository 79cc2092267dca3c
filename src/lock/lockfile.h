#pragma once

#include "lock/locked_stack.h"
#include "lock/packages.h"
#include "resolve/profile.h"
#include "resolve/stack.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace dlenv::lock {

constexpr std::string_view k_format = "dlenv.lock/v1";
// The platform whose image of a multi-platform base the lock pins.
constexpr std::string_view k_platform = "linux/amd64";

// A file the lock puts into the image.
struct LockedFile {
    std::string source;  // relative to the lockfile's directory
    std::string target;  // absolute path in the image
    std::uint32_t mode;  // permission bits
    std::string sha256;  // of the content, lowercase hex
    std::int64_t size;
};

// What the lock says about the image itself.
struct ImageSection {
    std::int64_t source_date_epoch; // every mtime and timestamp in the image
    std::vector<LockedFile> files;
};

// A lockfile: everything a build reads, pinned, as canonical JSON
// ("format": "dlenv.lock/v1", keys sorted, two-space indent, trailing newline). Its
// "digest" is the sha256 of the canonical bytes of every other field, so an edited
// lock is caught.
class Lockfile {
public:
    // Builds the lock of a resolved profile, to be written to `lock_path`: the profile's
    // files are pinned by sha256 and size, with paths relative to the lock's directory;
    // the packages come from `sources` and are not locked yet (set_packages does that).
    // Each file must be a regular file that resolves, symlinks followed, inside
    // `files_root` (by default the profile's directory), so a profile cannot put the
    // machine's other files into the image; Error(invalid_input) names the profile, the
    // field and the way out. Equal inputs give equal bytes.
    static Lockfile from_stack(const resolve::Profile& profile, const std::string& matrices_sha256,
                               const resolve::HostFacts& host, const resolve::Stack& stack,
                               const resolve::Report& report, const PackageSources& sources,
                               const std::filesystem::path& lock_path,
                               const std::optional<std::filesystem::path>& files_root = std::nullopt);

    // Reads and verifies a lockfile: format version, digest, the stack's fields. Errors
    // name the file and field; a digest mismatch says to lock again.
    static Lockfile parse(const std::string& file, const std::string& text);

    const nlohmann::json& json() const { return m_json; }
    const std::string& file() const { return m_file; } // where it was read from, for messages
    const LockedStack& stack() const { return m_stack; } // checked when the lock is read
    // The "image" section, checked: sources relative, targets absolute without ".", ".."
    // or control characters and outside /opt/dlenv, no path too long for Linux, octal
    // modes, sha256 digests. Errors name the file and field.
    ImageSection image() const;
    std::string profile_name() const;
    std::string base_reference() const;            // base_image.reference
    std::optional<std::string> base_digest() const; // base_image.digest, once pinned
    std::optional<std::string> base_manifest() const; // base_image.manifest: the platform's image
    std::string base_platform() const;                 // base_image.platform: "linux/amd64"
    // The Python closure, sorted by name; nullopt when it was not locked (--offline
    // without a wheelhouse). Errors name the file and field.
    std::optional<std::vector<LockedPackage>> packages() const;
    PackageSources package_sources() const;
    std::vector<std::string> validation_tiers() const; // validation.tiers
    PythonEnvironment python_environment() const;
    std::string digest() const { return m_json.at("digest").get<std::string>(); }
    std::string text() const; // the canonical bytes

    void write(const std::filesystem::path& path) const; // as an OutputFile: "-", a device or FIFO, or atomically

    // Pins the base image: `digest` is what its tag named when locked (an index or a
    // manifest), `manifest` the image manifest for the lock's platform. Recomputes the
    // lock's digest.
    void pin_base(const std::string& digest, const std::string& manifest);
    // Records the locked Python closure. Recomputes the lock's digest.
    void set_packages(const std::vector<LockedPackage>& packages);

private:
    Lockfile(nlohmann::json json, std::string file);
    static std::string compute_digest(nlohmann::json json);

    nlohmann::json m_json;
    std::string m_file;
    LockedStack m_stack;
};

} // namespace dlenv::lock
