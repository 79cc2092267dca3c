#include "verify/image_platform.h"

#include "core/error.h"
#include "oci/media_types.h"

#include <sys/utsname.h>

namespace dlenv::verify {
namespace {

std::string text_of(const oci::Platform& platform)
{
    return platform.os + "/" + platform.architecture;
}

} // namespace

std::string image_platform(const nlohmann::json& config)
{
    auto os = config.find("os");
    auto architecture = config.find("architecture");
    if (os == config.end() || architecture == config.end() || !os->is_string() || !architecture->is_string())
        return "";
    return os->get<std::string>() + "/" + architecture->get<std::string>();
}

std::string host_platform()
{
    struct utsname name { };
    std::string machine = ::uname(&name) == 0 ? name.machine : "";
    if (machine == "x86_64")
        return "linux/amd64";
    if (machine == "aarch64")
        return "linux/arm64";
    return "linux/" + machine;
}

oci::Descriptor platform_image(const oci::ImageLayout& layout, const oci::Descriptor& descriptor, std::string platform)
{
    if (descriptor.media_type != oci::media_type::k_index)
        return descriptor;
    if (platform.empty())
        platform = host_platform();
    std::string have;
    for (const auto& manifest : platform_images(layout, descriptor)) {
        std::string text = platform_text(manifest);
        if (text == platform)
            return manifest;
        if (!text.empty())
            have += (have.empty() ? "" : ", ") + text;
    }
    throw Error(ErrorCode::not_found, "image index " + descriptor.digest.text() + " has no image for " + platform,
        have.empty() ? "it names no platforms" : "it has " + have + "; pick one with --platform");
}

std::vector<oci::Descriptor> platform_images(const oci::ImageLayout& layout, const oci::Descriptor& descriptor)
{
    if (descriptor.media_type != oci::media_type::k_index)
        return { descriptor };
    oci::Index index = oci::Index::parse(layout.read_blob(descriptor), descriptor.digest.text());
    if (index.manifests.empty())
        throw Error(ErrorCode::invalid_input, "image index " + descriptor.digest.text() + " lists no manifest",
            "build the image again");
    return index.manifests;
}

std::string platform_text(const oci::Descriptor& image)
{
    return image.platform ? text_of(*image.platform) : "";
}

} // namespace dlenv::verify
