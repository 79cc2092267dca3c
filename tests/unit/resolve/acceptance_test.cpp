#include "core/error.h"
#include "core/json_reader.h"
#include "resolve/acceptance.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

resolve::Acceptance read(const std::string& text)
{
    nlohmann::json json = JsonReader::parse_document("settings.json", text);
    return resolve::read_acceptance(JsonReader("settings.json", json));
}

} // namespace

TEST_CASE("acceptance settings: an empty object is the usual standard, given fields replace it", "[resolve]")
{
    resolve::Acceptance standard = read("{}");
    CHECK(standard.model == "resnet50");
    CHECK(standard.batch_size == 128);
    CHECK(standard.image_size == 224);
    CHECK(standard.num_workers == 8);
    CHECK(standard.prefetch_factor == 2);
    CHECK(standard.gpu_utilization_min == 0.85);
    CHECK(standard.data_wait_max_fraction == 0.2);
    resolve::Acceptance small = read(R"({"model": "resnet18", "batch_size": 2, "num_workers": 0,
        "data_wait_max_fraction": 0.1})");
    CHECK(small.model == "resnet18");
    CHECK(small.batch_size == 2);
    CHECK(small.num_workers == 0);
    CHECK(small.data_wait_max_fraction == 0.1);
    CHECK(small.steps == 50);
}

TEST_CASE("acceptance settings: out-of-bounds counts, fractions, model names and keys are refused", "[resolve]")
{
    CHECK_THROWS_WITH(read(R"({"batch_size": 0})"), "settings.json: batch_size: expected 1 to 65536, got 0");
    CHECK_THROWS_WITH(
        read(R"({"gpu_utilization_min": 1.5})"), "settings.json: gpu_utilization_min: expected a fraction from 0 to 1");
    CHECK_THROWS_WITH(read(R"({"model": "../../etc/passwd"})"),
        "settings.json: model: \"../../etc/passwd\" is not a torchvision.models name");
    CHECK_THROWS_AS(read(R"({"batch": 128})"), Error);
}
