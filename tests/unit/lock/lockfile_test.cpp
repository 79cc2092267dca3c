#include "core/error.h"
#include "core/file.h"
#include "lock/lockfile.h"
#include "lock/package_plan.h"
#include "matrix/matrix.h"
#include "resolve/profile.h"
#include "resolve/stack.h"
#include "support/resigned_lock.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

using namespace dlenv;
using dlenv::testing::resigned_lock;

namespace {

lock::Lockfile lock_of(const resolve::Profile& profile)
{
    const auto& matrix = matrix::Matrix::embedded();
    auto resolution = resolve::resolve_profile(matrix, profile, {});
    REQUIRE(resolution.stack);
    return lock::Lockfile::from_stack(profile, matrix.sha256(), {}, *resolution.stack, resolution.report,
        lock::package_sources(profile, *resolution.stack), "lockfiles/" + profile.name + ".lock.json");
}

lock::Lockfile lock_shipped(const std::string& name)
{
    return lock_of(resolve::load_profile(name));
}

// A shipped profile's lock with the acceptance tier's settings its profile would name.
lock::Lockfile lock_with_acceptance()
{
    resolve::Profile profile = resolve::load_profile("pytorch-2.1-cu118");
    profile.acceptance = resolve::Acceptance {};
    profile.acceptance->model = "resnet18";
    profile.acceptance->num_workers = 16;
    profile.acceptance->data_wait_max_fraction = 0.1;
    return lock_of(profile);
}

// The lock as its JSON, as a reader of the file sees it.
nlohmann::json json_of(const lock::Lockfile& lockfile)
{
    return nlohmann::json::parse(lockfile.text());
}

// A lock re-signed by hand: the digest matches, so only the checks after it stand.
lock::Lockfile signed_lock(const nlohmann::json& json)
{
    return lock::Lockfile::parse("x.lock.json", resigned_lock(json));
}

} // namespace

TEST_CASE("the committed lock of every shipped profile is what locking writes today", "[lock]")
{
    // On drift, regenerate: for p in profiles/*.json; do dlenv lock "$(basename "$p" .json)" --offline; done
    for (const auto& profile : resolve::shipped_profiles()) {
        INFO("lockfiles/" << profile.name << ".lock.json is stale: run `dlenv lock " << profile.name << " --offline`");
        std::string committed = read_file(std::string(DLENV_SOURCE_DIR) + "/lockfiles/" + profile.name + ".lock.json");
        CHECK(lock_shipped(profile.name).text() == committed);
    }
}

TEST_CASE("locking the same inputs twice gives the same bytes", "[lock]")
{
    CHECK(lock_shipped("pytorch-2.1-cu118").text() == lock_shipped("pytorch-2.1-cu118").text());
}

TEST_CASE("pytorch-2.1-cu118 pins CUDA 11.8, cuDNN 8.7.0.84 and torch 2.1.2+cu118 with its companions", "[lock]")
{
    auto lockfile = lock_shipped("pytorch-2.1-cu118");
    nlohmann::json json = json_of(lockfile);
    const auto& stack = json.at("stack");
    CHECK(json.at("format") == "dlenv.lock/v1");
    CHECK(stack.at("cuda") == "11.8.0");
    CHECK(stack.at("cudnn") == "8.7.0.84");
    CHECK(stack.at("framework").at("local_version") == "2.1.2+cu118");
    CHECK(stack.at("companions") == nlohmann::json::parse(R"([{"name": "torchaudio", "version": "2.1.2+cu118"},
                                                             {"name": "torchvision", "version": "0.16.2+cu118"}])"));
    CHECK(stack.at("python") == "3.10");
    CHECK(stack.at("driver").at("toolkit_min") == "520.61.05");
    CHECK(stack.at("driver").at("minor_version_min") == "450.80.02");
    CHECK(stack.at("driver").at("forward_compat") == false);
    CHECK(stack.at("arch_list") == nlohmann::json::parse(R"(["3.7","5.0","6.0","7.0","7.5","8.0","8.6","9.0"])"));
    CHECK(json.at("packages") == nullptr); // not locked until an index or a wheelhouse is asked
    CHECK(json.at("package_sources") == nlohmann::json::parse(R"({
        "default_index": "pypi",
        "indexes": {"pypi": "https://pypi.org/simple/", "pytorch": "https://download.pytorch.org/whl/cu118/"},
        "index_of": {"nvidia-*": "pytorch", "torch": "pytorch", "torchaudio": "pytorch", "torchvision": "pytorch",
                     "triton": "pytorch"}})"));
    // The profile asks for "python_runtime": "3.10": the matrix's python-build-standalone build.
    CHECK(json.at("python") == nlohmann::json::parse(R"({"glibc": "2.28", "machine": "x86_64", "prefix": "/usr/local",
        "runtime": {"url": "https://github.com/astral-sh/python-build-standalone/releases/download/20251031/cpython-3.10.19+20251031-x86_64-unknown-linux-gnu-install_only.tar.gz",
                    "sha256": "fb1caac917d7b6497bb6f5950da5f1e48d05c43a498948dd97f85760c4382d9f",
                    "version": "3.10.19", "release": "20251031"},
        "version": "3.10"})"));
}

