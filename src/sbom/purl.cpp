#include "sbom/purl.h"

#include <algorithm>
#include <cstdio>

namespace dlenv::sbom {

std::string escape_bytes(std::string_view text, std::string_view also_plain, char marker)
{
    std::string out;
    for (char c : text) {
        bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
            || also_plain.find(c) != std::string_view::npos;
        if (plain) {
            out += c;
            continue;
        }
        char escaped[3];
        std::snprintf(escaped, sizeof escaped, "%02X", static_cast<unsigned char>(c));
        out += marker;
        out += escaped;
    }
    return out;
}

std::string purl_encode(std::string_view text)
{
    return escape_bytes(text, ".-_~", '%');
}

std::string oci_purl(const ImageReference& reference, const Digest& digest)
{
    const std::string& repository = reference.repository;
    std::string name = repository.substr(repository.rfind('/') + 1);
    std::string url = purl_encode(reference.registry);
    for (std::size_t start = 0; start <= repository.size();) {
        std::size_t end = std::min(repository.find('/', start), repository.size());
        url += "/" + purl_encode(std::string_view(repository).substr(start, end - start));
        start = end + 1;
    }
    return "pkg:oci/" + purl_encode(name) + "@" + purl_encode(digest.text()) + "?repository_url=" + url;
}

std::string pypi_purl(std::string_view name, std::string_view version)
{
    std::string normalised;
    for (char c : name)
        normalised += c == '_' ? '-' : (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return "pkg:pypi/" + purl_encode(normalised) + "@" + purl_encode(version);
}

std::string deb_purl(std::string_view distro, std::string_view name, std::string_view version, std::string_view arch)
{
    return "pkg:deb/" + purl_encode(distro) + "/" + purl_encode(name) + "@" + purl_encode(version)
        + "?arch=" + purl_encode(arch);
}

} // namespace dlenv::sbom
