#pragma once

#include "core/embedded_file.h"
#include "core/version.h"
#include "resolve/acceptance.h"
#include "resolve/query.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::resolve {

// A file the profile puts into the image, until packages come from an index.
struct ProfileFile {
    std::string source; // relative to the profile's directory
    std::string target; // absolute path in the image
    std::uint32_t mode = 0644; // permission bits
};

// A relocatable CPython (python-build-standalone's install_only archives) unpacked into
// the image when its base has no Python: a .tar.gz whose top directory holds bin/, lib/.
// The profile names the archive (`{"url": ..., "sha256": ...}`), or only the CPython
// minor (`"3.10"`, which must be the profile's python): then `standalone` is set, the URL
// and sha256 are empty, and the matrix's python_runtimes.json picks the build.
struct PythonRuntimeSource {
    std::string url;
    std::string sha256; // lowercase hex, as the publisher's SHA256SUMS states it
    std::optional<PythonVersion> standalone;
};

// Where the profile's Python packages come from and what they must run on. Indexes and
// assignments named here are merged over the lock's defaults (pypi, and the framework's
// own index for its CUDA variant).
struct PackageSettings {
    std::map<std::string, std::string> indexes; // index name -> simple-API URL
    std::map<std::string, std::string> index_of; // project, or "prefix-*", -> index name
    std::string machine = "x86_64";
    // The image's glibc. 2.28 is the oldest among the bases dlenv is for (UBI 8; Ubuntu
    // 20.04 has 2.31), so manylinux_2_28 wheels are admitted and newer ones are not.
    std::uint32_t glibc_major = 2;
    std::uint32_t glibc_minor = 28;
    std::optional<PythonRuntimeSource> python_runtime;
};

// The apt archive a profile's system packages come from, as a sources.list line names it:
// "deb URL SUITE... COMPONENT...". A snapshot (https://snapshot.debian.org/archive/debian/
// 20240101T000000Z) is an archive like any other.
struct SystemArchive {
    std::string url; // http(s):// or file://, without a trailing '/'
    std::vector<std::string> suites; // "bookworm", "bookworm-updates"
    std::vector<std::string> components; // "main"
};

// What a team wants, as profiles/NAME.json says it ("format": "dlenv.profile/v1").
// The fractions of a GPU's spec the gpu tier holds measured figures to when a profile's
// validation names none: memory bandwidth over the spec's, FP16/BF16 GEMM throughput over
// the dense tensor peak.
constexpr double k_default_bandwidth_min_fraction = 0.8;
constexpr double k_default_gemm_min_fraction = 0.6;

struct Profile {
    std::string name;
    std::string description;
    std::string file; // where it was read from, for messages
    std::string sha256; // of the file's bytes
    // With the pip extra that brings its CUDA ("and-cuda", "cuda12", "cuda12-local") where
    // the profile names one.
    FrameworkRequest framework;
    std::optional<CudaVersion> cuda; // the CUDA variant; frameworks with one tested CUDA may omit it
    // Frameworks installed beside `framework`, on the same CUDA major, each as `also` names
    // it: {"name": "jax", "version": "0.4.31", "extra": "cuda12"}: JAX and TensorFlow
    // (torch, with its companions, is always `framework`). Each is a framework once.
    std::vector<FrameworkRequest> also;
    PythonVersion python;
    std::vector<Framework> companions;
    std::vector<std::string> requirements; // further packages, PEP 508
    PackageSettings packages;
    std::vector<std::string> gpus; // target GPU models
    std::optional<DriverVersion> driver_floor; // the oldest driver in the fleet
    bool forward_compat = false;
    std::string base_image;
    // The platforms the image is built for, each as "os/architecture": the first is the
    // lock's own (its base manifest, packages and Python), the others are locked beside it.
    // Default linux/amd64 alone; `packages.machine` is the first platform's machine.
    std::vector<std::string> platforms = { "linux/amd64" };
    std::vector<ProfileFile> files;
    // Distribution packages (Debian's or Ubuntu's) added to the base, with their
    // dependencies; from `system_archive`, else the archive the base's os-release implies.
    std::vector<std::string> system_packages;
    std::optional<SystemArchive> system_archive;
    std::uint32_t source_date_epoch = 0; // every mtime and timestamp in the image
    std::vector<std::string> validation_tiers;
    double bandwidth_min_fraction = k_default_bandwidth_min_fraction;
    double gemm_min_fraction = k_default_gemm_min_fraction;
    std::optional<Acceptance> acceptance; // validation.acceptance: the acceptance tier's job and limits

    // Parses and validates; errors name `file`, the field and what is expected.
    static Profile parse(const std::string& file, const std::string& text);
};

// The wheel machine of a platform a profile may name: "linux/amd64" -> "x86_64",
// "linux/arm64" -> "aarch64"; nullopt for any other.
std::optional<std::string> platform_machine(std::string_view platform);

// The profiles shipped in profiles/, compiled in.
const std::vector<EmbeddedFile>& shipped_profile_files();
std::vector<Profile> shipped_profiles();

// A shipped profile's name, or a path to a profile file. Throws Error(not_found) naming
// the closest shipped names.
Profile load_profile(const std::string& name_or_path);

} // namespace dlenv::resolve