TEST_CASE("a lock whose runtime is another CPython than its python is refused, naming both", "[lock]")
{
    nlohmann::json json = json_of(lock_shipped("pytorch-2.1-cu118"));
    json["python"]["runtime"]["version"] = "3.11.14";
    try {
        signed_lock(json);
        FAIL("expected an Error");
    } catch (const Error& e) {
        CHECK(e.message() == "x.lock.json: python.runtime.version: CPython 3.11.14 is not the lock's python 3.10");
        CHECK(e.hint() == "run `dlenv lock` again");
    }
}

TEST_CASE("a lock read back verifies its format and digest", "[lock]")
{
    auto lockfile = lock_shipped("tensorflow-2.14-cu118");
    CHECK(lock::Lockfile::parse("x.lock.json", lockfile.text()).digest() == lockfile.digest());

    SECTION("an edited lock no longer matches its digest")
    {
        std::string text = lockfile.text();
        text.replace(text.find("\"11.8.0\""), 8, "\"12.2.0\"");
        try {
            lock::Lockfile::parse("x.lock.json", text);
            FAIL("an edited lock was accepted");
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::invalid_input);
            CHECK(std::string(e.what()).starts_with("x.lock.json: digest: the lock does not match its digest"));
            CHECK(e.hint() == "the file was edited by hand: run `dlenv lock` again instead");
        }
    }
    SECTION("an unknown format version is refused")
    {
        nlohmann::json json = json_of(lockfile);
        json["format"] = "dlenv.lock/v9";
        CHECK_THROWS_WITH(
            lock::Lockfile::parse("x.lock.json", json.dump()), "x.lock.json: format: unknown format 'dlenv.lock/v9'");
    }
}

TEST_CASE(
    "a lock whose image files leave the image root or the lock's directory is refused, naming the field", "[lock]")
{
    nlohmann::json json = json_of(lock_shipped("pytorch-2.1-cu118"));
    nlohmann::json file = { { "source", "app.py" }, { "target", "/app/app.py" }, { "mode", "0644" },
        { "sha256", std::string(64, 'a') }, { "size", 3 } };
    json["image"]["files"] = nlohmann::json::array({ file }); // `= {file}` is `= file` under clang
    CHECK(signed_lock(json).image().files.at(0).target == "/app/app.py");

    const std::vector<std::tuple<std::string, std::string, std::string>> bad = {
        { "target", "/../../home/u/.bashrc",
            "x.lock.json: image.files[0].target: empty, . and .. components are not allowed" },
        { "target", "/app/a\nRUN rm -rf /",
            "x.lock.json: image.files[0].target: control characters are not allowed in a path" },
        { "source", "/etc/shadow",
            "x.lock.json: image.files[0].source: expected a path relative to the lockfile's directory" },
        { "mode", "rwx", "x.lock.json: image.files[0].mode: expected an octal mode like \"0644\"" },
        { "target", "/opt/dlenv/dlenv.lock.json",
            "x.lock.json: image.files[0].target: /opt/dlenv belongs to dlenv (the lock and the validation kit); put "
            "the "
            "file elsewhere" },
        { "target", "/app/" + std::string(5000, 'a'),
            "x.lock.json: image.files[0].target: a component of the path is 5000 bytes long; Linux allows 255" },
        { "source", std::string(300, 'a'),
            "x.lock.json: image.files[0].source: a component of the path is 300 bytes long; Linux allows 255" },
    };
    for (const auto& [field, value, message] : bad) {
        nlohmann::json edited = json;
        edited["image"]["files"][0][field] = value;
        CHECK_THROWS_WITH(signed_lock(edited).image(), message);
    }
}

