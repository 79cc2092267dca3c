#include "host/network_facts.h"

#include "core/error.h"
#include "core/file.h"

#include <algorithm>

namespace dlenv::host {
namespace {

// A sysfs attribute's first line; nullopt when the kernel refuses the read (`speed` of
// a link that is down answers EINVAL) or the file is not there.
std::optional<std::string> attribute(const std::filesystem::path& file)
{
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return std::nullopt;
    try {
        std::string text = read_file(file);
        return text.substr(0, text.find('\n'));
    } catch (const Error&) {
        return std::nullopt;
    }
}

std::vector<std::filesystem::path> entries(const std::filesystem::path& dir)
{
    std::vector<std::filesystem::path> out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<unsigned> speed(const std::filesystem::path& interface)
{
    auto text = attribute(interface / "speed");
    if (!text || text->empty() || text->front() == '-')
        return std::nullopt;
    try {
        return static_cast<unsigned>(std::stoul(*text));
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

} // namespace

NetworkFacts read_network(const std::filesystem::path& root)
{
    NetworkFacts facts;
    std::error_code ec;
    for (const auto& interface : entries(root / "sys/class/net")) {
        if (!std::filesystem::exists(interface / "device", ec))
            continue;
        facts.interfaces.push_back(
            { interface.filename().string(), attribute(interface / "operstate") == "up", speed(interface) });
    }
    for (const auto& device : entries(root / "sys/class/infiniband"))
        for (const auto& port : entries(device / "ports")) {
            auto state = attribute(port / "state").value_or("");
            facts.rdma.push_back({ device.filename().string(), port.filename().string(),
                state.find("ACTIVE") != std::string::npos && state.find("INIT") == std::string::npos,
                attribute(port / "link_layer").value_or(""), attribute(port / "rate").value_or("") });
        }
    return facts;
}

} // namespace dlenv::host
