#include "core/file.h"
#include "support/run_dlenv.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace dlenv;
using dlenv::testing::run_dlenv;

namespace {

std::filesystem::path scratch(const std::string& name)
{
    auto dir = std::filesystem::temp_directory_path() / ("dlenv-cli-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir / name;
}

} // namespace

TEST_CASE("check: torch 2.1 has no CUDA 12.2 build, exits 1 and suggests cu118 and cu121 with driver floors", "[cli]")
{
    auto r = run_dlenv({ "check", "--framework", "torch==2.1", "--cuda", "12.2" });
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains("error: torch==2.1 + CUDA 12.2 does not work (1 error)"));
    CHECK_THAT(r.out,
        Catch::Contains("use cu118 (torch 2.1+cu118): driver >= 520.61.05, or >= 450.80.02 under "
                        "minor-version compatibility"));
    CHECK_THAT(r.out,
        Catch::Contains("use cu121 (torch 2.1+cu121): driver >= 530.30.02, or >= 525.60.13 under "
                        "minor-version compatibility"));
}

TEST_CASE("check --json gives the verdict, findings and suggestions as data", "[cli]")
{
    auto r = run_dlenv({ "check", "--framework", "torch==2.1", "--driver", "525.60.13", "--json" });
    CHECK(r.exit_code == 0);
    auto json = nlohmann::json::parse(r.out);
    CHECK(json.at("verdict") == "warning");
    bool minor_version = false;
    for (const auto& f : json.at("findings"))
        minor_version = minor_version || f.at("code") == "driver-minor-version-compat";
    CHECK(minor_version);
    CHECK(json.at("suggestions").is_array());
}

TEST_CASE("check: a CUDA version that does not exist is bad input, exit 2, naming the nearest ones", "[cli]")
{
    auto r = run_dlenv({ "check", "--cuda", "12.7", "--json" });
    CHECK(r.exit_code == 2);
    auto error = nlohmann::json::parse(r.out).at("error");
    CHECK(error.at("code") == "invalid_input");
    CHECK(error.at("message") == "CUDA 12.7 is not a CUDA release");
    CHECK(error.at("hint") == "nearest known: 12.6 and 12.8");
}

TEST_CASE("lock writes the same bytes as the committed lock", "[cli]")
{
    auto out = scratch("pytorch-2.1-cu118.lock.json");
    auto r = run_dlenv({ "lock", "pytorch-2.1-cu118", "-o", out.string(), "--offline" });
    CHECK(r.exit_code == 0);
    CHECK(read_file(out) == read_file(std::string(DLENV_SOURCE_DIR) + "/lockfiles/pytorch-2.1-cu118.lock.json"));
}

TEST_CASE("lock of a profile that cannot work exits 1 and writes nothing", "[cli]")
{
    auto profile = scratch("h100-old-torch.json");
    write_file_atomic(profile, R"({"format": "dlenv.profile/v1", "name": "h100-old-torch",
        "framework": {"name": "torch", "version": "1.12", "cuda": "11.6"}, "python": "3.10",
        "gpus": ["H100 SXM5"], "base_image": "nvidia/cuda:11.6.2-runtime-ubuntu20.04"})");
    auto out = scratch("h100-old-torch.lock.json");
    auto r = run_dlenv({ "lock", profile.string(), "-o", out.string(), "--offline", "--json" });
    CHECK(r.exit_code == 1);
    CHECK(nlohmann::json::parse(r.out).at("verdict") == "error");
    CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("profiles --json lists every shipped profile", "[cli]")
{
    auto r = run_dlenv({ "profiles", "--json" });
    CHECK(r.exit_code == 0);
    auto json = nlohmann::json::parse(r.out);
    REQUIRE(json.size() == 13);
    CHECK(json[0].at("name") == "jax-0.6-cu12");
    CHECK(json[1].at("name") == "pytorch-1.13-cu117");
}

TEST_CASE("an unknown command is a usage error, exit 2", "[cli]")
{
    CHECK(run_dlenv({ "frobnicate" }).exit_code == 2);
}

