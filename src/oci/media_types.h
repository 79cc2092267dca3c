#pragma once

#include <string_view>

// The media types of OCI image-spec v1.1 that dlenv reads and writes.
namespace dlenv::oci::media_type {

constexpr std::string_view k_index = "application/vnd.oci.image.index.v1+json";
constexpr std::string_view k_manifest = "application/vnd.oci.image.manifest.v1+json";
constexpr std::string_view k_config = "application/vnd.oci.image.config.v1+json";
constexpr std::string_view k_layer_tar = "application/vnd.oci.image.layer.v1.tar";
constexpr std::string_view k_layer_gzip = "application/vnd.oci.image.layer.v1.tar+gzip";
constexpr std::string_view k_layer_zstd = "application/vnd.oci.image.layer.v1.tar+zstd";

// Docker's schema 2 types, which `docker save` archives and older registries carry.
constexpr std::string_view k_docker_manifest = "application/vnd.docker.distribution.manifest.v2+json";
constexpr std::string_view k_docker_manifest_list = "application/vnd.docker.distribution.manifest.list.v2+json";
constexpr std::string_view k_docker_config = "application/vnd.docker.container.image.v1+json";
constexpr std::string_view k_docker_layer_gzip = "application/vnd.docker.image.rootfs.diff.tar.gzip";
constexpr std::string_view k_docker_layer_tar = "application/vnd.docker.image.rootfs.diff.tar";

} // namespace dlenv::oci::media_type

namespace dlenv::oci {

// The annotation that names a tag on an index.json entry of an image layout.
constexpr const char* k_ref_name_annotation = "org.opencontainers.image.ref.name";

} // namespace dlenv::oci
