#include "verify/runtime_config.h"

namespace dlenv::verify {
namespace {

const std::vector<std::string> k_masked_paths = {
    "/proc/acpi",
    "/proc/asound",
    "/proc/kcore",
    "/proc/keys",
    "/proc/latency_stats",
    "/proc/timer_list",
    "/proc/timer_stats",
    "/proc/sched_debug",
    "/proc/scsi",
    "/sys/firmware",
};
const std::vector<std::string> k_readonly_paths = {
    "/proc/bus",
    "/proc/fs",
    "/proc/irq",
    "/proc/sys",
    "/proc/sysrq-trigger",
};

nlohmann::json mount(const std::string& destination, const std::string& type, const std::string& source,
    std::vector<std::string> options)
{
    return { { "destination", destination }, { "type", type }, { "source", source },
        { "options", std::move(options) } };
}

nlohmann::json mounts(const ContainerSpec& spec)
{
    nlohmann::json out = nlohmann::json::array({
        mount("/proc", "proc", "proc", { "nosuid", "noexec", "nodev" }),
        mount("/dev", "tmpfs", "tmpfs", { "nosuid", "strictatime", "mode=755", "size=65536k" }),
        mount("/dev/pts", "devpts", "devpts", { "nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620" }),
        mount("/dev/shm", "tmpfs", "shm",
            { "nosuid", "noexec", "nodev", "mode=1777", "size=" + std::to_string(spec.shm_kib) + "k" }),
        mount("/dev/mqueue", "mqueue", "mqueue", { "nosuid", "noexec", "nodev" }),
        // A user namespace may not mount sysfs; a read-only bind shows the same files.
        spec.user_namespace ? mount("/sys", "none", "/sys", { "rbind", "nosuid", "noexec", "nodev", "ro" })
                            : mount("/sys", "sysfs", "sysfs", { "nosuid", "noexec", "nodev", "ro" }),
        mount("/tmp", "tmpfs", "tmpfs", { "nosuid", "nodev", "mode=1777" }),
    });
    for (const auto& bind : spec.binds) {
        std::vector<std::string> options = { "rbind", "nosuid" };
        if (bind.read_only)
            options.push_back("ro");
        out.push_back(mount(bind.destination, "none", bind.source, options));
    }
    return out;
}

nlohmann::json linux_section(const ContainerSpec& spec)
{
    nlohmann::json namespaces = nlohmann::json::array();
    for (const char* type : { "pid", "ipc", "uts", "mount", "network" })
        namespaces.push_back({ { "type", type } });
    nlohmann::json out
        = { { "namespaces", namespaces }, { "maskedPaths", k_masked_paths }, { "readonlyPaths", k_readonly_paths } };
    if (spec.user_namespace) {
        out["namespaces"].push_back({ { "type", "user" } });
        out["uidMappings"]
            = nlohmann::json::array({ { { "containerID", 0 }, { "hostID", spec.host_uid }, { "size", 1 } } });
        out["gidMappings"]
            = nlohmann::json::array({ { { "containerID", 0 }, { "hostID", spec.host_gid }, { "size", 1 } } });
    }
    if (!spec.devices.empty()) {
        nlohmann::json devices = nlohmann::json::array();
        nlohmann::json allowed = nlohmann::json::array();
        for (const auto& device : spec.devices) {
            std::string type(1, device.type);
            devices.push_back({ { "path", device.path }, { "type", type }, { "major", device.major },
                { "minor", device.minor }, { "fileMode", device.file_mode }, { "uid", 0 }, { "gid", 0 } });
            allowed.push_back({ { "allow", true }, { "type", type }, { "major", device.major },
                { "minor", device.minor }, { "access", "rwm" } });
        }
        out["devices"] = devices;
        out["resources"] = { { "devices", allowed } };
    }
    return out;
}

nlohmann::json hooks(const ContainerSpec& spec)
{
    nlohmann::json out = nlohmann::json::object();
    for (const auto& hook : spec.hooks) {
        nlohmann::json entry = { { "path", hook.path }, { "args", hook.args } };
        if (!hook.env.empty())
            entry["env"] = hook.env;
        out[hook.stage].push_back(entry);
    }
    return out;
}

} // namespace

nlohmann::json runtime_config(const ContainerSpec& spec, const std::string& rootfs)
{
    nlohmann::json config = {
        { "ociVersion", "1.0.2" },
        { "root", { { "path", rootfs }, { "readonly", spec.readonly_rootfs } } },
        { "hostname", "dlenv-verify" },
        { "process",
            { { "terminal", false }, { "user", { { "uid", spec.uid }, { "gid", spec.gid } } }, { "args", spec.args },
                { "env", spec.env }, { "cwd", spec.cwd }, { "noNewPrivileges", true } } },
        { "mounts", mounts(spec) },
        { "linux", linux_section(spec) },
    };
    if (!spec.hooks.empty())
        config["hooks"] = hooks(spec);
    return config;
}

std::vector<std::string> bwrap_arguments(const ContainerSpec& spec, const std::string& rootfs)
{
    std::vector<std::string> out
        = { spec.readonly_rootfs ? "--ro-bind" : "--bind", rootfs, "/", "--proc", "/proc", "--dev", "/dev", "--ro-bind",
              "/sys", "/sys", "--tmpfs", "/tmp", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net",
              "--hostname", "dlenv-verify", "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--clearenv" };
    // bwrap changes user only inside a user namespace.
    if (spec.user_namespace || spec.uid != 0 || spec.gid != 0)
        out.insert(
            out.end(), { "--unshare-user", "--uid", std::to_string(spec.uid), "--gid", std::to_string(spec.gid) });
    for (const auto& device : spec.devices)
        out.insert(out.end(), { "--dev-bind", device.host_path.empty() ? device.path : device.host_path, device.path });
    for (const auto& bind : spec.binds)
        out.insert(out.end(), { bind.read_only ? "--ro-bind" : "--bind", bind.source, bind.destination });
    for (const auto& entry : spec.env) {
        std::size_t equals = entry.find('=');
        out.insert(out.end(),
            { "--setenv", entry.substr(0, equals),
                equals == std::string::npos ? std::string() : entry.substr(equals + 1) });
    }
    out.insert(out.end(), { "--chdir", spec.cwd, "--" });
    out.insert(out.end(), spec.args.begin(), spec.args.end());
    return out;
}

} // namespace dlenv::verify
