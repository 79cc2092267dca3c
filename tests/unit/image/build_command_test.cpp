// `dlenv build` and the store commands as a user runs them: exit codes, messages, and
// that bad input leaves the store untouched.
#include "core/file.h"
#include "support/run_dlenv.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace dlenv;
using dlenv::testing::error_of;
using dlenv::testing::run_dlenv;

namespace {

// A lock of the shipped pytorch-2.1-cu118 profile with one pinned file, over scratch.
std::string lock_with_file(const Scratch& scratch)
{
    nlohmann::json profile
        = nlohmann::json::parse(read_file(std::string(DLENV_SOURCE_DIR) + "/profiles/pytorch-2.1-cu118.json"));
    profile["base_image"] = "scratch";
    profile.erase("packages"); // its python_runtime: nothing on scratch runs Python
    profile["files"] = { { { "source", "train.py" }, { "target", "/app/train.py" }, { "mode", "0755" } } };
    write_file_atomic(scratch / "train.py", "print('train')\n");
    write_file_atomic(scratch / "profile.json", profile.dump());
    std::string lock = (scratch / "app.lock.json").string();
    REQUIRE(run_dlenv({ "lock", (scratch / "profile.json").string(), "-o", lock, "--offline" }).exit_code == 0);
    return lock;
}

nlohmann::json build_json(const std::vector<std::string>& args)
{
    auto r = run_dlenv(args);
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
}

} // namespace

TEST_CASE(
    "build from scratch makes latest, a second image moves the first to rollback, rollback brings it back", "[image]")
{
    Scratch scratch;
    std::string lock = lock_with_file(scratch);
    std::string store = (scratch / "store").string();
    auto first = build_json({ "build", lock, "--store", store, "--name", "app", "--json" });
    CHECK(first.at("layers").size() == 2);
    CHECK(first.at("moved")
        == nlohmann::json::parse(
            R"([{"tag":"latest","from":null,"to":")" + first.at("digest").get<std::string>() + R"("}])"));

    auto second = build_json({ "build", lock, "--store", store, "--name", "app", "--compression", "zstd", "--json" });
    CHECK(second.at("digest") != first.at("digest"));
    auto images = nlohmann::json::parse(run_dlenv({ "images", "--store", store, "--json" }).out);
    REQUIRE(images.size() == 2);
    CHECK(images[0].at("tag") == "latest");
    CHECK(images[0].at("digest") == second.at("digest"));
    CHECK(images[1].at("tag") == "rollback");
    CHECK(images[1].at("digest") == first.at("digest"));

    auto rolled = build_json({ "rollback", "app", "--store", store, "--json" });
    CHECK(rolled.at("digest") == first.at("digest"));
    auto history = nlohmann::json::parse(run_dlenv({ "history", "app", "--store", store, "--json" }).out);
    REQUIRE(history.size() == 3);
    CHECK(history[2].at("action") == "rollback");
    CHECK(run_dlenv({ "fsck", "--store", store }).exit_code == 0);
}

