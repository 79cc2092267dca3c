#pragma once

#include "core/pep440.h"
#include "core/version.h"
#include "pypi/index.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::refresh {

// One CUDA build of a torch line as the wheel index lists it ("cu124").
struct PublishedTorchVariant {
    std::string tag;
    CudaVersion cuda; // from the tag: cu124 -> 12.4, cu102 -> 10.2
    // The Linux x86_64 wheel of the newest Python whose METADATA the index serves (PEP
    // 658), to read the nvidia-* pins from; none when no such wheel is listed.
    std::optional<pypi::DistributionFile> metadata_wheel;
    // Its nvidia-* pins ("nvidia-cudnn-cu12" -> "9.1.0.70") and the URL they were read
    // from, once read (see published.h); empty until then.
    std::map<std::string, std::string> pins;
    std::string pins_url;
};

// A torch release line ("2.6") as the wheel index lists it: its final releases, its CUDA
// variants, and the CPython versions of its Linux x86_64 wheels (free-threaded builds aside).
struct PublishedTorchLine {
    std::string line;
    std::vector<Pep440Version> versions; // public versions, oldest first
    std::map<std::string, PublishedTorchVariant> variants; // by tag
    std::vector<PythonVersion> pythons; // oldest first
};

// Reads every torch wheel name of `index` ("torch-2.6.0+cu124-cp312-cp312-linux_x86_64.whl":
// version x variant x Python x platform). Pre-releases, and builds that are not CUDA
// builds (+cpu, +rocm6.2, none), count for versions and Pythons but give no variant.
// Throws Error(invalid_input) naming the file for a name that is not a wheel's, and for
// an index past 200000 files.
std::vector<PublishedTorchLine> read_torch_index(pypi::Index& index);

// The release line of a version: 2.6.0 -> "2.6".
std::string release_line(const Pep440Version& version);

// The nvidia-* pins of a torch wheel's METADATA: "nvidia-cudnn-cu12" -> "9.1.0.70", for
// each Requires-Dist that pins a version with ==.
std::map<std::string, std::string> nvidia_pins(const pypi::Metadata& metadata);

} // namespace dlenv::refresh
