#include "fleet/slurm_results.h"

#include "fleet/node_script.h"

#include <charconv>

namespace dlenv::fleet {

std::vector<NodeResult> read_node_results(std::string_view output)
{
    constexpr std::string_view marker = "dlenv-fleet-result ";
    std::vector<NodeResult> results;
    for (std::size_t begin = 0; begin < output.size();) {
        std::size_t end = output.find('\n', begin);
        std::string_view line
            = output.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
        begin = end == std::string_view::npos ? output.size() : end + 1;
        if (line.substr(0, marker.size()) != marker)
            continue;
        line.remove_prefix(marker.size());
        std::size_t space = line.find(' ');
        if (space == 0 || space == std::string_view::npos)
            continue;
        std::string_view code = line.substr(space + 1);
        int value = 0;
        auto [ptr, error] = std::from_chars(code.data(), code.data() + code.size(), value);
        if (error != std::errc() || ptr != code.data() + code.size())
            continue;
        results.push_back({ std::string(line.substr(0, space)), value });
    }
    return results;
}

std::string outcome_text(int exit_code)
{
    switch (exit_code) {
    case k_node_passed:
        return "passed";
    case k_node_failed:
        return "FAILED";
    case k_node_bad_input:
        return "bad input";
    default:
        return "could not run";
    }
}

} // namespace dlenv::fleet
