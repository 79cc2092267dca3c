// Prints how long locking and checking take, in-process and as processes of the CLI.
//   bench_lock [DLENV_BINARY]
#include "core/subprocess.h"
#include "lock/lockfile.h"
#include "lock/package_plan.h"
#include "matrix/matrix.h"
#include "resolve/check.h"
#include "resolve/framework_build.h"
#include "resolve/profile.h"
#include "resolve/stack.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace dlenv;
using Clock = std::chrono::steady_clock;

namespace {

// Median wall time of `runs` calls, in milliseconds.
double median_ms(int runs, const std::function<void()>& body)
{
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        auto start = Clock::now();
        body();
        times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

// The first field of /proc/loadavg: how busy the machine was while the figures were taken.
std::string load_average()
{
    std::ifstream in("/proc/loadavg");
    std::string first;
    in >> first;
    return first.empty() ? "unknown" : first;
}

} // namespace

int main(int argc, char** argv)
{
    std::string load_before = load_average();
    auto load_start = Clock::now();
    const auto& matrix = matrix::Matrix::embedded();
    double load_ms = std::chrono::duration<double, std::milli>(Clock::now() - load_start).count();
    auto profiles = resolve::shipped_profiles();

    double lock_ms = median_ms(50, [&] {
        auto profile = resolve::load_profile("pytorch-2.1-cu118");
        auto resolution = resolve::resolve_profile(matrix, profile, {});
        auto sources = lock::package_sources(profile, *resolution.stack);
        auto text = lock::Lockfile::from_stack(profile, matrix.sha256(), {}, *resolution.stack, resolution.report,
            sources, "lockfiles/" + profile.name + ".lock.json")
                        .text();
        (void)text;
    });

    std::size_t checks = 0;
    double sweep_ms = median_ms(3, [&] {
        checks = 0;
        for (const auto& profile : profiles)
            for (const auto& gpu : matrix.gpus()) {
                resolve::Query query;
                query.frameworks.push_back(profile.framework);
                if (profile.framework.framework == resolve::Framework::torch && profile.cuda)
                    query.frameworks.back().local = resolve::variant_tag(*profile.cuda);
                query.gpus = { gpu.name };
                query.driver = profile.driver_floor;
                resolve::check(matrix, query);
                ++checks;
            }
    });

    std::printf("%-58s %10s\n", "work", "time");
    std::printf("%-58s %8.2f ms\n", "read the built-in matrices from their image (once)", load_ms);
    std::printf("%-58s %8.3f ms\n", "lock pytorch-2.1-cu118 in-process (median of 50)", lock_ms);
    std::printf("%-58s %8.1f ms\n",
        ("check " + std::to_string(profiles.size()) + " profiles x " + std::to_string(matrix.gpus().size()) + " GPUs ("
            + std::to_string(checks) + " checks, median of 3)")
            .c_str(),
        sweep_ms);
    std::printf("%-58s %8.3f ms\n", "  per check", sweep_ms / static_cast<double>(checks));

    if (argc > 1) {
        std::string out = "/tmp/dlenv-bench-lock.json";
        std::vector<std::string> lock = { argv[1], "lock", "pytorch-2.1-cu118", "-o", out, "--offline" };
        double new_lock_ms = median_ms(50, [&] {
            std::remove(out.c_str());
            run_process(lock);
        });
        double same_lock_ms = median_ms(50, [&] { run_process(lock); });
        double check_cli_ms = median_ms(50, [&] {
            run_process(
                { argv[1], "check", "--framework", "torch==2.1", "--gpu", "RTX 4090", "--driver", "535.104.05" });
        });
        double version_ms = median_ms(50, [&] { run_process({ argv[1], "--version" }); });
        std::printf("%-58s %8.2f ms\n", "`dlenv lock pytorch-2.1-cu118 --offline` (median of 50)", same_lock_ms);
        std::printf("%-58s %8.2f ms\n", "  writing a new lock, synced with its directory", new_lock_ms);
        std::printf("%-58s %8.2f ms\n", "`dlenv check torch==2.1, RTX 4090` (median of 50)", check_cli_ms);
        std::printf("%-58s %8.2f ms\n", "  starting alone: `dlenv --version` (median of 50)", version_ms);
    }
    std::printf(
        "%-58s %10s\n", "load average (1 min) at the start and the end", (load_before + ", " + load_average()).c_str());
    return 0;
}
