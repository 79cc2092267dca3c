#pragma once

#include "lock/lockfile.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::verify {

// A shared library the image must hold, by the soname its users load.
struct PromisedLibrary {
    std::string soname; // "libcudart.so.12"
    std::string version; // the lock's version of what provides it: "12.1.1", "8.9.2.26"
    std::string promiser; // why it is promised: "base nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04"
};

struct PromisedPackage {
    std::string name; // as the lock spells it
    std::string version;
};

// What a lock promises about the image built from it, derived from the lock alone.
struct Promises {
    std::vector<PromisedLibrary> libraries;
    std::vector<lock::LockedFile> files;
    std::vector<PromisedPackage> packages;
    std::optional<std::string> cuda_version; // what /usr/local/cuda/version.json must say
    std::optional<std::string> framework; // the framework's import name, when a package pins it
    std::string framework_name; // the stack's framework, for skip reasons: "torch"
};

// Libraries: an nvidia/cuda base promises libcudart (every flavour), libcublas (runtime
// and devel) and libcudnn when its tag names cuDNN, each at the lock's versions, and
// the CUDA version in version.json. Packages pinned in "packages" ({"name", "version"})
// are promised with their versions; the framework is promised to import when one of
// them is the stack's framework. Pinned image files are promised byte for byte.
Promises promises_of(const lock::Lockfile& lock);

// The soname of a CUDA library for a toolkit version: libcudart is versioned by X.Y up
// to CUDA 11 ("libcudart.so.11.0", "libcudart.so.10.2") and by X from 12 on.
std::string cudart_soname(const std::string& cuda_version);

} // namespace dlenv::verify
