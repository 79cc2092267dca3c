#pragma once

#include "sbom/subject.h"

#include <nlohmann/json.hpp>

#include <string>

namespace dlenv::sbom {

// The SPDX 2.3 document (spdx.github.io/spdx-spec/v2.3) of `subject`: the image, the base
// it descends from by digest (a pkg:oci purl), what the base carries by the lock's account
// (CUDA, cuDNN, NCCL), every pinned Python package (pkg:pypi, its sha256) and system package
// (pkg:deb, its sha256), and the layers dlenv added (see inventory.h), each one a package
// the image (or its base) holds. Its name and namespace follow from the image's name and
// digest, and its creation time is the lock's source_date_epoch, so one image gives one
// document, byte for byte, under every tag and on every machine. `version` is dlenv's, for
// creationInfo's creator ("Tool: dlenv-0.1.0").
nlohmann::json spdx_document(const Subject& subject, const std::string& version);

} // namespace dlenv::sbom
