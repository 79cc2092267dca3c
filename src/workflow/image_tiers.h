#pragma once

#include "core/digest.h"

#include <filesystem>
#include <string>
#include <vector>

namespace dlenv::workflow {

// What a fleet verifies of NAME:TAG in the store: its digest (of its index, for an image
// built for several platforms) and the tiers the lock it carries requires.
struct ImageTiers {
    Digest image;
    std::vector<std::string> tiers; // the lock's "validation": {"tiers": [...]}
};

// Error(not_found) for an unknown name or tag, Error(invalid_input) for an image dlenv
// did not build or whose lock does not match its annotation (built_image.h).
ImageTiers image_tiers(const std::filesystem::path& store_dir, const std::string& name, const std::string& tag);

} // namespace dlenv::workflow
