#include "host/system_facts.h"

#include "core/error.h"
#include "core/file.h"

#include <sched.h>
#include <sstream>

namespace dlenv::host {
namespace {

// The number after "KEY:" on a meminfo line, or nullopt when `line` is another key.
std::optional<std::uint64_t> meminfo_value(const std::string& line, std::string_view key, const std::string& file)
{
    if (!line.starts_with(key) || line.size() <= key.size() || line[key.size()] != ':')
        return std::nullopt;
    std::istringstream fields(line.substr(key.size() + 1));
    std::uint64_t value = 0;
    std::string unit;
    if (!(fields >> value) || !(fields >> unit) || unit != "kB")
        throw Error(ErrorCode::invalid_input, file + ": cannot read the line '" + line + "'",
            "expected 'KEY: NUMBER kB' as Linux writes it");
    return value;
}

} // namespace

MemoryFacts parse_meminfo(const std::string& text, const std::string& file)
{
    std::optional<std::uint64_t> total, swap;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (auto v = meminfo_value(line, "MemTotal", file))
            total = v;
        else if (auto s = meminfo_value(line, "SwapTotal", file))
            swap = s;
    }
    if (!total || !swap)
        throw Error(ErrorCode::invalid_input, file + ": no " + (total ? "SwapTotal" : "MemTotal") + " line",
            "is this a Linux /proc/meminfo?");
    return { *total, *swap };
}

MemoryFacts read_memory(const std::filesystem::path& root)
{
    auto file = root / "proc/meminfo";
    return parse_meminfo(read_file(file), file.string());
}

std::optional<unsigned> read_swappiness(const std::filesystem::path& root)
{
    auto file = root / "proc/sys/vm/swappiness";
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return std::nullopt;
    std::string text = read_file(file);
    try {
        return static_cast<unsigned>(std::stoul(text));
    } catch (const std::exception&) {
        throw Error(ErrorCode::invalid_input, file.string() + ": not a number: '" + text.substr(0, 32) + "'",
            "expected the integer Linux writes there");
    }
}

unsigned count_cpuinfo_processors(const std::string& text)
{
    unsigned count = 0;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with("processor") && line.find(':') != std::string::npos)
            ++count;
    return count;
}

CpuFacts usable_cpu_cores(const std::filesystem::path& root)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (root == "/" && sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return { static_cast<unsigned>(CPU_COUNT(&set)), "sched_getaffinity" };
    return { count_cpuinfo_processors(read_file(root / "proc/cpuinfo")), "/proc/cpuinfo" };
}

} // namespace dlenv::host
