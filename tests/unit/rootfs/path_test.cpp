#include "rootfs/path.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace dlenv::rootfs;

namespace {

std::string repeated(const std::string& part, int times)
{
    std::string out;
    for (int i = 0; i < times; ++i)
        out += part;
    return out;
}

} // namespace

TEST_CASE("an image target must be a short absolute path outside dlenv's own directory", "[rootfs]")
{
    const std::string owned = "/opt/dlenv belongs to dlenv (the lock and the validation kit); put the file elsewhere";
    const std::vector<std::pair<std::string, std::string>> cases = {
        { "/app/train.py", "" },
        { "/opt/dlenvx/a", "" },
        { "/opt/other/a", "" },
        { "/opt/dlenv/dlenv.lock.json", owned },
        { "/opt/dlenv/kit/gpu_tier.py", owned },
        { "/opt/dlenv", owned },
        { "/opt", owned },
        { "/app/" + std::string(5000, 'a'), "a component of the path is 5000 bytes long; Linux allows 255" },
        { "/app/" + std::string(256, 'a'), "a component of the path is 256 bytes long; Linux allows 255" },
        { "/app/" + std::string(255, 'a'), "" },
        { repeated("/b", 2100), "the path is 4200 bytes long; Linux allows 4096" },
        { "/app/../etc/passwd", "empty, . and .. components are not allowed" },
    };
    for (const auto& [target, problem] : cases) {
        INFO(target.substr(0, 80));
        CHECK(image_target_problem(target) == problem);
    }
}

TEST_CASE("a path is too long when a component passes 255 bytes or the whole passes 4096", "[rootfs]")
{
    CHECK(path_length_problem("files/" + std::string(255, 'a')) == "");
    CHECK(path_length_problem(std::string(300, 'a') + "/x")
        == "a component of the path is 300 bytes long; Linux allows 255");
    CHECK(path_length_problem(std::string(4097, '/')) == "the path is 4097 bytes long; Linux allows 4096");
}

TEST_CASE("image paths split without empty and dot components and normalize without leaving the root", "[rootfs]")
{
    CHECK(split_path("./usr//bin/./tool/") == std::vector<std::string> { "usr", "bin", "tool" });
    CHECK(split_path("a/../b") == std::vector<std::string> { "a", "..", "b" });
    CHECK(split_path("./").empty());
    CHECK(join_path({ "usr", "bin" }) == "usr/bin");
    CHECK(join_path({}).empty());
    CHECK(normalize_path("a/b/../c") == "a/c");
    CHECK(normalize_path("a/..") == "");
    CHECK(normalize_path("a/../..") == std::nullopt);
    CHECK(normalize_path("../x") == std::nullopt);
}

TEST_CASE("an absolute path becomes a layer entry's name without its leading slashes", "[rootfs]")
{
    CHECK(relative_path("/opt/dlenv/kit") == "opt/dlenv/kit");
    CHECK(relative_path("//usr/local") == "usr/local");
    CHECK(relative_path("/").empty());
    CHECK(relative_path("").empty());
}
