#include "core/error.h"
#include "resolve/profile.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

const char* k_good = R"({
  "format": "dlenv.profile/v1",
  "name": "team",
  "framework": {"name": "torch", "version": "2.1", "cuda": "11.8"},
  "python": "3.10",
  "companions": ["torchvision"],
  "base_image": "nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04"
})";

std::string with(const std::string& from, const std::string& to)
{
    std::string text = k_good;
    auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

} // namespace

TEST_CASE("a profile reads what a team wants, with defaults for validation", "[resolve][profile]")
{
    auto p = resolve::Profile::parse("team.json", k_good);
    CHECK(p.name == "team");
    CHECK(p.framework.text() == "torch==2.1");
    CHECK(p.cuda->text() == "11.8");
    CHECK(p.python.text() == "3.10");
    CHECK(p.companions == std::vector { resolve::Framework::torchvision });
    CHECK(p.validation_tiers == std::vector<std::string> { "static", "gpu", "framework" });
    CHECK(p.bandwidth_min_fraction == 0.8);
    CHECK(p.gemm_min_fraction == 0.6);
}

TEST_CASE("a profile's validation.acceptance is read with the acceptance settings' rules", "[resolve][profile]")
{
    CHECK_FALSE(resolve::Profile::parse("team.json", k_good).acceptance);
    const std::string base = R"("base_image": "nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04")";
    auto p = resolve::Profile::parse("team.json",
        with(base, base + R"(, "validation": {"acceptance": {"num_workers": 16, "gpu_utilization_min": 0.9}})"));
    REQUIRE(p.acceptance);
    CHECK(p.acceptance->model == "resnet50");
    CHECK(p.acceptance->batch_size == 128);
    CHECK(p.acceptance->num_workers == 16);
    CHECK(p.acceptance->gpu_utilization_min == 0.9);
    CHECK(p.acceptance->data_wait_max_fraction == 0.2);
    CHECK_THROWS_WITH(resolve::Profile::parse(
                          "team.json", with(base, base + R"(, "validation": {"acceptance": {"prefetch_factor": 0}})")),
        "team.json: validation.acceptance.prefetch_factor: expected 1 to 1024, got 0");
    CHECK_THROWS_WITH(resolve::Profile::parse("team.json",
                          with(base, base + R"(, "validation": {"acceptance": {"data_wait_max_fraction": 2}})")),
        "team.json: validation.acceptance.data_wait_max_fraction: expected a fraction from 0 to 1");
    CHECK_THROWS_WITH(
        resolve::Profile::parse("team.json", with(base, base + R"(, "validation": {"acceptance": {"batch": 64}})")),
        "team.json: validation.acceptance.batch: unknown field");
}

