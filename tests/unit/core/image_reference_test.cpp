#include "core/error.h"
#include "core/image_reference.h"

#include <catch2/catch.hpp>

using dlenv::ImageReference;

TEST_CASE("one-component names live under docker.io/library", "[core]")
{
    ImageReference ref = ImageReference::parse("ubuntu");
    CHECK(ref.registry == "docker.io");
    CHECK(ref.repository == "library/ubuntu");
    CHECK(ref.tag == "latest");
    CHECK_FALSE(ref.explicit_tag);
    CHECK(ref.api_host() == "registry-1.docker.io");
    CHECK(ref.familiar_name() == "ubuntu");
    CHECK(ref.text() == "docker.io/library/ubuntu:latest");
}

TEST_CASE("a first component without a dot, colon or localhost is a docker.io namespace", "[core]")
{
    ImageReference ref = ImageReference::parse("nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04");
    CHECK(ref.registry == "docker.io");
    CHECK(ref.repository == "nvidia/cuda");
    CHECK(ref.tag == "11.8.0-cudnn8-runtime-ubuntu22.04");
    CHECK(ref.explicit_tag);
    CHECK(ref.familiar_name() == "nvidia/cuda");
}

TEST_CASE("hosts with dots, ports or localhost name the registry", "[core]")
{
    CHECK(ImageReference::parse("nvcr.io/nvidia/pytorch:23.10-py3").registry == "nvcr.io");
    ImageReference local = ImageReference::parse("localhost:5000/team/app");
    CHECK(local.registry == "localhost:5000");
    CHECK(local.repository == "team/app");
    CHECK(local.tag == "latest");
    CHECK(local.api_host() == "localhost:5000");
    CHECK(local.familiar_name() == "localhost:5000/team/app");
    CHECK(ImageReference::parse("localhost/app").registry == "localhost");
    CHECK(ImageReference::parse("index.docker.io/library/debian:12").familiar_name() == "debian");
}

TEST_CASE("a digest pins the manifest and is what a GET asks for", "[core]")
{
    std::string digest = "sha256:" + std::string(64, 'a');
    ImageReference ref = ImageReference::parse("127.0.0.1:5000/app@" + digest);
    CHECK(ref.tag.empty());
    REQUIRE(ref.digest);
    CHECK(ref.manifest_reference() == digest);
    ImageReference both = ImageReference::parse("app:v1@" + digest);
    CHECK(both.tag == "v1");
    CHECK(both.manifest_reference() == digest);
    CHECK(both.text() == "docker.io/library/app:v1@" + digest);
}

TEST_CASE("malformed references name the part that is wrong", "[core]")
{
    auto message = [](const std::string& text) {
        try {
            ImageReference::parse(text);
        } catch (const dlenv::Error& e) {
            CHECK(e.code() == dlenv::ErrorCode::invalid_input);
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(message("Ubuntu:22.04") == "image reference \"Ubuntu:22.04\": \"library/Ubuntu\" is not a repository name");
    CHECK(message("ubuntu:-x") == "image reference \"ubuntu:-x\": \"-x\" is not a tag");
    CHECK(message("team//app") == "image reference \"team//app\": \"team//app\" is not a repository name");
    CHECK(message("ubuntu:") == "image reference \"ubuntu:\": \"\" is not a tag");
    CHECK(message("localhost:5000/app:@sha256:" + std::string(64, 'a'))
        == "image reference \"localhost:5000/app:@sha256:" + std::string(64, 'a') + "\": \"\" is not a tag");
}

TEST_CASE("a base reference names a registry image unless it is scratch, an OCI layout or an archive", "[core]")
{
    CHECK(dlenv::is_registry_reference("nvidia/cuda:12.2.2-runtime-ubuntu22.04"));
    CHECK(dlenv::is_registry_reference("127.0.0.1:5000/team/base@sha256:" + std::string(64, 'a')));
    CHECK(dlenv::is_registry_reference("scratchy"));
    CHECK_FALSE(dlenv::is_registry_reference("scratch"));
    CHECK_FALSE(dlenv::is_registry_reference("oci:/srv/layouts/base:v1"));
    CHECK_FALSE(dlenv::is_registry_reference("docker-archive:base.tar:team/base:v1"));
}
