#include "core/file.h"
#include "support/scratch.h"
#include "verify/import_checks.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

std::string described(const Finding& finding)
{
    return finding.code + " " + std::string(to_string(finding.verdict)) + ": " + finding.message;
}

verify::Promises torch_promises()
{
    verify::Promises promises;
    promises.packages = { { "torch", "2.1.2+cu118" }, { "nvidia-cudnn-cu11", "8.7.0.84" } };
    promises.framework = "torch";
    promises.framework_name = "torch";
    return promises;
}

std::vector<verify::ImportPlan> torch_plans()
{
    return { { { "torch", "2.1.2+cu118" }, { "functorch", "torch" } },
        { { "nvidia-cudnn-cu11", "8.7.0.84" }, { "nvidia.cudnn" } } };
}

std::vector<Finding> judged(const std::vector<verify::ImportResult>& results)
{
    std::vector<Finding> findings;
    verify::judge_imports(torch_plans(), results, "exit status 139", torch_promises(), findings);
    return findings;
}

} // namespace

TEST_CASE("imports that work pass, naming their modules", "[verify][imports]")
{
    auto findings = judged({ { "functorch", "2.1.2+cu118", std::nullopt },
        { "nvidia.cudnn", std::nullopt, std::nullopt }, { "torch", "2.1.2+cu118", std::nullopt } });
    REQUIRE(findings.size() == 3);
    CHECK(described(findings[0]) == "package-import ok: torch 2.1.2+cu118 imports (functorch, torch)");
    CHECK(described(findings[1]) == "package-import ok: nvidia-cudnn-cu11 8.7.0.84 imports (nvidia.cudnn)");
    CHECK(described(findings[2]) == "framework-import ok: import torch works on the CPU and gives version 2.1.2+cu118");
}

TEST_CASE("a version without the pin's local label agrees with it", "[verify][imports]")
{
    auto findings = judged({ { "functorch", std::nullopt, std::nullopt },
        { "nvidia.cudnn", std::nullopt, std::nullopt }, { "torch", "2.1.2", std::nullopt } });
    CHECK(findings[0].verdict == Verdict::ok);
    CHECK(described(findings[2]) == "framework-import ok: import torch works on the CPU and gives version 2.1.2");
}

TEST_CASE("a failed import, another version and a module that never reported fail", "[verify][imports]")
{
    auto findings = judged({ { "functorch", std::nullopt, "ImportError: cannot import name '_C' from 'torch'" },
        { "torch", "2.1.0+cu118", std::nullopt } });
    REQUIRE(findings.size() == 3);
    CHECK(described(findings[0])
        == "package-import fail: torch 2.1.2+cu118: import functorch failed: ImportError: cannot import name '_C' "
           "from 'torch'; torch.__version__ is 2.1.0+cu118, the lock pins 2.1.2+cu118");
    CHECK(described(findings[1])
        == "package-import fail: nvidia-cudnn-cu11 8.7.0.84: import nvidia.cudnn did not report: exit status 139");
    CHECK(described(findings[2])
        == "framework-import fail: import torch gives version 2.1.0+cu118, the lock pins 2.1.2+cu118");
}

TEST_CASE("the framework's failed import names the exception", "[verify][imports]")
{
    auto findings = judged({ { "torch", std::nullopt, "ModuleNotFoundError: No module named 'torch'" } });
    CHECK(described(findings[2])
        == "framework-import fail: import torch failed: ModuleNotFoundError: No module named 'torch'");
}

TEST_CASE("a package with no module is skipped, and no framework pinned keeps its skip", "[verify][imports]")
{
    verify::Promises promises;
    promises.packages = { { "nvidia-nccl-cu11", "2.18.1" } };
    promises.framework_name = "torch";
    std::vector<Finding> findings;
    verify::judge_imports({ { { "nvidia-nccl-cu11", "2.18.1" }, {} } }, {}, "", promises, findings);
    REQUIRE(findings.size() == 2);
    CHECK(described(findings[0]) == "package-import unknown: nvidia-nccl-cu11 2.18.1 installs no module to import");
    CHECK(described(findings[1])
        == "framework-import unknown: the lock pins no torch package, so the image does not install it");
}

