#pragma once

#include "lock/lockfile.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::lock {

// One field whose value differs between two locks: its name as people read it ("CUDA",
// "arch list", a GPU's name) and its text in each; nullopt where that lock has none.
struct FieldChange {
    std::string field;
    std::optional<std::string> before;
    std::optional<std::string> after;
};

// A package as one lock pins it: the version and the sha256 of what it pins.
struct PinnedVersion {
    std::string version;
    std::string sha256;
};

enum class PackageChangeKind { added, removed, version, sha256 };

// A package that differs: added (no `before`), removed (no `after`), a version change, or
// the same version pinned to other bytes.
struct PackageChange {
    std::string name;
    std::optional<PinnedVersion> before;
    std::optional<PinnedVersion> after;

    PackageChangeKind kind() const;
};

// What changed from one lock to another, section by section, in the order each lock holds
// them; a section that did not change is empty.
struct LockDiff {
    std::vector<FieldChange> stack; // framework, companions, CUDA, cuDNN, NCCL, Python, arch list, PTX
    std::vector<FieldChange> base_image; // reference, digest, manifest, platform, what it carries
    std::vector<PackageChange> packages; // the Python closure, by name
    std::vector<PackageChange> system_packages; // the distribution packages, by name
    std::vector<FieldChange> files; // the files pinned into the image, by target: "<sha256 prefix> mode 0755"
    std::vector<FieldChange> driver; // the driver floors
    std::vector<FieldChange> gpus; // each GPU's verdict, by name

    bool empty() const;
    std::size_t size() const; // the number of changes in every section
};

std::string_view package_change_name(PackageChangeKind kind); // "added", "removed", "version", "sha256"

// What changed from `before` to `after`. Locks without packages count as locking none.
LockDiff diff_locks(const Lockfile& before, const Lockfile& after);

} // namespace dlenv::lock