TEST_CASE(
    "a lock of frameworks side by side records JAX's minimum compute capability, as no arch list is known", "[lock]")
{
    auto lockfile = lock_shipped("pytorch-2.4-jax-0.4-cu121");
    const lock::LockedStack& stack = lockfile.stack();
    CHECK_FALSE(stack.min_compute_capability);
    REQUIRE(stack.also.size() == 1);
    CHECK(stack.also[0].name == "jax");
    CHECK(stack.also[0].min_compute_capability == ComputeCapability(5, 2));
    CHECK(json_of(lockfile).at("stack").at("also").at(0).at("min_compute_capability") == "5.2");
    CHECK(lock_shipped("jax-0.6-cu12").stack().min_compute_capability == ComputeCapability(5, 2));
    CHECK_FALSE(
        json_of(lock_shipped("pytorch-2.1-cu118")).at("stack").at("framework").contains("min_compute_capability"));
}

TEST_CASE("a lock whose stack is missing or of the wrong types is refused when read, naming the field", "[lock]")
{
    nlohmann::json json = json_of(lock_shipped("pytorch-2.1-cu118"));
    CHECK_NOTHROW(signed_lock(json));

    nlohmann::json without = json;
    without.erase("stack");
    CHECK_THROWS_WITH(signed_lock(without), "x.lock.json: stack: missing");

    const std::vector<std::tuple<std::string, nlohmann::json, std::string>> bad = {
        { "/stack/cuda", 11.8, "x.lock.json: stack.cuda: expected a string, got 11.8 (number)" },
        { "/stack/cuda", "eleven", "x.lock.json: stack.cuda: 'eleven' is not a CUDA version" },
        { "/stack/framework", "torch", "x.lock.json: stack.framework: expected an object, got \"torch\" (string)" },
        { "/stack/driver/toolkit_min", "latest",
            "x.lock.json: stack.driver.toolkit_min: 'latest' is not a driver version" },
        { "/stack/driver/forward_compat", "no",
            "x.lock.json: stack.driver.forward_compat: expected true or false, got \"no\" (string)" },
        { "/stack/arch_list/0", 7, "x.lock.json: stack.arch_list[0]: expected a string, got 7 (number)" },
        { "/stack/framework/min_compute_capability", "five",
            "x.lock.json: stack.framework.min_compute_capability: 'five' is not a compute capability" },
    };
    for (const auto& [pointer, value, message] : bad) {
        nlohmann::json edited = json;
        edited[nlohmann::json::json_pointer(pointer)] = value;
        CHECK_THROWS_WITH(signed_lock(edited), message);
    }
}

TEST_CASE("a lock with a number too large for a double is refused naming the file", "[lock]")
{
    std::string text = lock_shipped("pytorch-2.1-cu118").text();
    text.replace(text.find("\"source_date_epoch\": 0"), 22, "\"source_date_epoch\": 1e400");
    CHECK_THROWS_WITH(
        lock::Lockfile::parse("x.lock.json", text), "x.lock.json: not valid JSON: number overflow parsing '1e400'");
}

TEST_CASE("every shipped lock reads back and writes the same bytes", "[lock]")
{
    std::size_t locks = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(DLENV_SOURCE_DIR) + "/lockfiles")) {
        if (!entry.path().filename().string().ends_with(".lock.json"))
            continue;
        INFO(entry.path().string());
        std::string committed = read_file(entry.path());
        lock::Lockfile lockfile = lock::Lockfile::parse(entry.path().string(), committed);
        CHECK(lockfile.text() == committed);
        CHECK(lockfile.digest().text() == nlohmann::json::parse(committed).at("digest"));
        ++locks;
    }
    CHECK(locks == resolve::shipped_profiles().size());
}

