#pragma once

#include "lock/lockfile.h"
#include "verify/container_checks.h"
#include "verify/image.h"
#include "verify/report.h"

#include <optional>

namespace dlenv::verify {

// The static tier on an unpacked image, no GPU needed: the kit's lock is the one the
// image was built from; what that lock promises (see promises.h) is in the image, with
// the pinned bytes and versions, and every promised library's and the entrypoint's
// DT_NEEDED closure resolves inside it; in the container, the entrypoint's shell starts,
// reads the kit, and the framework imports on the CPU. `lock` is filled with the kit's
// lock when it parses.
TierReport run_static_tier(
    const StoredImage& image, const ContainerContext& context, std::optional<lock::Lockfile>& lock);

} // namespace dlenv::verify
