// Prints how long locking and checking take, in-process and through the CLI.
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
#include <functional>
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

} // namespace

int main(int argc, char** argv)
{
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
    std::printf("%-58s %8.2f ms\n", "load and validate the built-in matrices (once)", load_ms);
    std::printf("%-58s %8.3f ms\n", "lock pytorch-2.1-cu118 in-process (median of 50)", lock_ms);
    std::printf("%-58s %8.1f ms\n",
        ("check " + std::to_string(profiles.size()) + " profiles x " + std::to_string(matrix.gpus().size()) + " GPUs ("
            + std::to_string(checks) + " checks, median of 3)")
            .c_str(),
        sweep_ms);
    std::printf("%-58s %8.3f ms\n", "  per check", sweep_ms / static_cast<double>(checks));

    if (argc > 1) {
        std::string out = "/tmp/dlenv-bench-lock.json";
        double cli_ms = median_ms(20, [&] {
            run_process({ argv[1], "lock", "pytorch-2.1-cu118", "-o", out, "--offline" });
        });
        std::printf("%-58s %8.2f ms\n", "`dlenv lock pytorch-2.1-cu118` as a process (median of 20)", cli_ms);
    }
    return 0;
}
