#pragma once

#include "core/embedded_file.h"
#include "core/version.h"
#include "resolve/query.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::resolve {

// A file the profile puts into the image, until packages come from an index.
struct ProfileFile {
    std::string source;        // relative to the profile's directory
    std::string target;        // absolute path in the image
    std::uint32_t mode = 0644; // permission bits
};

// What a team wants, as profiles/NAME.json says it ("format": "dlenv.profile/v1").
struct Profile {
    std::string name;
    std::string description;
    std::string file;   // where it was read from, for messages
    std::string sha256; // of the file's bytes
    FrameworkRequest framework;
    std::optional<CudaVersion> cuda; // the CUDA variant; frameworks with one tested CUDA may omit it
    PythonVersion python;
    std::vector<Framework> companions;
    std::vector<std::string> requirements; // further packages, PEP 508
    std::vector<std::string> gpus;         // target GPU models
    std::optional<DriverVersion> driver_floor; // the oldest driver in the fleet
    bool forward_compat = false;
    std::string base_image;
    std::vector<ProfileFile> files;
    std::uint32_t source_date_epoch = 0; // every mtime and timestamp in the image
    std::vector<std::string> validation_tiers;
    double bandwidth_min_fraction = 0.8;
    double gemm_min_fraction = 0.6;

    // Parses and validates; errors name `file`, the field and what is expected.
    static Profile parse(const std::string& file, const std::string& text);
};

// The profiles shipped in profiles/, compiled in.
const std::vector<EmbeddedFile>& shipped_profile_files();
std::vector<Profile> shipped_profiles();

// A shipped profile's name, or a path to a profile file. Throws Error(not_found) naming
// the closest shipped names.
Profile load_profile(const std::string& name_or_path);

} // namespace dlenv::resolve
