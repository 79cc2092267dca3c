#include "core/file.h"
#include "image/image_labels.h"
#include "lock/lockfile.h"
#include "matrix/matrix.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace dlenv;

namespace {

lock::Lockfile shipped_lock(const std::string& profile)
{
    std::string file = std::string(DLENV_SOURCE_DIR) + "/lockfiles/" + profile + ".lock.json";
    return lock::Lockfile::parse(file, read_file(file));
}

std::string require_cuda_of(const std::string& profile)
{
    return image::nvidia_require_cuda(shipped_lock(profile), matrix::Matrix::embedded());
}

// The amd64 values of NVIDIA's base Dockerfiles, dist/11.8.0 and dist/12.1.1 of
// gitlab.com/nvidia/container-images/cuda at commit 7ad4b0af70e5.
const std::string k_nvidia_118 = "cuda>=11.8 brand=tesla,driver>=470,driver<471 brand=unknown,driver>=470,driver<471 "
                                 "brand=nvidia,driver>=470,driver<471 brand=nvidiartx,driver>=470,driver<471 "
                                 "brand=geforce,driver>=470,driver<471 brand=geforcertx,driver>=470,driver<471 "
                                 "brand=quadro,driver>=470,driver<471 brand=quadrortx,driver>=470,driver<471 "
                                 "brand=titan,driver>=470,driver<471 brand=titanrtx,driver>=470,driver<471";
const std::string k_nvidia_121 = "cuda>=12.1 brand=tesla,driver>=470,driver<471 brand=unknown,driver>=470,driver<471 "
                                 "brand=nvidia,driver>=470,driver<471 brand=nvidiartx,driver>=470,driver<471 "
                                 "brand=geforce,driver>=470,driver<471 brand=geforcertx,driver>=470,driver<471 "
                                 "brand=quadro,driver>=470,driver<471 brand=quadrortx,driver>=470,driver<471 "
                                 "brand=titan,driver>=470,driver<471 brand=titanrtx,driver>=470,driver<471 "
                                 "brand=tesla,driver>=525,driver<526 brand=unknown,driver>=525,driver<526 "
                                 "brand=nvidia,driver>=525,driver<526 brand=nvidiartx,driver>=525,driver<526 "
                                 "brand=geforce,driver>=525,driver<526 brand=geforcertx,driver>=525,driver<526 "
                                 "brand=quadro,driver>=525,driver<526 brand=quadrortx,driver>=525,driver<526 "
                                 "brand=titan,driver>=525,driver<526 brand=titanrtx,driver>=525,driver<526";

} // namespace

TEST_CASE("an image's NVIDIA_REQUIRE_CUDA is NVIDIA's own for the lock's CUDA line, character for character", "[image]")
{
    CHECK(require_cuda_of("pytorch-2.1-cu118") == k_nvidia_118);
    CHECK(require_cuda_of("tensorflow-2.14-cu118") == k_nvidia_118);
    CHECK(require_cuda_of("pytorch-2.1-cu121") == k_nvidia_121);
    // a 12.4.0 build takes the images of the 12.4 line, which NVIDIA ships as 12.4.1
    CHECK(require_cuda_of("pytorch-2.4-cu124").starts_with("cuda>=12.4 brand=tesla,driver>=470,driver<471 "));
}

TEST_CASE("every CUDA line the matrix has NVIDIA's images of gives their amd64 value", "[image]")
{
    const matrix::Matrix& matrix = matrix::Matrix::embedded();
    REQUIRE(matrix.nvidia_image_releases().size() >= 9);
    for (const auto& release : matrix.nvidia_image_releases()) {
        CAPTURE(release.cuda.text());
        const matrix::NvidiaRequireCuda* amd64 = release.require_cuda_for("amd64");
        REQUIRE(amd64);
        CHECK(amd64->value.starts_with("cuda>=" + release.cuda.truncated(2).text()));
        CHECK(matrix.nvidia_image_release(release.cuda.truncated(2))->require_cuda_for("amd64")->value
            == matrix.nvidia_image_release(release.cuda)->require_cuda_for("amd64")->value);
    }
}

TEST_CASE("a CUDA line NVIDIA no longer builds carries the value of its last Dockerfiles of it", "[image]")
{
    // dist/12.3.2/ubuntu2204/base/Dockerfile at e4936aab9d26, before NVIDIA removed the line:
    // 12.1's R470 and R525 for every brand, and R535
    const std::string r535 = "brand=tesla,driver>=535,driver<536 brand=unknown,driver>=535,driver<536 "
                             "brand=nvidia,driver>=535,driver<536 brand=nvidiartx,driver>=535,driver<536 "
                             "brand=geforce,driver>=535,driver<536 brand=geforcertx,driver>=535,driver<536 "
                             "brand=quadro,driver>=535,driver<536 brand=quadrortx,driver>=535,driver<536 "
                             "brand=titan,driver>=535,driver<536 brand=titanrtx,driver>=535,driver<536";
    CHECK(require_cuda_of("tensorflow-2.17-cu123")
        == "cuda>=12.3" + k_nvidia_121.substr(std::string("cuda>=12.1").size()) + " " + r535);
}

TEST_CASE("an end-of-life CUDA 11 line carries the value of NVIDIA's last Dockerfiles of it", "[image]")
{
    // dist/11.7.1/ubuntu2004/base/Dockerfile at 7ad4b0af70e5: R470 for every brand, as for 11.8
    CHECK(
        require_cuda_of("pytorch-1.13-cu117") == "cuda>=11.7" + k_nvidia_118.substr(std::string("cuda>=11.8").size()));
}

TEST_CASE("an image of a lock with frameworks beside its own names each of them in a label", "[image]")
{
    auto labels = image::image_labels(shipped_lock("pytorch-2.4-jax-0.4-cu121"));
    CHECK(labels.at("dev.dlenv.framework") == "torch 2.4.1+cu121");
    CHECK(labels.at("dev.dlenv.framework.also") == "jax 0.4.31");
    CHECK(labels.at("dev.dlenv.arch_list") == "5.0 6.0 7.0 7.5 8.0 8.6 9.0"); // torch's: JAX's is not on record
}

TEST_CASE("an image of a lock of one framework has the labels it always had", "[image]")
{
    std::vector<std::string> keys;
    for (const auto& [key, value] : image::image_labels(shipped_lock("jax-0.6-cu12")))
        keys.push_back(key);
    CHECK(keys
        == std::vector<std::string> { "dev.dlenv.cuda", "dev.dlenv.cudnn", "dev.dlenv.driver.min",
            "dev.dlenv.driver.minor_version_min", "dev.dlenv.framework", "dev.dlenv.lock.digest", "dev.dlenv.python",
            "org.opencontainers.image.title" });
    for (const auto& profile : { "pytorch-2.1-cu118", "tensorflow-2.17-cu123", "pytorch-2.7-cu128" })
        CHECK_FALSE(image::image_labels(shipped_lock(profile)).contains("dev.dlenv.framework.also"));
}