TEST_CASE("each framework beside the stack's own is imported and held to its pin", "[verify][imports]")
{
    verify::Promises promises = torch_promises();
    promises.packages.push_back({ "jax", "0.4.31" });
    promises.also = { "jax" };
    std::vector<Finding> findings;
    verify::judge_imports(
        {}, { { "torch", "2.1.2+cu118", std::nullopt }, { "jax", "0.4.30", std::nullopt } }, "", promises, findings);
    REQUIRE(findings.size() == 2);
    CHECK(described(findings[0]) == "framework-import ok: import torch works on the CPU and gives version 2.1.2+cu118");
    CHECK(described(findings[1]) == "framework-import fail: import jax gives version 0.4.30, the lock pins 0.4.31");
}

TEST_CASE("the probe's results are read from its lines only", "[verify][imports]")
{
    auto results
        = verify::read_import_results("loading...\n"
                                      "dlenv-import {\"module\": \"numpy\", \"version\": \"1.26.4\"}\n"
                                      "dlenv-import not json\n"
                                      "dlenv-import {\"module\": \"yaml\", \"error\": \"SyntaxError: bad\"}\n");
    REQUIRE(results.size() == 2);
    CHECK(results[0].module == "numpy");
    CHECK(results[0].version == "1.26.4");
    CHECK_FALSE(results[0].error);
    CHECK(results[1].module == "yaml");
    CHECK_FALSE(results[1].version);
    CHECK(results[1].error == "SyntaxError: bad");
}

TEST_CASE("the probe imports each module with python3 and reports each", "[verify][imports]")
{
    Scratch scratch;
    write_file_atomic(scratch / "probe.py", verify::k_import_probe);
    scratch.sh("mkdir -p site/loud site/broken\n"
               "printf 'print(\"hello\")\\n__version__ = \"1.0\"\\n' > site/loud/__init__.py\n"
               "printf 'import no_such_helper\\n' > site/broken/__init__.py\n"
               "cd site && PYTHONPATH=. python3 ../probe.py loud json broken missing > ../out 2>../err\n");
    auto results = verify::read_import_results(read_file(scratch / "out"));
    REQUIRE(results.size() == 4);
    CHECK(results[0].module == "loud");
    CHECK(results[0].version == "1.0");
    CHECK(results[1].module == "json");
    CHECK_FALSE(results[1].error);
    CHECK(results[2].error == "ModuleNotFoundError: No module named 'no_such_helper'");
    CHECK(results[3].error == "ModuleNotFoundError: No module named 'missing'");
    CHECK(read_file(scratch / "err") == "hello\n");
}

TEST_CASE("a package the image lacks is planned by its normalised name", "[verify][imports]")
{
    Scratch scratch;
    scratch.sh(
        "mkdir -p rootfs/usr/lib/python3/dist-packages/filelock-3.13.1.dist-info\n"
        "printf 'Name: filelock\\nVersion: 3.13.1\\n' > "
        "rootfs/usr/lib/python3/dist-packages/filelock-3.13.1.dist-info/METADATA\n"
        "printf 'filelock/__init__.py,,\\n' > rootfs/usr/lib/python3/dist-packages/filelock-3.13.1.dist-info/RECORD\n");
    auto plans
        = verify::plan_imports(scratch / "rootfs", { { "filelock", "3.13.1" }, { "Typing-Extensions", "4.9.0" } });
    REQUIRE(plans.size() == 2);
    CHECK(plans[0].modules == std::vector<std::string> { "filelock" });
    CHECK(plans[1].modules == std::vector<std::string> { "typing_extensions" });
}
