#include "core/image_reference.h"

#include "core/error.h"

#include <regex>

namespace dlenv {
namespace {

constexpr std::string_view k_docker_hub = "docker.io";

bool names_registry(std::string_view component)
{
    return component.find_first_of(".:") != std::string_view::npos || component == "localhost";
}

Error invalid(std::string_view text, const std::string& why, const std::string& hint)
{
    return Error(ErrorCode::invalid_input, "image reference \"" + std::string(text) + "\": " + why, hint);
}

} // namespace

ImageReference ImageReference::parse(std::string_view text)
{
    static const std::regex repository_rule(
        R"([a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*)");
    static const std::regex tag_rule(R"([A-Za-z0-9_][A-Za-z0-9_.-]{0,127})");
    static const std::regex registry_rule(R"([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:[0-9]+)?)");

    ImageReference ref;
    std::string_view name = text;
    if (std::size_t at = name.find('@'); at != std::string_view::npos) {
        ref.digest = Digest::parse(name.substr(at + 1));
        name = name.substr(0, at);
    }
    std::size_t slash = name.find('/');
    if (slash != std::string_view::npos && names_registry(name.substr(0, slash))) {
        ref.registry = std::string(name.substr(0, slash));
        name = name.substr(slash + 1);
    } else {
        ref.registry = k_docker_hub;
    }
    if (ref.registry == "index.docker.io" || ref.registry == "registry-1.docker.io")
        ref.registry = k_docker_hub;
    std::size_t colon = name.rfind(':');
    if (colon != std::string_view::npos && name.find('/', colon) == std::string_view::npos) {
        ref.tag = std::string(name.substr(colon + 1));
        ref.explicit_tag = true;
        name = name.substr(0, colon);
    } else if (!ref.digest) {
        ref.tag = "latest";
    }
    ref.repository = std::string(name);
    if (ref.registry == k_docker_hub && ref.repository.find('/') == std::string::npos)
        ref.repository = "library/" + ref.repository;

    if (!std::regex_match(ref.registry, registry_rule))
        throw invalid(text, "\"" + ref.registry + "\" is not a registry host", "write HOST[:PORT]/REPOSITORY[:TAG]");
    if (!std::regex_match(ref.repository, repository_rule))
        throw invalid(text, "\"" + ref.repository + "\" is not a repository name",
            "use lowercase letters, digits and . _ - between them, with / between path components");
    // "ubuntu:" names an empty tag, which no registry serves: refused, not read as latest.
    if (ref.explicit_tag && !std::regex_match(ref.tag, tag_rule))
        throw invalid(text, "\"" + ref.tag + "\" is not a tag",
            "a tag is up to 128 letters, digits, _ . and -, not starting with . or -");
    return ref;
}

std::string ImageReference::api_host() const
{
    return registry == k_docker_hub ? "registry-1.docker.io" : registry;
}

std::string ImageReference::familiar_name() const
{
    if (registry != k_docker_hub)
        return registry + "/" + repository;
    return repository.starts_with("library/") ? repository.substr(8) : repository;
}

std::string ImageReference::text() const
{
    std::string out = registry + "/" + repository;
    if (!tag.empty())
        out += ":" + tag;
    if (digest)
        out += "@" + digest->text();
    return out;
}

bool is_registry_reference(std::string_view reference)
{
    return reference != "scratch" && !reference.starts_with("oci:") && !reference.starts_with("docker-archive:");
}

} // namespace dlenv
