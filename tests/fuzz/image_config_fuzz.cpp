// A base image's config: what `dlenv build` composes its own config from, and what
// `dlenv verify` reads the image's process (entrypoint, env, user) from.
#include "fuzz_input.h"
#include "image/image_config.h"
#include "oci/media_types.h"
#include "sandbox.h"
#include "verify/image.h"

#include <filesystem>

namespace {

using namespace dlenv;

void compose(std::string_view text)
{
    static const image::ConfigChanges changes { 1700000000,
        { { "PATH", "/opt/dlenv/bin" }, { "CUDA_VERSION", "12.1" } }, { { "org.dlenv.lock", "sha256:00" } },
        { { Digest::of(""), "dlenv layer" } } };
    nlohmann::json base = nlohmann::json::parse(text, nullptr, false);
    if (base.is_object())
        fuzz::expect_only_error([&] { image::compose_config(base, changes); });
}

void read(std::string_view text)
{
    static const fuzz::Sandbox sandbox;
    static const oci::ImageLayout layout = oci::ImageLayout::open_or_create(sandbox.work() / "layout");
    oci::Descriptor config = layout.write_blob(text, oci::media_type::k_config);
    oci::Manifest manifest { std::string(oci::media_type::k_manifest), config, {}, {} };
    oci::Descriptor image = layout.write_blob(oci::to_blob_json(manifest.to_json()), oci::media_type::k_manifest);
    fuzz::expect_only_error([&] { verify::read_image(layout, image); });
    std::filesystem::remove(layout.blob_path(config.digest));
    std::filesystem::remove(layout.blob_path(image.digest));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    compose(fuzz::text_of(data, size));
    read(fuzz::text_of(data, size));
    return 0;
}
