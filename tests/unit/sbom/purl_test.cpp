#include "sbom/purl.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("purl parts are percent-encoded but for the unreserved characters", "[sbom]")
{
    CHECK(sbom::purl_encode("2.1.2+cu118") == "2.1.2%2Bcu118");
    CHECK(sbom::purl_encode("1:1.2.13.dfsg-1") == "1%3A1.2.13.dfsg-1");
    CHECK(sbom::purl_encode("a_b~c") == "a_b~c");
}

TEST_CASE("an OCI purl names the repository's last part, the digest and the repository URL", "[sbom]")
{
    Digest digest = Digest::from_hex(std::string(64, 'a'));
    CHECK(sbom::oci_purl(ImageReference::parse("nvidia/cuda:11.8.0-runtime-ubuntu22.04"), digest)
        == "pkg:oci/cuda@sha256%3A" + std::string(64, 'a') + "?repository_url=docker.io/nvidia/cuda");
    CHECK(sbom::oci_purl(ImageReference::parse("localhost:5000/team/base:1"), digest)
        == "pkg:oci/base@sha256%3A" + std::string(64, 'a') + "?repository_url=localhost%3A5000/team/base");
}

TEST_CASE("PyPI and Debian purls", "[sbom]")
{
    CHECK(sbom::pypi_purl("Typing_Extensions", "4.9.0") == "pkg:pypi/typing-extensions@4.9.0");
    CHECK(sbom::pypi_purl("torch", "2.1.2+cu118") == "pkg:pypi/torch@2.1.2%2Bcu118");
    CHECK(sbom::deb_purl("debian", "zlib1g", "1:1.2.13.dfsg-1", "amd64")
        == "pkg:deb/debian/zlib1g@1%3A1.2.13.dfsg-1?arch=amd64");
}