TEST_CASE("a lock with every section filled reads back typed and writes the same bytes", "[lock]")
{
    // A lock with pinned base, files, packages, a Python runtime, warnings and a host, as
    // `dlenv lock` wrote it; parse and write must agree on each of them.
    std::string path = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/lock/every_section.lock.json";
    std::string committed = read_file(path);
    lock::Lockfile lockfile = lock::Lockfile::parse(path, committed);
    CHECK(lockfile.text() == committed);

    CHECK(lockfile.profile().name == "team");
    CHECK(lockfile.base_image().reference == "registry.example/cuda:11.8.0-runtime");
    CHECK(lockfile.base_image().digest == Digest::from_hex(std::string(64, 'a')));
    CHECK(lockfile.base_image().manifest == Digest::from_hex(std::string(64, 'b')));
    CHECK(lockfile.base_image().platform == "linux/amd64");
    REQUIRE(lockfile.base_image().carries);
    const lock::BaseCarries& carries = *lockfile.base_image().carries;
    REQUIRE(carries.cuda);
    CHECK(carries.cuda->value.text() == "11.8.0");
    CHECK(carries.cuda->origin == "env CUDA_VERSION");
    CHECK_FALSE(carries.cudnn);
    REQUIRE(carries.nccl);
    CHECK(carries.nccl->value.text() == "2.15.5");
    CHECK(carries.nccl->origin == "env NV_LIBNCCL_PACKAGE_VERSION");
    CHECK_FALSE(carries.python);
    REQUIRE(lockfile.image().files.size() == 1);
    CHECK(lockfile.image().files[0].mode == 0755);
    REQUIRE(lockfile.packages());
    REQUIRE(lockfile.packages()->size() == 2);
    CHECK(lockfile.packages()->at(0).size == 18300000);
    CHECK(lockfile.packages()->at(1).size == std::nullopt);
    REQUIRE(lockfile.python().runtime);
    CHECK(lockfile.python().runtime->sha256 == std::string(64, 'c'));
    CHECK(lockfile.validation().tiers == std::vector<std::string> { "static", "gpu" });
    CHECK(lockfile.validation().thresholds.bandwidth_min_fraction == 0.75);
    CHECK(lockfile.validation().thresholds.gemm_min_fraction == 0.5);
    REQUIRE(lockfile.warnings().size() == 1);
    CHECK(lockfile.warnings()[0].code == "gpu-cubin-compatible");
    REQUIRE(lockfile.host());
    CHECK(lockfile.host()->driver->text() == "535.104.05");
    CHECK(lockfile.host()->gpus == std::vector<std::string> { "NVIDIA H100 80GB HBM3", "8.9" });
    REQUIRE(lockfile.stack().gpus.size() == 4); // the profile's and the host's
    CHECK(lockfile.stack().gpus[0].verdict == Verdict::ok);
    CHECK(lockfile.stack().companions.empty()); // the shipped locks have them
}

TEST_CASE("pinning the base and locking the packages are written and change the digest", "[lock]")
{
    lock::Lockfile lockfile = lock_shipped("pytorch-2.1-cu118");
    Digest before = lockfile.digest();
    CHECK_FALSE(json_of(lockfile).at("base_image").contains("carries"));
    lock::BaseCarries carries { resolve::BaseFact<CudaVersion> { CudaVersion::parse("11.8.0"), "env CUDA_VERSION" },
        resolve::BaseFact<CudnnVersion> { CudnnVersion::parse("8.9.6.50"), "env NV_CUDNN_VERSION" }, std::nullopt,
        resolve::BaseFact<PythonVersion> { PythonVersion::parse("3.11.9"), "env PYTHON_VERSION" } };
    lockfile.pin_base(Digest::from_hex(std::string(64, 'a')), Digest::from_hex(std::string(64, 'b')), carries);
    lockfile.set_packages({});
    nlohmann::json json = json_of(lockfile);
    CHECK(json.at("base_image").at("digest") == "sha256:" + std::string(64, 'a'));
    CHECK(json.at("base_image").at("manifest") == "sha256:" + std::string(64, 'b'));
    CHECK(json.at("base_image").at("carries")
        == nlohmann::json::parse(R"({"cuda": {"version": "11.8.0", "origin": "env CUDA_VERSION"},
            "cudnn": {"version": "8.9.6.50", "origin": "env NV_CUDNN_VERSION"}, "nccl": null,
            "python": {"version": "3.11.9", "origin": "env PYTHON_VERSION"}})"));
    CHECK(json.at("packages") == nlohmann::json::array());
    CHECK(lockfile.digest() != before);
    CHECK(lock::Lockfile::parse("x.lock.json", lockfile.text()).text() == lockfile.text());
}

