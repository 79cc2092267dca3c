#include "core/error.h"
#include "image/dockerfile.h"
#include "image/dockerfile_system.h"
#include "lock/package_plan.h"
#include "matrix/matrix.h"
#include "resolve/stack.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

lock::LockedDeb deb(const std::string& name, std::vector<std::string> required_by)
{
    std::string filename = name + "_1.0-1_amd64.deb";
    return { name, "1.0-1", "amd64", filename, "http://127.0.0.1:8080/pool/main/" + filename, 10,
        std::string(64, name[0]), "bookworm/main", std::move(required_by) };
}

// A lock whose system packages pre-depend in a chain (python3 on python3-minimal on
// python3.11-minimal, as Debian 12's do) and depend in a cycle (libcycle-a, libcycle-b).
lock::Lockfile lock_with_system_packages()
{
    const auto& matrix = matrix::Matrix::embedded();
    resolve::Profile profile = resolve::Profile::parse("debian.json",
        R"({"format": "dlenv.profile/v1", "name": "debian", "python": "3.11", "base_image": "debian:bookworm",
            "framework": {"name": "torch", "version": "2.1", "cuda": "11.8"}})");
    auto resolution = resolve::resolve_profile(matrix, profile, {});
    REQUIRE(resolution.stack);
    auto lock = lock::Lockfile::from_stack(profile, matrix.sha256(), {}, *resolution.stack, resolution.report,
        lock::package_sources(profile, *resolution.stack), "debian.lock.json");
    lock::SystemPackagesSection section { { "python3" }, "amd64",
        { "http://127.0.0.1:8080", { "bookworm" }, { "main" }, "profile system_archive", {} }, std::string(64, '0'), {},
        { deb("libcycle-a", { "libcycle-b", "python3" }), deb("libcycle-b", { "libcycle-a" }),
            deb("python3", { "profile" }), deb("python3-minimal", { "python3" }),
            deb("python3.11-minimal", { "python3-minimal" }) } };
    lock.set_system_packages(section);
    return lock;
}

std::vector<std::vector<std::string>> names(const std::vector<std::vector<lock::LockedDeb>>& groups)
{
    std::vector<std::vector<std::string>> out;
    for (const auto& group : groups) {
        out.emplace_back();
        for (const auto& each : group)
            out.back().push_back(each.name);
    }
    return out;
}

} // namespace

TEST_CASE("dpkg installs each group of system packages after what it depends and pre-depends on", "[image]")
{
    lock::Lockfile lock = lock_with_system_packages();
    CHECK(names(image::install_groups(lock))
        == std::vector<std::vector<std::string>> {
            { "libcycle-a", "libcycle-b", "python3.11-minimal" }, { "python3-minimal" }, { "python3" } });
    std::string dockerfile = image::render_dockerfile(lock, matrix::Matrix::embedded(), std::nullopt);
    CHECK_THAT(dockerfile,
        Catch::Contains(
            "# The lock's 5 system packages from http://127.0.0.1:8080, installed by the image's own dpkg\n"));
    CHECK_THAT(dockerfile,
        Catch::Contains("RUN --mount=type=bind,source=debs,target=/tmp/dlenv-debs cd /tmp/dlenv-debs \\\n"
                        "    && sha256sum --check --strict --quiet SHA256SUMS \\\n"
                        "    && DEBIAN_FRONTEND=noninteractive dpkg --install libcycle-a_1.0-1_amd64.deb "
                        "libcycle-b_1.0-1_amd64.deb python3.11-minimal_1.0-1_amd64.deb \\\n"
                        "    && DEBIAN_FRONTEND=noninteractive dpkg --install python3-minimal_1.0-1_amd64.deb \\\n"
                        "    && DEBIAN_FRONTEND=noninteractive dpkg --install python3_1.0-1_amd64.deb \\\n"
                        "    && dpkg --triggers-only --pending\n\n"
                        "# The lock pins no files."));
}

TEST_CASE("a lock without system packages renders no dpkg step and writes no debs", "[image]")
{
    lock::Lockfile lock = lock_with_system_packages();
    lock::SystemPackagesSection none = *lock.system_packages();
    none.packages.clear();
    lock.set_system_packages(none);
    CHECK(image::install_groups(lock).empty());
    CHECK_THAT(image::render_dockerfile(lock, matrix::Matrix::embedded(), std::nullopt),
        Catch::Contains("# The lock pins no system packages.\n"));
    Scratch scratch;
    image::write_context_debs(lock, nullptr, scratch / "debs");
    CHECK(!std::filesystem::exists(scratch / "debs"));
}

TEST_CASE("the context's .debs come from the store, or the error says to fetch them", "[image]")
{
    lock::Lockfile lock = lock_with_system_packages();
    Scratch scratch;
    try {
        image::write_context_debs(lock, nullptr, scratch / "debs");
        FAIL("wrote a context without its .debs");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::not_found);
        CHECK(e.message()
            == "copy libcycle-a_1.0-1_amd64.deb into the build context: the store has no artifact sha256:"
                + std::string(64, 'l'));
        CHECK(e.hint() == "run `dlenv fetch` with the lock first, where the archive can be reached");
    }
}
