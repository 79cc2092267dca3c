#pragma once

#include "verify/container_spec.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dlenv::verify {

// The OCI runtime config.json (runtime-spec 1.0.2, read by runc and crun) for `spec`
// with the root filesystem at `rootfs` (relative to the bundle or absolute). New pid,
// ipc, uts, mount and network namespaces; /proc, /dev (tmpfs with pts, shm, mqueue),
// /sys read-only and /tmp as tmpfs; no capabilities and no new privileges; the usual
// masked and read-only paths. No cgroup limits at all, so the same config works under
// cgroup v1, v2 and hybrid hosts; only passed-through devices are allowed in the devices
// cgroup, because runc denies device nodes the config does not name.
nlohmann::json runtime_config(const ContainerSpec& spec, const std::string& rootfs);

// The bwrap(1) arguments (without "bwrap" and with the command after "--") that give
// `spec` the same view of the system as runtime_config.
std::vector<std::string> bwrap_arguments(const ContainerSpec& spec, const std::string& rootfs);

} // namespace dlenv::verify
