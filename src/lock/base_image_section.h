#pragma once

#include "core/digest.h"
#include "core/version.h"
#include "resolve/base_contents.h"

#include <optional>
#include <string>

namespace dlenv::lock {

// What a pinned base carries by its own account, read from its config when it was
// pinned; each fact with what says it ("env CUDA_VERSION"), nullopt where nothing does.
struct BaseCarries {
    std::optional<resolve::BaseFact<CudaVersion>> cuda;
    std::optional<resolve::BaseFact<CudnnVersion>> cudnn;
    std::optional<resolve::BaseFact<NcclVersion>> nccl;
    std::optional<resolve::BaseFact<PythonVersion>> python; // env PYTHON_VERSION, as the official python images set it
};

// The CUDA, cuDNN and NCCL of `contents`, and the Python `base` names in its env
// PYTHON_VERSION; a value there that is no release version (3.13.0rc2) is left out, as
// nothing checks it yet.
BaseCarries base_carries_of(const resolve::BaseDescription& base, const resolve::BaseContents& contents);

// The base image, as the profile names it and, once pinned, as its registry served it.
struct BaseImageSection {
    std::string reference; // the profile's base_image: "nvidia/cuda:11.8.0-runtime-ubuntu22.04"
    std::optional<Digest> digest; // what the tag named when locked: an index or a manifest
    std::optional<Digest> manifest; // the image manifest for `platform`
    std::string platform; // "linux/amd64": the profile's first platform
    // What the pinned manifest's config says the base carries. nullopt, and no "carries"
    // field, when the base is not pinned, or was pinned by a dlenv that did not read it.
    std::optional<BaseCarries> carries;
};

} // namespace dlenv::lock
