#include "core/error.h"
#include "core/file.h"
#include "host/system_facts.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

constexpr const char* k_meminfo = "MemTotal:       263856124 kB\n"
                                  "MemFree:        201234560 kB\n"
                                  "SwapCached:            0 kB\n"
                                  "SwapTotal:       8388604 kB\n"
                                  "SwapFree:        8388604 kB\n";

} // namespace

TEST_CASE("MemTotal and SwapTotal are read from /proc/meminfo, in KiB", "[host]")
{
    auto memory = host::parse_meminfo(k_meminfo);
    CHECK(memory.total_kib == 263856124);
    CHECK(memory.swap_kib == 8388604); // not SwapCached or SwapFree
}

TEST_CASE("a meminfo without the lines the doctor needs is refused, naming the file", "[host]")
{
    CHECK_THROWS_WITH(
        host::parse_meminfo("MemTotal: 1024 kB\n", "/x/proc/meminfo"), "/x/proc/meminfo: no SwapTotal line");
    CHECK_THROWS_WITH(host::parse_meminfo("MemTotal: lots\nSwapTotal: 0 kB\n", "/proc/meminfo"),
        "/proc/meminfo: cannot read the line 'MemTotal: lots'");
}

TEST_CASE("processors are counted from /proc/cpuinfo under a root path", "[host]")
{
    Scratch root;
    write_file_atomic(root / "proc/cpuinfo",
        "processor\t: 0\nmodel name\t: x\n\nprocessor\t: 1\n\n"
        "processor\t: 2\n\nprocessor\t: 3\n");
    write_file_atomic(root / "proc/meminfo", k_meminfo);
    auto cpu = host::usable_cpu_cores(root.dir());
    CHECK(cpu.cores == 4);
    CHECK(cpu.source == "/proc/cpuinfo");
    CHECK(host::read_memory(root.dir()).total_kib == 263856124);
}

TEST_CASE("on the live system the cores are the affinity mask nproc reads", "[host]")
{
    auto cpu = host::usable_cpu_cores();
    CHECK(cpu.source == "sched_getaffinity");
    CHECK(cpu.cores >= 1);
}
