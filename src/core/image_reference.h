#pragma once

#include "core/digest.h"

#include <optional>
#include <string>
#include <string_view>

namespace dlenv {

// An image reference as Docker reads it: "ubuntu", "nvidia/cuda:11.8.0-base-ubuntu22.04",
// "nvcr.io/nvidia/pytorch:23.10-py3", "localhost:5000/team/app@sha256:…". The first path
// component names a registry when it holds a '.' or a ':' or is "localhost"; otherwise
// the registry is docker.io, where one-component names live under library/.
struct ImageReference {
    std::string registry; // "docker.io", "nvcr.io", "localhost:5000"
    std::string repository; // "library/ubuntu", "nvidia/cuda"
    std::string tag; // "latest" when neither tag nor digest was given
    bool explicit_tag = false; // the text named the tag
    std::optional<Digest> digest;

    // Error(invalid_input) naming the part that is wrong and the grammar it must follow.
    static ImageReference parse(std::string_view text);

    // The host that serves the registry API: registry-1.docker.io for docker.io.
    std::string api_host() const;
    // "ubuntu", "nvidia/cuda", "localhost:5000/team/app": the name as people write it.
    std::string familiar_name() const;
    // The tag, or the digest when the reference pins one: what a GET of manifests/ asks for.
    std::string manifest_reference() const { return digest ? digest->text() : tag; }
    // registry/repository:tag or registry/repository@digest.
    std::string text() const;
};

// Whether a base image's reference text names a registry image rather than "scratch", an
// OCI layout ("oci:DIR[:REF]") or a `docker save` archive ("docker-archive:FILE[:TAG]").
// Says nothing of whether the text parses as an ImageReference.
bool is_registry_reference(std::string_view reference);

} // namespace dlenv
