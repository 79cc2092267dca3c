#include "core/closest.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace dlenv;
using Names = std::vector<std::string>;

TEST_CASE("names that contain the query rank first, the shortest such name leading", "[core]")
{
    Names gpus = { "NVIDIA GeForce RTX 4090", "RTX 4090", "4080", "NVIDIA A100", "4090" };
    CHECK(closest_matches("4090", gpus) == Names { "4090", "RTX 4090", "NVIDIA GeForce RTX 4090" });
    CHECK(closest_matches("4090", gpus, 5) == Names { "4090", "RTX 4090", "NVIDIA GeForce RTX 4090", "4080" });
}

TEST_CASE("a name the query contains also counts as a containing match", "[core]")
{
    Names frameworks = { "torch", "torchvision", "torchaudio", "tensorflow", "jax" };
    CHECK(closest_matches("pytorch", frameworks, 1) == Names { "torch" });
}

TEST_CASE("matching ignores case, spaces and punctuation other than dots", "[core]")
{
    Names gpus = { "NVIDIA GeForce RTX 4090", "NVIDIA A100-SXM4-80GB" };
    CHECK(closest_matches("geforce rtx-4090", gpus, 1) == Names { "NVIDIA GeForce RTX 4090" });
    CHECK(closest_matches("a100 sxm4 80gb", gpus, 1) == Names { "NVIDIA A100-SXM4-80GB" });
}

TEST_CASE("near misses are ranked by edit distance, unrelated names are not suggested", "[core]")
{
    Names frameworks = { "torch", "torchvision", "torchaudio", "tensorflow", "jax" };
    CHECK(closest_matches("torhc", frameworks) == Names { "torch" });
    CHECK(closest_matches("tensorflw", frameworks) == Names { "tensorflow" });
    CHECK(closest_matches("paddle", frameworks).empty());
}

TEST_CASE("at most `limit` matches come back, without duplicates", "[core]")
{
    Names names = { "RTX 4090", "RTX 4090", "RTX 4090 D", "GeForce RTX 4090" };
    CHECK(closest_matches("4090", names, 2) == Names { "RTX 4090", "RTX 4090 D" });
    CHECK(closest_matches("4090", names, 0).empty());
    CHECK(closest_matches("4090", {}).empty());
}

TEST_CASE("join_alternatives lists items as prose", "[core]")
{
    auto [items, joined] = GENERATE(table<Names, std::string>({
        { Names {}, "" },
        { { "a" }, "a" },
        { { "a", "b" }, "a or b" },
        { { "a", "b", "c" }, "a, b or c" },
        { { "12.6", "12.8", "13.0", "13.1" }, "12.6, 12.8, 13.0 or 13.1" },
    }));
    CHECK(join_alternatives(items) == joined);
}

TEST_CASE("join_alternatives takes the last separator from the caller", "[core]")
{
    CHECK(join_alternatives({ "torch", "jax", "tensorflow" }, " and ") == "torch, jax and tensorflow");
    CHECK(join_alternatives({ "x", "y" }, " and ") == "x and y");
}
