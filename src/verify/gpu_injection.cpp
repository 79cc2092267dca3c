#include "verify/gpu_injection.h"

#include "core/error.h"
#include "core/subprocess.h"
#include "verify/cdi.h"
#include "verify/driver_libraries.h"
#include "verify/runtime.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace dlenv::verify {

std::optional<DeviceNode> probe_device(const std::string& host_path)
{
    struct stat info { };
    if (::stat(host_path.c_str(), &info) != 0 || !(S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)))
        return std::nullopt;
    return DeviceNode { host_path, host_path, S_ISCHR(info.st_mode) ? 'c' : 'b', major(info.st_rdev),
        minor(info.st_rdev), info.st_mode & 07777 };
}

GpuHost this_host()
{
    GpuHost host;
    host.ldconfig = [] {
        auto result = run_process({ "ldconfig", "-p" });
        return result && result->exit_code == 0 ? result->out : std::string();
    };
    host.nvidia_smi = find_on_path("nvidia-smi");
    return host;
}

GpuInjection plan_gpu_injection(const GpuHost& host)
{
    if (auto planned = plan_from_cdi_dirs(host.cdi_dirs, host.probe))
        return *planned;
    GpuInjection out;
    out.source = "ldconfig -p and " + host.dev_dir.string();
    out.devices = driver_device_nodes(host.dev_dir, host.probe);
    if (out.devices.empty() || out.devices.front().path != "/dev/nvidiactl")
        throw Error(ErrorCode::environment, "no NVIDIA device nodes in " + host.dev_dir.string() + " and no CDI spec",
            "install the NVIDIA driver, or generate a CDI spec: `nvidia-ctk cdi generate "
            "--output=/etc/cdi/nvidia.yaml`");
    out.binds = driver_library_binds(parse_ldconfig(host.ldconfig ? host.ldconfig() : std::string()));
    if (host.nvidia_smi)
        out.binds.push_back({ *host.nvidia_smi, "/usr/bin/nvidia-smi", true });
    return out;
}

void inject_gpus(ContainerSpec& spec, const GpuInjection& plan)
{
    spec.devices.insert(spec.devices.end(), plan.devices.begin(), plan.devices.end());
    spec.binds.insert(spec.binds.end(), plan.binds.begin(), plan.binds.end());
    spec.hooks.insert(spec.hooks.end(), plan.hooks.begin(), plan.hooks.end());
    for (const auto& entry : plan.env) {
        std::string key = entry.substr(0, entry.find('=') + 1);
        std::erase_if(spec.env, [&](const std::string& each) { return each.starts_with(key); });
        spec.env.push_back(entry);
    }
}

} // namespace dlenv::verify
