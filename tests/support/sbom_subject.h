#pragma once

#include "core/file.h"
#include "sbom/subject.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

namespace dlenv::testing {

// The subject of the SBOM tests: tests/fixtures/lock/every_section.lock.json (a pinned base
// that says it carries CUDA 11.8.0 and NCCL 2.15.5, numpy and torch) with Debian 12's zlib1g
// as its one system package, an image digest of 'c's and one added layer of 'f's.
inline const std::string k_image_hex(64, 'c');
inline const std::string k_layer_hex(64, 'f');

inline lock::LockedDeb sbom_zlib1g()
{
    lock::LockedDeb deb;
    deb.name = "zlib1g";
    deb.version = "1:1.2.13.dfsg-1";
    deb.architecture = "amd64";
    deb.filename = "zlib1g_1.2.13.dfsg-1_amd64.deb";
    deb.url = "http://deb.debian.org/debian/pool/main/z/zlib/zlib1g_1.2.13.dfsg-1_amd64.deb";
    deb.size = 87616;
    deb.sha256 = std::string(64, '1');
    deb.origin = "bookworm/main";
    deb.required_by = { "profile" };
    return deb;
}

inline sbom::Subject sbom_subject()
{
    std::string path = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/lock/every_section.lock.json";
    lock::Lockfile lock = lock::Lockfile::parse(path, read_file(path));
    lock::SystemPackagesSection section;
    section.requested = { "zlib1g" };
    section.architecture = "amd64";
    section.archive.url = "http://deb.debian.org/debian";
    section.archive.suites = { "bookworm" };
    section.archive.components = { "main" };
    section.archive.origin = "default for debian 12 (bookworm)";
    section.archive.release_sha256 = { { "bookworm", std::string(64, '2') } };
    section.base_status_sha256 = std::string(64, '3');
    section.packages = { sbom_zlib1g() };
    lock.set_system_packages(section);
    oci::Descriptor layer { "application/vnd.oci.image.layer.v1.tar+gzip", Digest::from_hex(k_layer_hex), 1234, {},
        std::nullopt };
    return { "team/base", Digest::from_hex(k_image_hex), lock, Digest::from_hex(std::string(64, 'b')),
        { { layer, "dlenv build: validation kit in /opt/dlenv" } } };
}

// The element of a document's list (SPDX packages, CycloneDX components) whose `key` is
// `value`; the test fails when there is none.
inline const nlohmann::json& element_with(const nlohmann::json& list, const std::string& key, const std::string& value)
{
    for (const auto& element : list)
        if (element[key] == value)
            return element;
    FAIL("no element with " << key << " " << value);
    return list;
}

} // namespace dlenv::testing
