#pragma once

#include "core/digest.h"
#include "lock/base_image_section.h"
#include "lock/packages.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::lock {

// A platform a lock pins beside its own (base_image.platform): what differs there. The
// base's tag, its reference and every other section are the lock's.
struct PlatformSection {
    std::string platform; // "linux/arm64"
    std::optional<Digest> manifest; // the base's image manifest for it, from the tag's index
    std::optional<BaseCarries> carries; // what that manifest's config says; as BaseImageSection::carries
    PythonEnvironment python; // its machine ("aarch64") and that machine's runtime
    std::optional<std::vector<LockedPackage>> packages; // the closure for its machine; nullopt: not locked
};

} // namespace dlenv::lock
