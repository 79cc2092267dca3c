#pragma once

#include "core/file.h"
#include "support/run_dlenv.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dlenv::testing {

// The fixture wheels: make_wheels.py's resolve set in `dir` under the scratch.
inline void make_fixture_wheels(const Scratch& scratch, const std::string& dir)
{
    scratch.sh("python3 '" DLENV_SOURCE_DIR "/tests/fixtures/wheels/make_wheels.py' " + dir + " resolve");
}

// The quickstart's profile for torch 2.1 on CUDA 11.8 with Python 3.11 (the fixture
// wheels' Python), over `scratch` as its base and without files; `packages` becomes its
// "packages" section when not null. Locked to `lock` with `args` (--wheelhouse DIR, or
// --index NAME=URL ...). Returns the lock's path.
inline std::string lock_torch_profile(const Scratch& scratch, const std::string& lock, std::vector<std::string> args,
    const nlohmann::json& packages = nullptr)
{
    nlohmann::json profile
        = nlohmann::json::parse(read_file(std::string(DLENV_SOURCE_DIR) + "/examples/quickstart/quickstart.json"));
    profile["base_image"] = "scratch";
    profile["python"] = "3.11";
    profile.erase("files");
    if (!packages.is_null())
        profile["packages"] = packages;
    write_file_atomic(scratch / "torch.json", profile.dump());
    std::string path = (scratch / lock).string();
    args.insert(args.begin(), { "lock", (scratch / "torch.json").string(), "-o", path });
    ProcessResult locked = run_dlenv(args);
    INFO(locked.out);
    REQUIRE(locked.exit_code == 0);
    return path;
}

} // namespace dlenv::testing
