#include "host/nvlink.h"

#include "core/error.h"
#include "core/subprocess.h"

#include <regex>
#include <sstream>

namespace dlenv::host {

std::vector<NvlinkState> parse_nvlink_status(const std::string& output)
{
    static const std::regex gpu_line(R"(^GPU ([0-9]+): (.*?)( \(UUID: [^)]*\))?\s*$)");
    static const std::regex link_line(R"(^\s*Link [0-9]+: (.*?)\s*$)");
    static const std::regex speed(R"(([0-9.]+) GB/s)");
    std::vector<NvlinkState> gpus;
    std::istringstream lines(output);
    std::smatch m;
    for (std::string line; std::getline(lines, line);) {
        if (std::regex_match(line, m, gpu_line)) {
            gpus.push_back({ static_cast<unsigned>(std::stoul(m[1].str())), m[2].str(), 0, 0 });
        } else if (std::regex_match(line, m, link_line)) {
            if (gpus.empty())
                throw Error(ErrorCode::invalid_input,
                    "nvidia-smi nvlink --status printed a link before any GPU: '" + line + "'",
                    "expected 'GPU N: NAME' lines, each followed by its links");
            std::string state = m[1].str();
            std::smatch s;
            ++gpus.back().links;
            if (std::regex_match(state, s, speed) && std::stod(s[1].str()) > 0)
                ++gpus.back().active;
        }
    }
    return gpus;
}

std::optional<std::vector<NvlinkState>> probe_nvlink()
{
    auto smi = run_process({ "nvidia-smi", "nvlink", "--status" });
    if (!smi || smi->exit_code != 0)
        return std::nullopt;
    return parse_nvlink_status(smi->out);
}

} // namespace dlenv::host
