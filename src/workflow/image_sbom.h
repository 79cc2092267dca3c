#pragma once

#include "oci/descriptor.h"
#include "sbom/subject.h"
#include "store/store.h"

#include <filesystem>
#include <string>

namespace dlenv::workflow {

// What the bill of materials of NAME:TAG in the store at `store_dir` is written from: the
// lock the image carries in /opt/dlenv (read from its layers, held to the manifest's
// dev.dlenv.lock.digest annotation) and the layers above its base (the base's manifest,
// kept in the store, says how many are the base's). Error(not_found) for an unknown name
// or tag, Error(invalid_input) for an image dlenv did not build or whose lock does not
// match its annotation.
sbom::Subject sbom_subject(const std::filesystem::path& store_dir, const std::string& name, const std::string& tag);
// The same, of a store already open (for reading or writing).
sbom::Subject sbom_subject(const store::Store& store, const std::string& name, const std::string& tag);
// The same, of one manifest of NAME (a platform's image of a multi-platform build), named
// `shown` in errors.
sbom::Subject sbom_subject(
    const store::Store& store, const std::string& name, const oci::Descriptor& image, const std::string& shown);

} // namespace dlenv::workflow
