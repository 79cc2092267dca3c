#include "sbom/cyclonedx.h"
#include "support/sbom_subject.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using dlenv::testing::element_with;
using dlenv::testing::k_image_hex;
using dlenv::testing::k_layer_hex;
using dlenv::testing::sbom_subject;
using nlohmann::json;

TEST_CASE("the CycloneDX BOM's serial number and timestamp follow from the image and its lock", "[sbom]")
{
    json bom = sbom::cyclonedx_bom(sbom_subject(), "0.1.0");
    CHECK(bom["bomFormat"] == "CycloneDX");
    CHECK(bom["specVersion"] == "1.5");
    CHECK(bom["version"] == 1);
    std::string serial = bom["serialNumber"];
    CHECK(serial.size() == 45);
    CHECK(serial.substr(0, 9) == "urn:uuid:");
    CHECK(serial[23] == '5');
    CHECK(std::string("89ab").find(serial[28]) != std::string::npos);
    CHECK(bom["metadata"]["timestamp"] == "2023-11-14T22:13:20Z");
    CHECK(bom["metadata"]["tools"]
        == json { { "components",
            json::array({ { { "type", "application" }, { "name", "dlenv" }, { "version", "0.1.0" } } }) } });
    CHECK(sbom::cyclonedx_bom(sbom_subject(), "0.1.0").dump() == bom.dump());
    sbom::Subject other = sbom_subject();
    other.name = "team/other";
    CHECK(sbom::cyclonedx_bom(other, "0.1.0")["serialNumber"] != serial);
}

TEST_CASE("the CycloneDX BOM lists the image, its base, what the base carries, packages and layers", "[sbom]")
{
    sbom::Subject subject = sbom_subject();
    json bom = sbom::cyclonedx_bom(subject, "0.1.0");
    CHECK(bom["metadata"]["component"]
        == json { { "type", "container" }, { "bom-ref", "Image" }, { "name", "team/base" },
            { "version", "sha256:" + k_image_hex },
            { "hashes", json::array({ { { "alg", "SHA-256" }, { "content", k_image_hex } } }) },
            { "description", "built from lock " + subject.lock.digest().text() } });
    const json& components = bom["components"];
    CHECK(components.size() == 7); // base, CUDA, NCCL, numpy, torch, zlib1g, one layer
    CHECK(element_with(components, "bom-ref", "Base")["purl"]
        == "pkg:oci/cuda@sha256%3A" + std::string(64, 'a') + "?repository_url=registry.example/cuda");
    CHECK(element_with(components, "bom-ref", "Base-CUDA")["supplier"] == json { { "name", "NVIDIA Corporation" } });
    const json& torch = element_with(components, "bom-ref", "PyPI-torch");
    CHECK(torch["type"] == "library");
    CHECK(torch["purl"] == "pkg:pypi/torch@2.1.2%2Bcu118");
    CHECK(torch["hashes"] == json::array({ { { "alg", "SHA-256" }, { "content", std::string(64, 'e') } } }));
    CHECK(torch["externalReferences"]
        == json::array(
            { { { "type", "distribution" }, { "url", "https://download.pytorch.org/whl/cu118/torch.whl" } } }));
    CHECK(element_with(components, "bom-ref", "Deb-zlib1g")["purl"]
        == "pkg:deb/debian/zlib1g@1%3A1.2.13.dfsg-1?arch=amd64");
    CHECK(element_with(components, "bom-ref", "Layer-" + k_layer_hex)["type"] == "file");
    CHECK(bom["dependencies"]
        == json::array({ { { "ref", "Base" }, { "dependsOn", { "Base-CUDA", "Base-NCCL" } } },
            { { "ref", "Image" },
                { "dependsOn", { "Base", "PyPI-numpy", "PyPI-torch", "Deb-zlib1g", "Layer-" + k_layer_hex } } } }));
}

TEST_CASE("the CycloneDX BOM of a lock with packages and system packages passes the CycloneDX 1.5 schema", "[sbom]")
{
    Scratch scratch;
    write_file_atomic(scratch / "bom.json", sbom::cyclonedx_bom(sbom_subject(), "0.1.0").dump(2));
    scratch.sh("python3 " DLENV_SOURCE_DIR "/tests/support/validate_json_schema.py " DLENV_SOURCE_DIR
               "/tests/fixtures/cyclonedx/bom-1.5.schema.json bom.json");
}
