#include "core/error.h"
#include "matrix/matrix.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using namespace dlenv;
using namespace dlenv::matrix;

namespace {

// The rows of profiles/compat/ as the JSON loader reads them, the way `--matrix` does.
const Matrix& parsed()
{
    static const Matrix m = Matrix::load_directory(std::string(DLENV_SOURCE_DIR) + "/profiles/compat");
    return m;
}

} // namespace

TEST_CASE("the built-in matrices hold exactly the rows the JSON files give, file by file", "[matrix][image]")
{
    const Matrix& built_in = Matrix::embedded();
    const Matrix& json = parsed();
    CHECK(built_in.sha256() == json.sha256());
    SECTION("cuda.json")
    {
        CHECK(built_in.toolkits() == json.toolkits());
        CHECK(built_in.minor_version_floors() == json.minor_version_floors());
        CHECK(built_in.forward_compatibility() == json.forward_compatibility());
        CHECK(built_in.driver_branches() == json.driver_branches());
        CHECK(built_in.architectures() == json.architectures());
    }
    SECTION("driver_releases.json")
    {
        CHECK(built_in.driver_releases() == json.driver_releases());
    }
    SECTION("cudnn.json")
    {
        CHECK(built_in.cudnn_releases() == json.cudnn_releases());
        CHECK(built_in.cudnn_libraries() == json.cudnn_libraries());
    }
    SECTION("torch.json")
    {
        CHECK(built_in.torch_releases() == json.torch_releases());
    }
    SECTION("tensorflow.json")
    {
        CHECK(built_in.tensorflow_releases() == json.tensorflow_releases());
    }
    SECTION("jax.json")
    {
        CHECK(built_in.jax_releases() == json.jax_releases());
    }
    SECTION("gpus.json")
    {
        CHECK(built_in.gpus() == json.gpus());
    }
    SECTION("nvidia_require_cuda.json")
    {
        CHECK(built_in.nvidia_image_releases() == json.nvidia_image_releases());
    }
    SECTION("cuda_components.json")
    {
        CHECK(built_in.cuda_components() == json.cuda_components());
    }
    SECTION("python_runtimes.json")
    {
        CHECK(built_in.python_runtimes() == json.python_runtimes());
    }
    SECTION("every table at once")
    {
        CHECK(built_in == json);
    }
}

TEST_CASE("the built-in image is the image of the JSON rows, and reads back to the same bytes", "[matrix][image]")
{
    // Versions travel as written ("11.8" stays "11.8", not "11.8.0"), which == alone cannot see.
    std::string image(embedded_matrix_image());
    CHECK(parsed().image() == image);
    CHECK(Matrix::from_image(image).image() == image);
    CHECK(Matrix::embedded().toolkits().front().version.text() == parsed().toolkits().front().version.text());
}

TEST_CASE("a matrix with one fact changed is neither equal to the built-in one nor has its image", "[matrix][image]")
{
    auto files = matrix_files({});
    auto doc = nlohmann::json::parse(files.at("torch.json"));
    auto& variant = doc["releases"][0]["variants"][0];
    REQUIRE(variant.contains("tag"));
    variant["tag"] = variant["tag"].get<std::string>() + "x";
    files["torch.json"] = doc.dump(2);
    Matrix changed = Matrix::load(files, "m");
    CHECK_FALSE(changed == Matrix::embedded());
    CHECK(changed.torch_releases() != Matrix::embedded().torch_releases());
    CHECK(changed.toolkits() == Matrix::embedded().toolkits());
    CHECK(changed.image() != std::string(embedded_matrix_image()));
}

TEST_CASE("a cut or padded image is refused", "[matrix][image]")
{
    std::string image(embedded_matrix_image());
    CHECK_THROWS_WITH(Matrix::from_image(image.substr(0, image.size() - 1)), "the built-in matrix image is truncated");
    CHECK_THROWS_WITH(Matrix::from_image(image + '\0'), "the built-in matrix image has bytes past its end");
}
