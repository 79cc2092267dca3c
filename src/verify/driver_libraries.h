#pragma once

#include "verify/gpu_injection.h"

#include <string>
#include <vector>

namespace dlenv::verify {

// One line of `ldconfig -p`: "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1".
struct LdconfigEntry {
    std::string name;
    std::string flags; // "libc6,x86-64"
    std::string path;
};

// The entries of `ldconfig -p` output; lines of another shape (the header) are skipped.
std::vector<LdconfigEntry> parse_ldconfig(const std::string& output);

// The driver's compute and utility libraries among `entries` (libcuda, libcudadebugger,
// libnvidia-ml, libnvidia-ptxjitcompiler, libnvidia-nvvm, libnvidia-opencl, ...), 64-bit
// entries with a versioned name only, each once, as read-only binds into
// /usr/local/nvidia/lib64.
std::vector<BindMount> driver_library_binds(const std::vector<LdconfigEntry>& entries);

// The NVIDIA device nodes in `dev_dir` that compute needs: nvidiactl, nvidia-uvm,
// nvidia-uvm-tools and nvidiaN, in that order (N numerically), completed by `probe`.
std::vector<DeviceNode> driver_device_nodes(const std::filesystem::path& dev_dir, const DeviceProbe& probe);

} // namespace dlenv::verify
