#pragma once

#include "verify/container_spec.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::verify {

// What a container needs to use the host's NVIDIA GPUs, as the NVIDIA container toolkit
// would give it.
struct GpuInjection {
    std::string source; // where the plan came from: "CDI spec /etc/cdi/nvidia.json", "ldconfig -p"
    std::vector<DeviceNode> devices;
    std::vector<BindMount> binds; // driver libraries and tools, read-only
    std::vector<Hook> hooks;
    std::vector<std::string> env; // "KEY=value" the spec sets
};

// The numbers of a device node on the host; nullopt when `host_path` is no device.
using DeviceProbe = std::function<std::optional<DeviceNode>(const std::string& host_path)>;
std::optional<DeviceNode> probe_device(const std::string& host_path);

// Where the planning looks; every path and program is injectable so the planning is
// tested without a GPU.
struct GpuHost {
    std::vector<std::filesystem::path> cdi_dirs = { "/etc/cdi", "/var/run/cdi" };
    std::filesystem::path dev_dir = "/dev";
    std::function<std::string()> ldconfig; // the output of `ldconfig -p`
    std::optional<std::string> nvidia_smi; // host path of nvidia-smi, if any
    DeviceProbe probe = probe_device;
};

// The host as it is: the CDI directories, /dev, `ldconfig -p`, nvidia-smi from PATH.
GpuHost this_host();

// A CDI spec of kind nvidia.com/gpu (JSON; the first in file-name order) when one exists;
// else the driver's device nodes (nvidiactl, nvidia-uvm, nvidia-uvm-tools, nvidiaN) and
// its compute libraries from `ldconfig -p`, bound read-only under /usr/local/nvidia/lib64
// (on the LD_LIBRARY_PATH of every dlenv image), and nvidia-smi. Error(environment)
// when neither finds a GPU device node; Error(invalid_input) for a damaged CDI spec.
GpuInjection plan_gpu_injection(const GpuHost& host);

// Gives `spec` the GPUs of `plan`: its device nodes (created and allowed in the devices
// cgroup by runc and crun, --dev-bind under bwrap), its binds (read-only as planned)
// after the spec's own, its hooks, and its environment over the image's (a key the plan
// sets replaces the image's value).
void inject_gpus(ContainerSpec& spec, const GpuInjection& plan);

} // namespace dlenv::verify
