#include "verify/driver_libraries.h"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

namespace dlenv::verify {
namespace {

// The driver's user-space libraries for the compute and utility capabilities, as the
// NVIDIA container toolkit lists them. Graphics and video libraries are left out: the
// checks run CUDA only.
const std::vector<std::string> k_driver_libraries = {
    "libcuda.so",
    "libcudadebugger.so",
    "libnvidia-ml.so",
    "libnvidia-ptxjitcompiler.so",
    "libnvidia-nvvm.so",
    "libnvidia-opencl.so",
    "libnvidia-gpucomp.so",
    "libnvidia-allocator.so",
    "libnvidia-cfg.so",
    "libnvidia-fatbinaryloader.so",
    "libnvidia-compiler.so",
    "libnvidia-pkcs11.so",
    "libnvidia-pkcs11-openssl3.so",
};

constexpr std::string_view k_library_dir = "/usr/local/nvidia/lib64";

bool is_driver_library(const std::string& name)
{
    return std::any_of(k_driver_libraries.begin(), k_driver_libraries.end(), [&](const std::string& prefix) {
        return name.size() > prefix.size() + 1 && name.starts_with(prefix) && name[prefix.size()] == '.';
    });
}

bool is_64_bit(const std::string& flags)
{
    return flags.find("x86-64") != std::string::npos || flags.find("AArch64") != std::string::npos;
}

} // namespace

std::vector<LdconfigEntry> parse_ldconfig(const std::string& output)
{
    static const std::regex line_shape(R"(^\s*(\S+) \(([^)]*)\) => (/\S.*)$)");
    std::vector<LdconfigEntry> out;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (std::regex_match(line, m, line_shape))
            out.push_back({ m[1], m[2], m[3] });
    }
    return out;
}

std::vector<BindMount> driver_library_binds(const std::vector<LdconfigEntry>& entries)
{
    std::vector<BindMount> out;
    std::set<std::string> seen;
    for (const auto& entry : entries)
        if (is_driver_library(entry.name) && is_64_bit(entry.flags) && seen.insert(entry.name).second)
            out.push_back({ entry.path, std::string(k_library_dir) + "/" + entry.name, true });
    return out;
}

std::vector<DeviceNode> driver_device_nodes(const std::filesystem::path& dev_dir, const DeviceProbe& probe)
{
    std::vector<std::string> names = { "nvidiactl", "nvidia-uvm", "nvidia-uvm-tools" };
    std::vector<int> numbered;
    static const std::regex gpu_node(R"(nvidia([0-9]+))");
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dev_dir, ec)) {
        std::smatch m;
        std::string name = entry.path().filename().string();
        if (std::regex_match(name, m, gpu_node))
            numbered.push_back(std::stoi(m[1]));
    }
    std::sort(numbered.begin(), numbered.end());
    for (int n : numbered)
        names.push_back("nvidia" + std::to_string(n));
    std::vector<DeviceNode> out;
    for (const auto& name : names)
        if (auto node = probe((dev_dir / name).string())) {
            node->path = "/dev/" + name;
            node->host_path = (dev_dir / name).string();
            out.push_back(*node);
        }
    return out;
}

} // namespace dlenv::verify
