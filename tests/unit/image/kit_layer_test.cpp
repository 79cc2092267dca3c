// The validation kit in the image: the lock and kit/'s scripts under /opt/dlenv, as
// `dlenv build` writes them and as the Dockerfile copies them.
#include "core/file.h"
#include "image/dockerfile.h"
#include "image/layer_plan.h"
#include "lock/package_plan.h"
#include "matrix/matrix.h"
#include "resolve/stack.h"
#include "store/store.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>

using namespace dlenv;
namespace fs = std::filesystem;

namespace {

const fs::path k_kit_source = fs::path(DLENV_SOURCE_DIR) / "kit";

lock::Lockfile pytorch_lock(const std::string& file)
{
    const auto& matrix = matrix::Matrix::embedded();
    resolve::Profile profile = resolve::load_profile("pytorch-2.1-cu118");
    auto resolution = resolve::resolve_profile(matrix, profile, {});
    REQUIRE(resolution.stack);
    return lock::Lockfile::from_stack(profile, matrix.sha256(), {}, *resolution.stack, resolution.report,
        lock::package_sources(profile, *resolution.stack), file);
}

// kit/*.py and kit/dlenv_kit/*.py, relative to kit/, sorted: what the image must carry.
std::vector<std::string> kit_sources()
{
    std::vector<std::string> out;
    for (const fs::path& dir : { k_kit_source, k_kit_source / "dlenv_kit" })
        for (const auto& entry : fs::directory_iterator(dir))
            if (entry.is_regular_file() && entry.path().extension() == ".py")
                out.push_back(entry.path().lexically_relative(k_kit_source).generic_string());
    std::sort(out.begin(), out.end());
    return out;
}

using Entry = std::tuple<std::string, oci::LayerEntry::Type, unsigned>;

} // namespace

TEST_CASE("the kit layer carries the lock and every script of kit/, files 0644 and directories 0755", "[image]")
{
    Scratch scratch;
    lock::Lockfile lock = pytorch_lock("x.lock.json");
    std::vector<image::PlannedLayer> layers = image::plan_layers(lock, oci::Compression::gzip);
    const image::PlannedLayer& kit = layers.back();
    CHECK(kit.created_by == "dlenv build: validation kit in /opt/dlenv");
    store::Store store = store::Store::open_for_writing(scratch / "store");
    std::vector<oci::LayerEntry> entries = kit.entries(store, scratch / "staging");

    using Type = oci::LayerEntry::Type;
    std::vector<Entry> expected = { { "opt", Type::directory, 0755 }, { "opt/dlenv", Type::directory, 0755 },
        { "opt/dlenv/dlenv.lock.json", Type::file, 0644 }, { "opt/dlenv/kit", Type::directory, 0755 },
        { "opt/dlenv/kit/dlenv_kit", Type::directory, 0755 } };
    std::vector<std::string> sources = kit_sources();
    REQUIRE(std::count(sources.begin(), sources.end(), "gpu_tier.py") == 1);
    REQUIRE(std::count(sources.begin(), sources.end(), "framework_tier.py") == 1);
    for (const auto& name : sources)
        expected.emplace_back("opt/dlenv/kit/" + name, Type::file, 0644);
    // In path order, as the layer writes them: acceptance_tier.py comes before dlenv_kit/.
    std::sort(expected.begin(), expected.end());
    std::vector<Entry> actual;
    for (const auto& entry : entries)
        actual.emplace_back(entry.path, entry.type, entry.mode);
    CHECK(actual == expected);

    CHECK(entries[2].contents == lock.text());
    for (const auto& entry : entries)
        if (entry.type == Type::file && entry.path != "opt/dlenv/dlenv.lock.json") {
            INFO(entry.path);
            CHECK(entry.contents == read_file(k_kit_source / entry.path.substr(std::string("opt/dlenv/kit/").size())));
            CHECK(entry.size == static_cast<std::int64_t>(entry.contents.size()));
        }
    CHECK(image::plan_layers(lock, oci::Compression::gzip).back().cache_key == kit.cache_key);
}

TEST_CASE("the Dockerfile copies the same kit, one COPY per directory, files 0644", "[image]")
{
    Scratch scratch;
    lock::Lockfile lock = pytorch_lock((scratch / "x.lock.json").string());
    image::write_docker_context(lock, scratch / "docker" / "Dockerfile", matrix::Matrix::embedded(), std::nullopt,
        image::DockerWheels::context, nullptr);
    std::string dockerfile = read_file(scratch / "docker" / "Dockerfile");

    std::string top = "COPY --chmod=0644 [", package = "COPY --chmod=0644 [";
    for (const auto& name : kit_sources()) {
        std::string& line = name.find('/') == std::string::npos ? top : package;
        line += "\"kit/" + name + "\",";
        CHECK(read_file(scratch / "docker" / "kit" / name) == read_file(k_kit_source / name));
    }
    CHECK_THAT(dockerfile,
        Catch::Contains("COPY dlenv.lock.json /opt/dlenv/dlenv.lock.json\n" + top + "\"/opt/dlenv/kit/\"]\n" + package
            + "\"/opt/dlenv/kit/dlenv_kit/\"]\n"));
}
