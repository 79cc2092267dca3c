#include "registry/platform.h"

#include "core/error.h"

namespace dlenv::registry {

oci::Platform parse_platform(std::string_view text)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t slash; (slash = text.find('/', start)) != std::string_view::npos; start = slash + 1)
        parts.emplace_back(text.substr(start, slash - start));
    parts.emplace_back(text.substr(start));
    bool empty_part = std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); });
    if (parts.size() < 2 || parts.size() > 3 || empty_part)
        throw Error(ErrorCode::invalid_input, "platform \"" + std::string(text) + "\" is not OS/ARCH[/VARIANT]",
            "write it as Docker does: linux/amd64, linux/arm64/v8");
    return { parts[1], parts[0], parts.size() == 3 ? parts[2] : "" };
}

std::string platform_text(const oci::Platform& platform)
{
    return platform.os + "/" + platform.architecture + (platform.variant.empty() ? "" : "/" + platform.variant);
}

const oci::Descriptor& select_platform(const oci::Index& index, const oci::Platform& wanted, const std::string& what)
{
    std::string available;
    for (const auto& manifest : index.manifests) {
        if (!manifest.platform)
            continue;
        const oci::Platform& platform = *manifest.platform;
        if (platform.os == wanted.os && platform.architecture == wanted.architecture
            && (wanted.variant.empty() || platform.variant == wanted.variant))
            return manifest;
        if (platform.os != "unknown") // attestation manifests carry unknown/unknown
            available += (available.empty() ? "" : ", ") + platform_text(platform);
    }
    throw Error(ErrorCode::not_found, what + " has no image for " + platform_text(wanted),
        available.empty() ? "the index names no platforms" : "it has " + available + "; pick one with --platform");
}

} // namespace dlenv::registry
