#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace dlenv::host {

// Memory as /proc/meminfo states it, in KiB (the file says "kB" and means KiB).
struct MemoryFacts {
    std::uint64_t total_kib = 0; // MemTotal
    std::uint64_t swap_kib = 0; // SwapTotal
};

// Reads MemTotal and SwapTotal from the text of /proc/meminfo. Throws Error(invalid_input)
// naming `file` when either line is missing or unreadable.
MemoryFacts parse_meminfo(const std::string& text, const std::string& file = "/proc/meminfo");

// `root`/proc/meminfo, parsed; `root` is "/" on a live system and a fixture tree in tests.
// Throws Error(not_found) or Error(io) when it cannot be read.
MemoryFacts read_memory(const std::filesystem::path& root = "/");

// vm.swappiness from `root`/proc/sys/vm/swappiness; nullopt when the file is not there.
std::optional<unsigned> read_swappiness(const std::filesystem::path& root = "/");

// The number of "processor" entries in the text of /proc/cpuinfo.
unsigned count_cpuinfo_processors(const std::string& text);

// The CPU cores this process may run on: its sched_getaffinity mask (what `nproc` prints,
// so a container's or a Slurm job's limit counts), else the processors of
// `root`/proc/cpuinfo. `source` says which one answered.
struct CpuFacts {
    unsigned cores = 0;
    std::string source; // "sched_getaffinity" or "/proc/cpuinfo"
};
CpuFacts usable_cpu_cores(const std::filesystem::path& root = "/");

} // namespace dlenv::host