TEST_CASE("the config carries the NVIDIA environment and the lock's labels", "[image]")
{
    Scratch scratch;
    std::string lock = lock_with_file(scratch);
    std::string store = (scratch / "store").string();
    auto built = build_json({ "build", lock, "--store", store, "--json" });
    std::string manifest_hex = built.at("digest").get<std::string>().substr(7);
    auto manifest = nlohmann::json::parse(read_file(scratch / ("store/blobs/sha256/" + manifest_hex)));
    std::string config_hex = manifest.at("config").at("digest").get<std::string>().substr(7);
    auto config = nlohmann::json::parse(read_file(scratch / ("store/blobs/sha256/" + config_hex)));

    CHECK(config.at("created") == "1970-01-01T00:00:00Z");
    CHECK(config.at("config").at("Env")
        == nlohmann::json({ "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "LD_LIBRARY_PATH=/usr/local/nvidia/lib:/usr/local/nvidia/lib64", "NVIDIA_VISIBLE_DEVICES=all",
            "NVIDIA_DRIVER_CAPABILITIES=compute,utility",
            "NVIDIA_REQUIRE_CUDA=cuda>=11.8 brand=tesla,driver>=470,driver<471 brand=unknown,driver>=470,driver<471 "
            "brand=nvidia,driver>=470,driver<471 brand=nvidiartx,driver>=470,driver<471 "
            "brand=geforce,driver>=470,driver<471 brand=geforcertx,driver>=470,driver<471 "
            "brand=quadro,driver>=470,driver<471 brand=quadrortx,driver>=470,driver<471 "
            "brand=titan,driver>=470,driver<471 brand=titanrtx,driver>=470,driver<471" }));
    const auto& labels = config.at("config").at("Labels");
    CHECK(labels.at("dev.dlenv.framework") == "torch 2.1.2+cu118");
    CHECK(labels.at("dev.dlenv.cudnn") == "8.7.0.84");
    CHECK(labels.at("dev.dlenv.driver.min") == "520.61.05");
    CHECK(labels.at("dev.dlenv.arch_list") == "3.7 5.0 6.0 7.0 7.5 8.0 8.6 9.0");
    CHECK(manifest.at("annotations").at("dev.dlenv.lock.digest") == labels.at("dev.dlenv.lock.digest"));
    CHECK(config.at("rootfs").at("diff_ids").size() == 2);
    CHECK(config.at("history").size() == 2);
}

TEST_CASE("a lock that fails its checksum is bad input, exit 2, and no store is created", "[image]")
{
    Scratch scratch;
    std::string lock = lock_with_file(scratch);
    std::string text = read_file(lock);
    text.replace(text.find("\"3.10\""), 6, "\"3.11\"");
    write_file_atomic(lock, text);
    auto r = run_dlenv({ "build", lock, "--store", (scratch / "store").string(), "--json" });
    CHECK(r.exit_code == 2);
    CHECK_THAT(error_of(r), Catch::Contains("the lock does not match its digest"));
    CHECK_THAT(error_of(r), Catch::Contains("run `dlenv lock` again instead"));
    CHECK_FALSE(std::filesystem::exists(scratch / "store"));
}

TEST_CASE("a lock of an unknown format version is bad input, exit 2", "[image]")
{
    Scratch scratch;
    std::string lock = lock_with_file(scratch);
    std::string text = read_file(lock);
    text.replace(text.find("dlenv.lock/v1"), 13, "dlenv.lock/v7");
    write_file_atomic(lock, text);
    auto r = run_dlenv({ "build", lock, "--store", (scratch / "store").string(), "--json" });
    CHECK(r.exit_code == 2);
    CHECK_THAT(error_of(r), Catch::Contains("unknown format 'dlenv.lock/v7'"));
    CHECK_FALSE(std::filesystem::exists(scratch / "store"));
}

TEST_CASE("a base that is not there is bad input, exit 2, saying how to bring it in, and nothing is written", "[image]")
{
    Scratch scratch;
    std::string lock = lock_with_file(scratch);
    std::string store = (scratch / "store").string();
    auto r
        = run_dlenv({ "build", lock, "--store", store, "--base", "nvidia/cuda:11.8.0-runtime-ubuntu22.04", "--json" });
    CHECK(r.exit_code == 2);
    CHECK_THAT(error_of(r),
        Catch::Contains("base image nvidia/cuda:11.8.0-runtime-ubuntu22.04: not in the store at " + store));
    CHECK_THAT(error_of(r), Catch::Contains("dlenv pull nvidia/cuda:11.8.0-runtime-ubuntu22.04"));
    CHECK_FALSE(std::filesystem::exists(scratch / "store"));

    auto archive = run_dlenv(
        { "build", lock, "--store", store, "--base", "docker-archive:" + (scratch / "no.tar").string(), "--json" });
    CHECK(archive.exit_code == 2);
    CHECK_THAT(error_of(archive), Catch::Contains("no such file: " + (scratch / "no.tar").string()));
    CHECK_FALSE(std::filesystem::exists(scratch / "store"));
}

