#pragma once

#include "sbom/subject.h"

#include <nlohmann/json.hpp>

#include <string>

namespace dlenv::sbom {

// The CycloneDX 1.5 JSON BOM (cyclonedx.org/docs/1.5/json) of `subject`: the image as the
// metadata's component, and as components what inventory.h lists (the base as a container,
// what it carries, the Python and system packages as libraries with their purl and
// SHA-256, the layers dlenv added as files); `dependencies` says what the image and its base
// hold. Its serialNumber is a name-based UUID of the image's name and digest and its
// timestamp the lock's source_date_epoch, so one image gives one BOM, byte for byte.
// `version` is dlenv's, for metadata.tools.
nlohmann::json cyclonedx_bom(const Subject& subject, const std::string& version);

} // namespace dlenv::sbom
