#include "host/topology.h"

#include "core/error.h"
#include "core/subprocess.h"

#include <regex>
#include <sstream>

namespace dlenv::host {
namespace {

// Newer nvidia-smi underlines the header with ANSI escapes.
std::string strip_escapes(const std::string& text)
{
    static const std::regex escape("\x1b\\[[0-9;]*m");
    return std::regex_replace(text, escape, "");
}

std::vector<std::string> words(const std::string& line)
{
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string word; in >> word;)
        out.push_back(word);
    return out;
}

bool is_gpu_label(const std::string& word)
{
    static const std::regex gpu("GPU[0-9]+");
    return std::regex_match(word, gpu);
}

Link link_of(const std::string& code, const std::string& line)
{
    if (code.starts_with("NV"))
        return Link::nvlink;
    if (code == "PIX" || code == "PXB")
        return Link::pcie_switch;
    if (code == "PHB" || code == "NODE")
        return Link::host_bridge;
    if (code == "SYS")
        return Link::cross_socket;
    throw Error(ErrorCode::invalid_input,
        "nvidia-smi topo -m printed a link dlenv does not know: '" + code + "' in '" + line + "'",
        "expected NV#, PIX, PXB, PHB, NODE or SYS");
}

} // namespace

Topology parse_topology(const std::string& output)
{
    std::istringstream lines(strip_escapes(output));
    std::size_t columns = 0; // the GPU columns, which come first in the header
    Topology topology;
    for (std::string line; std::getline(lines, line);) {
        auto cells = words(line);
        if (cells.empty())
            continue;
        if (columns == 0 && is_gpu_label(cells[0])) {
            while (columns < cells.size() && is_gpu_label(cells[columns]))
                ++columns;
            continue;
        }
        if (columns == 0 || !is_gpu_label(cells[0]))
            continue;
        unsigned row = topology.gpus++;
        if (cells.size() < columns + 1)
            throw Error(ErrorCode::invalid_input, "nvidia-smi topo -m printed a short row: '" + line + "'",
                "expected one link per GPU column");
        for (unsigned col = row + 1; col < columns; ++col)
            topology.pairs.push_back({ row, col, link_of(cells[col + 1], line), cells[col + 1] });
    }
    if (topology.gpus == 0)
        throw Error(ErrorCode::invalid_input, "nvidia-smi topo -m printed no GPU rows",
            "run `nvidia-smi topo -m` to see what it says");
    return topology;
}

std::optional<Topology> probe_topology()
{
    auto smi = run_process({ "nvidia-smi", "topo", "-m" });
    if (!smi || smi->exit_code != 0)
        return std::nullopt;
    return parse_topology(smi->out);
}

} // namespace dlenv::host