TEST_CASE("a base named in the store that is not there says where it looked and how to bring it in", "[image]")
{
    Scratch scratch;
    std::string lock = lock_with_file(scratch);
    std::string store = (scratch / "store").string();
    auto r = run_dlenv({ "build", lock, "--store", store, "--base", "team/base:v1", "--json" });
    CHECK(r.exit_code == 2);
    CHECK(error_of(r)
        == "base image team/base:v1: not in the store at " + store
            + " | bring it in with `dlenv pull team/base:v1`, pin it with `dlenv lock` so the build "
              "pulls it, or use --base docker-archive:FILE with a `docker save` tarball");
}

TEST_CASE("a base in the store whose config blob was cut short is refused naming the base and the blob", "[image]")
{
    Scratch scratch;
    std::string lock = lock_with_file(scratch);
    std::string store = (scratch / "store").string();
    auto base = build_json({ "build", lock, "--store", store, "--name", "base", "--json" });
    std::string blobs = store + "/blobs/sha256/";
    auto manifest = nlohmann::json::parse(read_file(blobs + base.at("digest").get<std::string>().substr(7)));
    std::string config = blobs + manifest.at("config").at("digest").get<std::string>().substr(7);
    std::int64_t size = manifest.at("config").at("size").get<std::int64_t>();
    std::filesystem::permissions(config, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
    std::filesystem::resize_file(config, 10);

    auto r = run_dlenv({ "build", lock, "--store", store, "--base", "base", "--name", "app", "--json" });
    CHECK(r.exit_code == 1);
    CHECK(error_of(r)
        == "base image base: blob " + config + " has 10 bytes, its descriptor says " + std::to_string(size)
            + " | the store is damaged: run `dlenv fsck`, then rebuild or pull the image again");
}

TEST_CASE("a pinned file that changed after locking is refused before the store is touched", "[image]")
{
    Scratch scratch;
    std::string lock = lock_with_file(scratch);
    write_file_atomic(scratch / "train.py", "print('changed')\n");
    auto r = run_dlenv({ "build", lock, "--store", (scratch / "store").string(), "--json" });
    CHECK(r.exit_code == 2);
    CHECK_THAT(error_of(r),
        Catch::Contains("image.files[0]: " + (scratch / "train.py").string() + " changed since the lock was written"));
    CHECK_FALSE(std::filesystem::exists(scratch / "store"));
}

TEST_CASE("rollback with no previous image is a failure, exit 1, naming why", "[image]")
{
    Scratch scratch;
    std::string lock = lock_with_file(scratch);
    std::string store = (scratch / "store").string();
    build_json({ "build", lock, "--store", store, "--name", "app", "--json" });
    auto r = run_dlenv({ "rollback", "app", "--store", store, "--json" });
    CHECK(r.exit_code == 1);
    CHECK_THAT(error_of(r), Catch::Contains("app has no rollback image"));
}

TEST_CASE("the rendered Dockerfile pins the same environment and labels and copies its own context", "[image]")
{
    Scratch scratch;
    std::string lock = lock_with_file(scratch);
    auto r = run_dlenv({ "build", lock, "--store", (scratch / "store").string(), "--dockerfile",
        (scratch / "docker/Dockerfile").string() });
    REQUIRE(r.exit_code == 0);
    std::string dockerfile = read_file(scratch / "docker/Dockerfile");
    CHECK_THAT(dockerfile, Catch::Contains("FROM scratch\n"));
    CHECK_THAT(dockerfile,
        Catch::Contains("NVIDIA_REQUIRE_CUDA=\"cuda>=11.8 brand=tesla,driver>=470,driver<471 "
                        "brand=unknown,driver>=470,driver<471"));
    CHECK_THAT(dockerfile, Catch::Contains("dev.dlenv.framework=\"torch 2.1.2+cu118\""));
    CHECK_THAT(dockerfile, Catch::Contains("COPY --chmod=0755 [\"files/app/train.py\",\"/app/train.py\"]\n"));
    CHECK(read_file(scratch / "docker/files/app/train.py") == "print('train')\n");
    CHECK(read_file(scratch / "docker/dlenv.lock.json") == read_file(lock));
}