TEST_CASE("a malformed profile is refused naming the file, the field and what is expected", "[resolve][profile]")
{
    struct Case {
        std::string from, to, message, hint;
    };
    auto c = GENERATE(Case { R"("python": "3.10")", R"("pyhton": "3.10")", "team.json: pyhton: unknown field",
                          "did you mean \"python\"?" },
        Case { R"("version": "2.1")", R"("version": 2.1)",
            "team.json: framework.version: expected a string, got 2.1 (number)", "" },
        Case { R"("python": "3.10")", R"("python": "3")", "team.json: python: '3' is not a Python version",
            "write it as 3.10" },
        Case { R"("name": "torch")", R"("name": "pytorh")", "team.json: framework: unknown framework 'pytorh'",
            "did you mean torch? known: torch, torchvision, torchaudio, tensorflow and jax" },
        Case { R"("name": "torch")", R"("name": "pytorch")",
            "team.json: framework.name: 'pytorch' is read as torch by check",
            "a profile names the pip package: write \"name\": \"torch\"" },
        Case { R"("version": "2.1")", R"("version": "2.1.0rc1")",
            "team.json: framework.version: '2.1.0rc1' is a pre-release",
            "pin a release: the matrices hold the facts of releases" },
        Case { R"("companions": ["torchvision"])", R"("companions": ["torchtext"])",
            "team.json: companions[0]: unknown companion 'torchtext'", "companions are torchvision and torchaudio" },
        Case { R"("name": "team",)", "", "team.json: name: missing", "add the field \"name\"" },
        Case { R"("format": "dlenv.profile/v1")", R"("format": "dlenv.profile/v2")",
            "team.json: format: unknown format 'dlenv.profile/v2'", "this dlenv reads dlenv.profile/v1" },
        Case { R"("python": "3.10",)", R"("python": "3.10", "packages": {"machine": "arm64"},)",
            "team.json: packages.machine: unknown machine 'arm64'", "machines are x86_64 and aarch64" },
        Case { R"("python": "3.10",)", R"("python": "3.10", "packages": {"glibc": "2"},)",
            "team.json: packages.glibc: expected MAJOR.MINOR like \"2.35\", got \"2\"",
            "use the glibc of the base image: `ldd --version` in it" },
        Case { R"("python": "3.10",)", R"("python": "3.10", "packages": {"indexes": {"team": "pkgs.example/simple"}},)",
            "team.json: packages.indexes.team: expected the http(s) URL of a simple API, like https://pypi.org/simple/",
            "" },
        Case { R"("python": "3.10",)",
            R"("python": "3.10", "packages": {"python_runtime": {"url": "https://x.example/python.tar.gz",
                                                                  "sha256": "ABC"}},)",
            "team.json: packages.python_runtime.sha256: expected 64 lowercase hexadecimal digits",
            "copy it from the release's SHA256SUMS" },
        Case { R"("python": "3.10",)", R"("python": "3.11", "packages": {"python_runtime": "3.10"},)",
            "team.json: packages.python_runtime: CPython 3.10 is not the profile's python 3.11",
            "set python_runtime to \"3.11\", or python to \"3.10\"" },
        Case { R"("python": "3.10",)", R"("python": "3.10", "packages": {"python_runtime": "3.10.19"},)",
            "team.json: packages.python_runtime: expected CPython's X.Y, like \"3.10\"",
            "the matrix picks the newest python-build-standalone build of that minor" },
        Case { R"("name": "team")", R"("name": "Team App")", "team.json: name: invalid image name \"Team App\"",
            "use lowercase letters, digits and . _ - between them, with / between path components" },
        Case { R"("name": "team")", R"("name": "../../etc/cron.d/team")",
            "team.json: name: invalid image name \"../../etc/cron.d/team\"",
            "use lowercase letters, digits and . _ - between them, with / between path components" },
        Case { R"("python": "3.10",)",
            R"("python": "3.10", "files": [{"source": "a.py", "target": "/opt/dlenv/dlenv.lock.json"}],)",
            "team.json: files[0].target: /opt/dlenv belongs to dlenv (the lock and the validation kit); put the "
            "file elsewhere",
            "" },
        Case { R"("python": "3.10",)",
            R"("python": "3.10", "files": [{"source": ")" + std::string(300, 'a') + R"(", "target": "/app/a"}],)",
            "team.json: files[0].source: a component of the path is 300 bytes long; Linux allows 255", "" },
        Case { R"("python": "3.10",)",
            R"("python": "3.10", "files": [{"source": "a.py", "target": "/app/a.py", "mode": "rwx"}],)",
            "team.json: files[0].mode: expected an octal mode like \"0644\", got \"rwx\"", "" },
        Case { R"("python": "3.10",)",
            R"("python": "3.10", "description": )" + std::string(65, '[') + std::string(65, ']') + ",",
            "team.json: arrays and objects nest deeper than 64 levels",
            "dlenv reads JSON nested at most 64 levels deep; this is not a file it wrote or expects" },
        Case { R"("python": "3.10",)", R"("python": "3.10")",
            "team.json:6:14: not valid JSON: syntax error while "
            "parsing object - unexpected string literal; expected '}'",
            "fix the syntax at that position" });
    INFO(c.message);
    try {
        resolve::Profile::parse("team.json", with(c.from, c.to));
        FAIL("accepted a malformed profile");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(std::string(e.what()) == c.message);
        CHECK(e.hint() == c.hint);
    }
}

TEST_CASE("a profile's packages section sets the indexes, the target and a Python runtime", "[resolve][profile]")
{
    auto p = resolve::Profile::parse("team.json",
        with(R"("python": "3.10",)",
            R"("python": "3.10",
        "packages": {"indexes": {"team": "https://pkgs.example/simple/"}, "index_of": {"team-utils": "team"},
                     "machine": "aarch64", "glibc": "2.35",
                     "python_runtime": {"url": "https://x.example/cpython-3.10-install_only.tar.gz",
                                        "sha256": ")"
                + std::string(64, 'a') + R"("}},)"));
    CHECK(p.packages.indexes == std::map<std::string, std::string> { { "team", "https://pkgs.example/simple/" } });
    CHECK(p.packages.index_of == std::map<std::string, std::string> { { "team-utils", "team" } });
    CHECK(p.packages.machine == "aarch64");
    CHECK(p.packages.glibc_major == 2);
    CHECK(p.packages.glibc_minor == 35);
    REQUIRE(p.packages.python_runtime);
    CHECK(p.packages.python_runtime->url == "https://x.example/cpython-3.10-install_only.tar.gz");

    CHECK(p.packages.python_runtime->sha256 == std::string(64, 'a'));
    CHECK_FALSE(p.packages.python_runtime->standalone);

    auto standalone = resolve::Profile::parse(
        "team.json", with(R"("python": "3.10",)", R"("python": "3.10", "packages": {"python_runtime": "3.10"},)"));
    REQUIRE(standalone.packages.python_runtime);
    REQUIRE(standalone.packages.python_runtime->standalone);
    CHECK(standalone.packages.python_runtime->standalone->text() == "3.10");
    CHECK(standalone.packages.python_runtime->url.empty());

    auto defaults = resolve::Profile::parse("team.json", k_good);
    CHECK(defaults.packages.machine == "x86_64");
    CHECK(defaults.packages.glibc_minor == 28);
    CHECK_FALSE(defaults.packages.python_runtime);
}

TEST_CASE("an unknown profile name suggests the closest shipped ones", "[resolve][profile]")
{
    try {
        resolve::load_profile("pytorch-2.1-cu119");
        FAIL("found a profile that does not exist");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::not_found);
        CHECK(std::string(e.what()) == "no profile 'pytorch-2.1-cu119': neither a shipped profile nor a file");
        CHECK(e.hint().starts_with("did you mean pytorch-2.1-cu118"));
    }
}

TEST_CASE("every shipped profile parses", "[resolve][profile]")
{
    CHECK(resolve::shipped_profiles().size() == 13);
}
