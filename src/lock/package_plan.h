#pragma once

#include "lock/packages.h"
#include "pypi/resolver.h"
#include "resolve/profile.h"
#include "resolve/stack.h"

namespace dlenv::lock {

// The indexes of a profile's packages: "pypi" (https://pypi.org/simple/) for every
// project, and for torch stacks "pytorch", the PyTorch index of the stack's variant
// (https://download.pytorch.org/whl/cu118/), for torch, torchvision, torchaudio, triton
// and nvidia-*; the profile's `packages.indexes` and `packages.index_of` are merged
// over these. An assignment to an index that is not there is Error(invalid_input)
// naming the profile's field.
PackageSources package_sources(const resolve::Profile& profile, const resolve::Stack& stack);

// The Python of the stack, for the profile's machine and glibc, installed under
// /usr/local (where a relocatable runtime is unpacked, and on PATH in every base), with
// the runtime the stack pins.
PythonEnvironment python_environment(const resolve::Profile& profile, const resolve::Stack& stack);

// The profile's requirements, parsed (PEP 508). Throws Error(invalid_input) naming the
// profile, the field ("requirements[0]") and what is wrong.
std::vector<pypi::Requirement> profile_requirements(const resolve::Profile& profile);

// What the closure must hold: the framework, its companions and the frameworks beside it
// pinned to the stack's builds, and the profile's requirements; nvidia-cudnn-cuXX and nvidia-nccl-cuXX
// constrained to the stack's cuDNN and NCCL wherever the closure reaches them.
pypi::ResolveRequest package_request(const resolve::Profile& profile, const resolve::Stack& stack);

} // namespace dlenv::lock
