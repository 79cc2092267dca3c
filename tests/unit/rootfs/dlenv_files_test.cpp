#include "rootfs/dlenv_files.h"
#include "rootfs/path.h"

#include <catch2/catch.hpp>

using namespace dlenv::rootfs;

TEST_CASE("a tier's kit script lies in the kit directory, inside dlenv's own directory", "[rootfs]")
{
    CHECK(kit_script("gpu") == "/opt/dlenv/kit/gpu_tier.py");
    CHECK(kit_script("framework") == "/opt/dlenv/kit/framework_tier.py");
    CHECK(image_target_problem(kit_script("gpu")) != "");
    CHECK(image_target_problem(std::string(k_lock_file)) != "");
    CHECK(image_target_problem(std::string(k_requirements_file)) != "");
}
