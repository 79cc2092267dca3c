#include "sbom/spdx.h"
#include "support/sbom_subject.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using dlenv::testing::element_with;
using dlenv::testing::k_image_hex;
using dlenv::testing::k_layer_hex;
using dlenv::testing::sbom_subject;
using nlohmann::json;

TEST_CASE("the SPDX document names itself from the image digest and dates itself to the lock's epoch", "[sbom]")
{
    json document = sbom::spdx_document(sbom_subject(), "0.1.0");
    CHECK(document["spdxVersion"] == "SPDX-2.3");
    CHECK(document["dataLicense"] == "CC0-1.0");
    CHECK(document["SPDXID"] == "SPDXRef-DOCUMENT");
    CHECK(document["name"] == "team/base@sha256:" + k_image_hex);
    CHECK(document["documentNamespace"] == "https://dlenv.dev/spdx/team%2Fbase-" + k_image_hex);
    CHECK(document["creationInfo"]
        == json { { "created", "2023-11-14T22:13:20Z" }, { "creators", { "Tool: dlenv-0.1.0" } } });
    CHECK(sbom::spdx_document(sbom_subject(), "0.1.0").dump() == document.dump());
}

TEST_CASE("the SPDX document holds the image, its base by digest and what the base carries", "[sbom]")
{
    json packages = sbom::spdx_document(sbom_subject(), "0.1.0")["packages"];
    const json& image = element_with(packages, "SPDXID", "SPDXRef-Image");
    CHECK(image["name"] == "team/base");
    CHECK(image["versionInfo"] == "sha256:" + k_image_hex);
    CHECK(image["primaryPackagePurpose"] == "CONTAINER");
    CHECK(image["checksums"] == json::array({ { { "algorithm", "SHA256" }, { "checksumValue", k_image_hex } } }));
    const json& base = element_with(packages, "SPDXID", "SPDXRef-Base");
    CHECK(base["name"] == "registry.example/cuda");
    CHECK(base["versionInfo"] == "sha256:" + std::string(64, 'a'));
    CHECK(base["externalRefs"][0]["referenceLocator"]
        == "pkg:oci/cuda@sha256%3A" + std::string(64, 'a') + "?repository_url=registry.example/cuda");
    CHECK(base["comment"]
        == "base image registry.example/cuda:11.8.0-runtime, built on its linux/amd64 manifest sha256:"
            + std::string(64, 'b'));
    const json& cuda = element_with(packages, "SPDXID", "SPDXRef-Base-CUDA");
    CHECK(cuda["versionInfo"] == "11.8.0");
    CHECK(cuda["supplier"] == "Organization: NVIDIA Corporation");
    CHECK(cuda["comment"] == "as the base says: env CUDA_VERSION");
    CHECK(element_with(packages, "SPDXID", "SPDXRef-Base-NCCL")["versionInfo"] == "2.15.5");
    for (const auto& package : packages)
        CHECK(package["SPDXID"] != "SPDXRef-Base-cuDNN"); // the lock says nothing of it
}

TEST_CASE("the SPDX document pins every Python and system package by sha256 and purl", "[sbom]")
{
    json packages = sbom::spdx_document(sbom_subject(), "0.1.0")["packages"];
    const json& torch = element_with(packages, "SPDXID", "SPDXRef-PyPI-torch");
    CHECK(torch["versionInfo"] == "2.1.2+cu118");
    CHECK(torch["downloadLocation"] == "https://download.pytorch.org/whl/cu118/torch.whl");
    CHECK(torch["packageFileName"] == "torch-2.1.2+cu118-cp311-cp311-linux_x86_64.whl");
    CHECK(torch["checksums"]
        == json::array({ { { "algorithm", "SHA256" }, { "checksumValue", std::string(64, 'e') } } }));
    CHECK(torch["externalRefs"]
        == json::array({ { { "referenceCategory", "PACKAGE-MANAGER" }, { "referenceType", "purl" },
            { "referenceLocator", "pkg:pypi/torch@2.1.2%2Bcu118" } } }));
    const json& deb = element_with(packages, "SPDXID", "SPDXRef-Deb-zlib1g");
    CHECK(deb["versionInfo"] == "1:1.2.13.dfsg-1");
    CHECK(deb["primaryPackagePurpose"] == "OPERATING_SYSTEM");
    CHECK(deb["checksums"][0]["checksumValue"] == std::string(64, '1'));
    CHECK(deb["externalRefs"][0]["referenceLocator"] == "pkg:deb/debian/zlib1g@1%3A1.2.13.dfsg-1?arch=amd64");
    const json& layer = element_with(packages, "SPDXID", "SPDXRef-Layer-" + k_layer_hex);
    CHECK(layer["name"] == "dlenv build: validation kit in /opt/dlenv");
    CHECK(layer["comment"] == "application/vnd.oci.image.layer.v1.tar+gzip, 1234 bytes");
}

TEST_CASE("the SPDX relationships tie each package to the image or the base", "[sbom]")
{
    json relationships = sbom::spdx_document(sbom_subject(), "0.1.0")["relationships"];
    auto has = [&](const std::string& from, const std::string& type, const std::string& to) {
        return std::count(relationships.begin(), relationships.end(),
                   json { { "spdxElementId", from }, { "relationshipType", type }, { "relatedSpdxElement", to } })
            == 1;
    };
    CHECK(has("SPDXRef-DOCUMENT", "DESCRIBES", "SPDXRef-Image"));
    CHECK(has("SPDXRef-Image", "DESCENDANT_OF", "SPDXRef-Base"));
    CHECK(has("SPDXRef-Base", "CONTAINS", "SPDXRef-Base-CUDA"));
    CHECK(has("SPDXRef-Image", "CONTAINS", "SPDXRef-PyPI-numpy"));
    CHECK(has("SPDXRef-Image", "CONTAINS", "SPDXRef-Deb-zlib1g"));
    CHECK(has("SPDXRef-Image", "CONTAINS", "SPDXRef-Layer-" + k_layer_hex));
    // DESCRIBES, DESCENDANT_OF, CUDA and NCCL, 2 Python packages, 1 system package, 1 layer
    CHECK(relationships.size() == 8);
}

TEST_CASE("the SPDX document of a lock with packages and system packages passes the SPDX 2.3 schema", "[sbom]")
{
    Scratch scratch;
    write_file_atomic(scratch / "sbom.json", sbom::spdx_document(sbom_subject(), "0.1.0").dump(2));
    scratch.sh("python3 " DLENV_SOURCE_DIR "/tests/support/validate_json_schema.py " DLENV_SOURCE_DIR
               "/tests/fixtures/spdx/spdx-schema.json sbom.json");
}
