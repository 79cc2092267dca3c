#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dlenv::verify {

// A host path made visible in the container.
struct BindMount {
    std::string source; // on the host
    std::string destination; // in the container
    bool read_only = true;
};

// A device node passed through, with the numbers the runtime needs to create it and to
// allow it in the devices cgroup.
struct DeviceNode {
    std::string path; // in the container: /dev/nvidia0
    std::string host_path; // on the host; empty: the same as `path`
    char type = 'c'; // 'c' or 'b'
    std::uint32_t major = 0;
    std::uint32_t minor = 0;
    std::uint32_t file_mode = 0666;
};

// An OCI hook (a CDI spec's createContainer hooks, e.g. nvidia-cdi-hook update-ldcache).
struct Hook {
    std::string stage; // "createContainer", "startContainer", "poststart", ...
    std::string path;
    std::vector<std::string> args;
    std::vector<std::string> env;
};

// Everything a runtime needs to start one process in the unpacked image, whichever
// runtime runs it.
struct ContainerSpec {
    std::vector<std::string> args;
    std::vector<std::string> env; // "KEY=value"
    std::string cwd = "/";
    std::uint32_t uid = 0;
    std::uint32_t gid = 0;
    bool readonly_rootfs = true;
    // Set when dlenv runs without root: the container gets a user namespace that maps
    // its root to `host_uid`/`host_gid`.
    bool user_namespace = false;
    std::uint32_t host_uid = 0;
    std::uint32_t host_gid = 0;
    std::vector<BindMount> binds;
    std::uint32_t shm_kib = 65536; // the size of /dev/shm (runc and crun; bwrap's /dev has no limit of its own)
    std::vector<DeviceNode> devices;
    std::vector<Hook> hooks;
};

} // namespace dlenv::verify
