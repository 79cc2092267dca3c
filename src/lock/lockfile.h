#pragma once

#include "resolve/profile.h"
#include "resolve/stack.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace dlenv::lock {

constexpr std::string_view k_format = "dlenv.lock/v1";

// A lockfile: everything a build reads, pinned, as canonical JSON
// ("format": "dlenv.lock/v1", keys sorted, two-space indent, trailing newline). Its
// "digest" is the sha256 of the canonical bytes of every other field, so an edited
// lock is caught.
class Lockfile {
public:
    // Builds the lock of a resolved profile, to be written into `lock_dir`: the
    // profile's files are pinned by sha256 and size, with paths relative to `lock_dir`.
    // Equal inputs give equal bytes.
    static Lockfile from_stack(const resolve::Profile& profile, const std::string& matrices_sha256,
                               const resolve::HostFacts& host, const resolve::Stack& stack,
                               const resolve::Report& report, const std::filesystem::path& lock_dir);

    // Reads and verifies a lockfile: format version, digest. Errors name the file and
    // field; a digest mismatch says to lock again.
    static Lockfile parse(const std::string& file, const std::string& text);

    const nlohmann::json& json() const { return m_json; }
    std::string digest() const { return m_json.at("digest").get<std::string>(); }
    std::string text() const; // the canonical bytes

    void write(const std::filesystem::path& path) const; // atomically

private:
    explicit Lockfile(nlohmann::json json) : m_json(std::move(json)) {}
    static std::string compute_digest(nlohmann::json json);

    nlohmann::json m_json;
};

} // namespace dlenv::lock