TEST_CASE("the base's warnings are recorded after the resolution's and change the digest", "[lock]")
{
    lock::Lockfile lockfile = lock_shipped("pytorch-2.1-cu118");
    std::vector<lock::LockedWarning> before = lockfile.warnings();
    Digest digest = lockfile.digest();
    lockfile.add_warnings({ { "base-cuda", Verdict::ok, "fits", "rule" },
        { "base-cudnn", Verdict::warn, "an older cuDNN", "cuDNN's rule" } });
    REQUIRE(lockfile.warnings().size() == before.size() + 1);
    CHECK(lockfile.warnings().back().code == "base-cudnn");
    CHECK(lockfile.warnings().back().message == "an older cuDNN");
    CHECK(lockfile.warnings().back().source == "cuDNN's rule");
    CHECK(lockfile.digest() != digest);
    CHECK(lock::Lockfile::parse("x.lock.json", lockfile.text()).text() == lockfile.text());
}

TEST_CASE("a profile's acceptance settings are written whole into validation.acceptance and read back", "[lock]")
{
    CHECK_FALSE(json_of(lock_shipped("pytorch-2.1-cu118")).at("validation").contains("acceptance"));
    lock::Lockfile lockfile = lock_with_acceptance();
    CHECK(json_of(lockfile).at("validation").at("acceptance") == nlohmann::json::parse(R"({
        "model": "resnet18", "batch_size": 128, "image_size": 224, "num_workers": 16, "prefetch_factor": 2,
        "steps": 50, "warmup": 5, "synthetic_images": 1280, "synthetic_size": 256, "gpu_utilization_min": 0.85,
        "data_wait_max_fraction": 0.1})"));
    lock::Lockfile read = lock::Lockfile::parse("x.lock.json", lockfile.text());
    CHECK(read.text() == lockfile.text());
    REQUIRE(read.validation().acceptance);
    CHECK(read.validation().acceptance->model == "resnet18");
    CHECK(read.validation().acceptance->num_workers == 16);
    CHECK(read.validation().acceptance->data_wait_max_fraction == 0.1);
    CHECK(read.validation().acceptance->gpu_utilization_min == 0.85);
}

TEST_CASE("a lock's validation.acceptance is read checked: bounds, unknown fields, fields left out", "[lock]")
{
    nlohmann::json json = json_of(lock_with_acceptance());
    const std::vector<std::tuple<std::string, nlohmann::json, std::string>> bad = {
        { "/validation/acceptance/batch_size", 0,
            "x.lock.json: validation.acceptance.batch_size: expected 1 to 65536, got 0" },
        { "/validation/acceptance/gpu_utilization_min", "high",
            "x.lock.json: validation.acceptance.gpu_utilization_min: expected a number, got \"high\" (string)" },
        { "/validation/acceptance/model", "../x",
            "x.lock.json: validation.acceptance.model: \"../x\" is not a torchvision.models name" },
        { "/validation/acceptance/command", nlohmann::json::array({ "python3", "train.py" }),
            "x.lock.json: validation.acceptance.command: unknown field" },
        { "/validation/acceptance", 3, "x.lock.json: validation.acceptance: expected an object, got 3 (number)" },
    };
    for (const auto& [pointer, value, message] : bad) {
        nlohmann::json edited = json;
        edited[nlohmann::json::json_pointer(pointer)] = value;
        CHECK_THROWS_WITH(signed_lock(edited), message);
    }
    nlohmann::json without_steps = json;
    without_steps.at("validation").at("acceptance").erase("steps");
    CHECK_THROWS_WITH(signed_lock(without_steps), "x.lock.json: validation: not written the way this dlenv writes it");
}