TEST_CASE(
    "a matrix directory given with --matrix is read, and a broken one is bad input naming file and field", "[cli]")
{
    std::string compat = std::string(DLENV_SOURCE_DIR) + "/profiles/compat";
    auto same = run_dlenv({ "--matrix", compat, "check", "--framework", "torch==2.1", "--cuda", "12.2" });
    CHECK(same.exit_code == 1);
    CHECK_THAT(same.out, Catch::Contains("use cu118 (torch 2.1+cu118)"));

    auto broken = scratch("broken-matrix");
    std::filesystem::create_directories(broken);
    for (const auto& entry : std::filesystem::directory_iterator(compat))
        std::filesystem::copy_file(
            entry.path(), broken / entry.path().filename(), std::filesystem::copy_options::overwrite_existing);
    auto gpus = nlohmann::json::parse(read_file(broken / "gpus.json"));
    gpus["gpus"][0]["segment"] = "gaming";
    write_file_atomic(broken / "gpus.json", gpus.dump());
    auto r = run_dlenv({ "--matrix", broken.string(), "check", "--cuda", "12.2", "--json" });
    CHECK(r.exit_code == 2);
    CHECK(nlohmann::json::parse(r.out).at("error").at("message")
        == broken.string()
            + "/gpus.json: gpus[0].segment: expected datacenter, workstation, geforce or jetson, got "
              "'gaming'");
}

TEST_CASE("lock -o onto a character device writes through it and leaves it a device", "[cli]")
{
    auto device = scratch("private-null");
    std::filesystem::remove(device);
    if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
        return; // mknod needs root; the core test says so
    auto r = run_dlenv({ "lock", std::string(DLENV_SOURCE_DIR) + "/examples/quickstart/quickstart.json", "-o",
        device.string(), "--offline" });
    CHECK(r.exit_code == 0);
    struct stat st { };
    REQUIRE(::lstat(device.c_str(), &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
    CHECK(st.st_rdev == makedev(1, 3));
}

TEST_CASE("lock -o - prints the lock alone on standard output, a relative -o lands in the working directory", "[cli]")
{
    std::string profile = std::string(DLENV_SOURCE_DIR) + "/examples/quickstart/quickstart.json";
    auto dir = scratch("relative");
    std::filesystem::create_directories(dir);
    auto in_dir = [&](const std::string& output) {
        auto r = run_process({ "sh", "-c", "cd \"$1\" && exec \"$2\" lock \"$3\" -o \"$4\" --offline 2>/dev/null", "sh",
            dir.string(), DLENV_BINARY, profile, output });
        REQUIRE(r);
        CHECK(r->exit_code == 0);
        return r->out;
    };
    std::string printed = in_dir("-");
    CHECK_THAT(in_dir("quickstart.lock.json"), Catch::StartsWith("locked quickstart -> quickstart.lock.json\n"));
    CHECK(printed == read_file(dir / "quickstart.lock.json"));
}

TEST_CASE("lock run beside a profile with files writes a lock named without a directory", "[cli]")
{
    auto dir = scratch("beside");
    std::filesystem::create_directories(dir);
    nlohmann::json profile
        = nlohmann::json::parse(read_file(std::string(DLENV_SOURCE_DIR) + "/profiles/pytorch-2.1-cu118.json"));
    profile["files"] = { { { "source", "train.py" }, { "target", "/app/train.py" } } };
    write_file_atomic(dir / "team.json", profile.dump());
    write_file_atomic(dir / "train.py", "print('train')\n");
    auto r = run_process({ "sh", "-c",
        "cd '" + dir.string() + "' && " DLENV_BINARY " lock team.json -o team.lock.json --offline --json" });
    REQUIRE(r);
    CHECK(r->exit_code == 0);
    auto lock = nlohmann::json::parse(read_file(dir / "team.lock.json"));
    CHECK(lock.at("image").at("files").at(0).at("source") == "train.py");
}
