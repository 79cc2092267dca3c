#include "core/file.h"
#include "support/scratch.h"
#include "verify/dist_info.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

// A dist-info directory under the image's `site` with a METADATA and the given files.
void make_dist_info(const Scratch& scratch, const std::string& site, const std::string& dist_info,
    const std::vector<std::pair<std::string, std::string>>& files)
{
    std::filesystem::path dir = scratch / ("rootfs" + site + "/" + dist_info);
    std::filesystem::create_directories(dir);
    std::string name = dist_info.substr(0, dist_info.find('-'));
    std::string version = dist_info.substr(name.size() + 1, dist_info.size() - name.size() - 11);
    write_file_atomic(
        dir / "METADATA", "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\n\nText\n");
    for (const auto& [file, text] : files)
        write_file_atomic(dir / file, text);
}

const std::string k_site = "/usr/local/lib/python3.11/site-packages";

} // namespace

TEST_CASE("site directories are site-packages and dist-packages alike", "[verify][dist-info]")
{
    Scratch scratch;
    scratch.sh("mkdir -p rootfs/usr/local/lib/python3.11/site-packages rootfs/usr/local/lib/python3.11/dist-packages\n"
               "mkdir -p rootfs/usr/lib/python3/dist-packages rootfs/usr/lib/python3.11\n");
    CHECK(verify::site_dirs(scratch / "rootfs")
        == std::vector<std::string> { "/usr/lib/python3/dist-packages", "/usr/local/lib/python3.11/dist-packages",
            "/usr/local/lib/python3.11/site-packages" });
}

TEST_CASE("a distribution is found by its normalised name", "[verify][dist-info]")
{
    Scratch scratch;
    make_dist_info(scratch, "/usr/lib/python3/dist-packages", "typing_extensions-4.9.0.dist-info", {});
    auto sites = verify::site_dirs(scratch / "rootfs");
    auto found = verify::find_dist_info(scratch / "rootfs", sites, "Typing.Extensions");
    REQUIRE(found);
    CHECK(*found == "/usr/lib/python3/dist-packages/typing_extensions-4.9.0.dist-info");
    CHECK(verify::dist_info_version(scratch / "rootfs", *found) == "4.9.0");
    CHECK_FALSE(verify::find_dist_info(scratch / "rootfs", sites, "typing"));
}

TEST_CASE("top_level.txt names the modules, each kept only when the RECORD holds it", "[verify][dist-info]")
{
    Scratch scratch;
    // torch 2.1's wheel: three top-level packages, and a console script outside the site.
    make_dist_info(scratch, k_site, "torch-2.1.2+cu118.dist-info",
        { { "top_level.txt", "functorch\ntorch\ntorchgen\n" },
            { "RECORD",
                "functorch/__init__.py,sha256=a,1\ntorch/__init__.py,sha256=b,2\ntorch/_C.cpython-311-x86_64-linux-"
                "gnu.so,sha256=c,3\ntorchgen/__init__.py,sha256=d,4\n../../../bin/torchrun,sha256=e,5\n"
                "torch-2.1.2+cu118.dist-info/RECORD,,\n" } });
    CHECK(verify::dist_info_modules(scratch / "rootfs", k_site + "/torch-2.1.2+cu118.dist-info")
        == std::vector<std::string> { "functorch", "torch", "torchgen" });
}

TEST_CASE("without top_level.txt the RECORD's packages, modules and extensions are the modules", "[verify][dist-info]")
{
    Scratch scratch;
    make_dist_info(scratch, k_site, "typing_extensions-4.9.0.dist-info",
        { { "RECORD",
            "typing_extensions.py,sha256=a,1\n__pycache__/typing_extensions.cpython-311.pyc,,\n"
            "typing_extensions-4.9.0.dist-info/RECORD,,\n" } });
    make_dist_info(scratch, k_site, "pyyaml-6.0.1.dist-info",
        { { "RECORD",
            "_yaml/__init__.py,sha256=a,1\nyaml/__init__.py,sha256=b,2\n"
            "yaml/_yaml.cpython-311-x86_64-linux-gnu.so,sha256=c,3\n" } });
    make_dist_info(scratch, k_site, "ujson-5.9.0.dist-info",
        { { "RECORD", "ujson.cpython-311-x86_64-linux-gnu.so,sha256=a,1\nujson-5.9.0.dist-info/METADATA,,\n" } });
    auto modules = [&](const std::string& dist_info) {
        return verify::dist_info_modules(scratch / "rootfs", k_site + "/" + dist_info);
    };
    CHECK(modules("typing_extensions-4.9.0.dist-info") == std::vector<std::string> { "typing_extensions" });
    CHECK(modules("pyyaml-6.0.1.dist-info") == std::vector<std::string> { "_yaml", "yaml" });
    CHECK(modules("ujson-5.9.0.dist-info") == std::vector<std::string> { "ujson" });
}

TEST_CASE("a namespace package stands for its subpackages, and data alone is no module", "[verify][dist-info]")
{
    Scratch scratch;
    // The nvidia-* wheels: nvidia/ has no __init__.py, nvidia/cudnn/ has one.
    make_dist_info(scratch, k_site, "nvidia_cudnn_cu12-8.9.2.26.dist-info",
        { { "top_level.txt", "nvidia\n" },
            { "RECORD",
                "nvidia/cudnn/__init__.py,sha256=a,0\nnvidia/cudnn/lib/__init__.py,sha256=a,0\n"
                "nvidia/cudnn/lib/libcudnn.so.8,sha256=b,2\n" } });
    make_dist_info(scratch, k_site, "fonts-1.0.dist-info", { { "RECORD", "fonts/data/a.ttf,sha256=a,1\n" } });
    CHECK(verify::dist_info_modules(scratch / "rootfs", k_site + "/nvidia_cudnn_cu12-8.9.2.26.dist-info")
        == std::vector<std::string> { "nvidia.cudnn" });
    CHECK(verify::dist_info_modules(scratch / "rootfs", k_site + "/fonts-1.0.dist-info").empty());
}

TEST_CASE("without top_level.txt or RECORD the normalised name is the module", "[verify][dist-info]")
{
    Scratch scratch;
    make_dist_info(scratch, k_site, "Typing_Extensions-4.9.0.dist-info", {});
    CHECK(verify::dist_info_modules(scratch / "rootfs", k_site + "/Typing_Extensions-4.9.0.dist-info")
        == std::vector<std::string> { "typing_extensions" });
}
