#pragma once

#include "core/version.h"
#include "matrix/matrix.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::resolve {

// A CUDA, cuDNN or NCCL library found in an image's library path.
struct FoundLibrary {
    std::string soname; // "libcublas.so.13"
    std::string file; // the file the soname resolves to: "libcublas.so.13.1.0.3", or the soname itself
};

// What a base image says of itself, and holds, as read from it.
struct BaseDescription {
    std::string reference; // as the lock names it: "nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04"
    std::vector<std::string> env; // its config's Env: "KEY=value"
    std::map<std::string, std::string> labels; // its config's Labels
    std::optional<std::string> version_json; // /usr/local/cuda/version.json, when it was read
    std::vector<FoundLibrary> found; // read from its files, where they were (verify); empty at build
};

// The Env and Labels of an image config ({"config": {"Env": [...], "Labels": {...}}});
// entries that are not strings are left out.
BaseDescription describe_config(std::string reference, const nlohmann::json& config);

// One fact about a base and what says so: "env CUDA_VERSION", "/usr/local/cuda/version.json",
// "label com.nvidia.cudnn.version", "tag nvidia/cuda:12.1.1-runtime-ubuntu22.04".
template <typename Value> struct BaseFact {
    Value value;
    std::string origin;
};

// A shared library the base holds by its own account, with the version of the component
// that provides it: cuBLAS 12.1.3.1 provides libcublas.so.12 in CUDA 12.1.1.
struct BaseLibrary {
    std::string soname; // "libcublas.so.12"
    std::string component; // "CUDA cuBLAS", "cuDNN", "NCCL"
    std::optional<BaseFact<std::string>> version; // nullopt when nothing says it
};

// What a base carries. NVIDIA's images say it in their config (CUDA_VERSION,
// NV_CUDA_CUDART_VERSION, NV_LIBCUBLAS_VERSION, NV_CUDNN_VERSION, NV_LIBNCCL_PACKAGE_VERSION,
// the com.nvidia.cudnn.version label) and in /usr/local/cuda/version.json, so a base
// re-tagged under another name is read the same; the tag of an nvidia/cuda reference is
// read only for what they, and the image's files, leave unsaid. Component versions they
// leave unsaid come from the matrix's components of the CUDA release (cuda_components.json).
// A base that says nothing (a team's own, CUDA copied in) is read from the libraries found
// in it: its CUDA release from libcudart's file version, and every component of which one
// file is found is held whole (cuBLAS with cuBLASLt, cuDNN's shim with the sub-libraries it
// dlopens).
// cuDNN and NCCL found in a base that declares CUDA but not them are read the same way.
struct BaseContents {
    std::optional<BaseFact<CudaVersion>> cuda;
    std::optional<BaseFact<CudnnVersion>> cudnn;
    std::optional<BaseFact<NcclVersion>> nccl;
    std::vector<BaseLibrary> libraries; // cudart first, then the runtime's, cuDNN's and NCCL's
};

// Reads `base`. Throws Error(invalid_input) naming the variable, label or file whose value
// is not a version, or a version.json that is not NVIDIA's shape.
BaseContents base_contents_of(const BaseDescription& base, const matrix::Matrix& matrix);

// Every soname `found` may hold: the files of every component of every CUDA release the
// matrix knows, cuDNN's shims and sub-libraries, NCCL's.
std::vector<std::string> cuda_library_sonames(const matrix::Matrix& matrix);

// The version a shared library's file name carries after ".so.": "libcudnn.so.8.9.2" gives
// "8.9.2", "libcublas.so.13" gives "13"; "" when the name has no ".so.".
std::string library_file_version(std::string_view file);

// The soname of libcudart for a toolkit version: versioned by X.Y up to CUDA 10
// ("libcudart.so.10.2"), "libcudart.so.11.0" for all of CUDA 11, and by X from 12 on.
std::string cudart_soname(const CudaVersion& cuda);

} // namespace dlenv::resolve
