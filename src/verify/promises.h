#pragma once

#include "core/finding.h"
#include "lock/lockfile.h"
#include "matrix/matrix.h"
#include "resolve/base_contents.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::verify {

// A shared library the image must hold, by the soname its users load.
struct PromisedLibrary {
    std::string soname; // "libcublas.so.12"
    std::optional<std::string> version; // its component's version: "12.1.3.1"; nullopt: the soname alone
    std::string promiser; // why it is promised: "base nvidia/cuda:12.1.1-runtime-ubuntu22.04 (CUDA cuBLAS, env
                          // NV_LIBCUBLAS_VERSION)"
};

struct PromisedPackage {
    std::string name; // as the lock spells it
    std::string version;
};

// What a lock promises about the image built from it, from the lock and what the image's
// base says it carries.
struct Promises {
    std::vector<PromisedLibrary> libraries;
    std::vector<lock::LockedFile> files;
    std::vector<PromisedPackage> packages;
    std::vector<Finding> base; // the framework on the base (resolve::check_framework_on_base)
    std::optional<std::string> framework; // the framework's import name, when a package pins it
    std::string framework_name; // the stack's framework, for skip reasons: "torch"
    // The frameworks beside it (stack.also) that a package pins, by import name: "jax";
    // each is imported like the framework.
    std::vector<std::string> also;
};

// Libraries: every library the base carries by its own account (resolve::base_contents_of),
// each at its component's version, and, when the lock's arch list relies on PTX JIT
// (stack.ptx), NVRTC and nvJitLink of the base's CUDA release. Packages pinned in
// "packages" ({"name", "version"}) are promised with their versions; the framework is
// promised to import when one of them is the stack's framework, and so is each framework
// beside it. Pinned image files are
// promised byte for byte.
Promises promises_of(const lock::Lockfile& lock, const resolve::BaseContents& base, const matrix::Matrix& matrix);

} // namespace dlenv::verify