TEST_CASE("a pinned lock without what its base carries, as an older dlenv wrote it, writes the same bytes", "[lock]")
{
    std::string path = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/lock/every_section.lock.json";
    nlohmann::json json = nlohmann::json::parse(read_file(path));
    json.at("base_image").erase("carries");
    std::string text = resigned_lock(json);
    lock::Lockfile lockfile = lock::Lockfile::parse("x.lock.json", text);
    CHECK(lockfile.base_image().manifest);
    CHECK_FALSE(lockfile.base_image().carries);
    CHECK(lockfile.text() == text);
}

TEST_CASE("what the base carries is read checked: unknown fields, versions, facts written otherwise", "[lock]")
{
    nlohmann::json json = nlohmann::json::parse(
        read_file(std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/lock/every_section.lock.json"));
    const std::vector<std::tuple<std::string, nlohmann::json, std::string>> bad = {
        { "/base_image/carries/rocm", nullptr, "x.lock.json: base_image.carries.rocm: unknown field" },
        { "/base_image/carries/cuda/version", "eleven",
            "x.lock.json: base_image.carries.cuda.version: 'eleven' is not a CUDA version" },
        { "/base_image/carries/cuda/by", "me", "x.lock.json: base_image.carries.cuda.by: unknown field" },
        { "/base_image/carries/nccl", nlohmann::json::object(),
            "x.lock.json: base_image.carries.nccl.version: missing" },
        { "/base_image/carries/python", "3.11",
            "x.lock.json: base_image.carries.python: expected an object, got "
            "\"3.11\" (string)" },
        { "/base_image/carries", nullptr, "x.lock.json: base_image: not written the way this dlenv writes it" },
    };
    for (const auto& [pointer, value, message] : bad) {
        nlohmann::json edited = json;
        edited[nlohmann::json::json_pointer(pointer)] = value;
        CHECK_THROWS_WITH(signed_lock(edited), message);
    }
    nlohmann::json without_python = json;
    without_python.at("base_image").at("carries").erase("python");
    CHECK_THROWS_WITH(signed_lock(without_python), "x.lock.json: base_image: not written the way this dlenv writes it");
}

TEST_CASE("a lock is checked whole when read: unknown fields, wrong types, values written otherwise", "[lock]")
{
    nlohmann::json json = json_of(lock_shipped("pytorch-2.1-cu118"));
    const std::vector<std::tuple<std::string, nlohmann::json, std::string>> bad = {
        { "/extra", 1, "x.lock.json: extra: unknown field" },
        { "/stack/framework/build", "x", "x.lock.json: stack.framework.build: unknown field" },
        { "/validation/thresholds/gemm_min_fraction", "high",
            "x.lock.json: validation.thresholds.gemm_min_fraction: expected a number, got \"high\" (string)" },
        { "/base_image/digest", "latest", "x.lock.json: base_image.digest: not a sha256 digest: \"latest\"" },
        { "/stack/gpus/0/verdict", "fine",
            "x.lock.json: stack.gpus[0].verdict: expected \"ok\", \"warning\" or \"error\"" },
        { "/host", nlohmann::json({ { "driver", "535.104.05" }, { "gpus", 3 } }),
            "x.lock.json: host.gpus: expected an array, got 3 (number)" },
        { "/stack/arch_list/0", "sm_37", "x.lock.json: stack: not written the way this dlenv writes it" },
        { "/validation/thresholds/gemm_min_fraction", 1,
            "x.lock.json: validation: not written the way this dlenv writes it" },
    };
    for (const auto& [pointer, value, message] : bad) {
        nlohmann::json edited = json;
        edited[nlohmann::json::json_pointer(pointer)] = value;
        CHECK_THROWS_WITH(signed_lock(edited), message);
    }
    nlohmann::json without_packages = json;
    without_packages.erase("packages");
    CHECK_THROWS_WITH(signed_lock(without_packages), "x.lock.json: packages: missing");
}
