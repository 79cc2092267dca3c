#pragma once

#include "core/image_reference.h"

#include <string>
#include <string_view>

namespace dlenv::sbom {

// `text` with every byte but A-Z a-z 0-9 and those of `also_plain` written as `marker`
// and two uppercase hexadecimal digits ("%2B" with '%').
std::string escape_bytes(std::string_view text, std::string_view also_plain, char marker);

// Package URLs (github.com/package-url/purl-spec): each part percent-encoded but for
// A-Z a-z 0-9 . - _ ~, so "2.1.2+cu118" is "2.1.2%2Bcu118" and "1:2.3" is "1%3A2.3".
std::string purl_encode(std::string_view text);

// pkg:oci/NAME@sha256%3AHEX?repository_url=REGISTRY/REPOSITORY: NAME is the last part of
// the repository, the digest pins it; the URL keeps its '/' ("docker.io/nvidia/cuda").
std::string oci_purl(const ImageReference& reference, const Digest& digest);
// pkg:pypi/NAME@VERSION, the name lowercased with '_' as '-' (PEP 503 normalised).
std::string pypi_purl(std::string_view name, std::string_view version);
// pkg:deb/DISTRO/NAME@VERSION?arch=ARCH
std::string deb_purl(std::string_view distro, std::string_view name, std::string_view version, std::string_view arch);

} // namespace dlenv::sbom
