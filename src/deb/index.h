#pragma once

#include "deb/control.h"
#include "deb/relation.h"
#include "deb/version.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dlenv::deb {

// A file a Release lists under SHA256: its digest and size.
struct IndexedFile {
    std::string sha256; // lowercase hex
    std::int64_t size = 0;
};

// dists/SUITE/Release: the index files it vouches for, by path below dists/SUITE/.
struct Release {
    std::map<std::string, IndexedFile> files; // "main/binary-amd64/Packages.xz" -> digest
};

// Reads a Release file. Throws Error(invalid_input) "FILE:LINE: why" for a malformed
// line, and "FILE: no SHA256 field" when it lists no digests (an archive that only
// gives MD5 is not trusted).
Release parse_release(const std::string& file, std::string_view text);

// One binary package of an archive's Packages file, or of dpkg's status.
struct Package {
    std::string name;
    DebVersion version;
    std::string architecture; // "amd64", "all"
    std::string multi_arch; // "same", "foreign", "allowed", or ""
    std::vector<Alternatives> pre_depends;
    std::vector<Alternatives> depends;
    std::vector<Relation> provides; // each unversioned or "(= VERSION)"
    // Packages only: where the .deb is below the archive's root, and what it must be.
    std::string filename; // "pool/main/p/python3.11/python3.11_3.11.2-6_amd64.deb"
    std::int64_t size = 0;
    std::string sha256;
    std::string origin; // which suite and component listed it: "bookworm/main"
};

// The packages of a Packages file for `architecture` (or "all"), each checked: Package,
// Version, Architecture, Filename, Size and SHA256 present and well-formed, Filename a
// relative path without "..", "." or empty components that ends in ".deb". Throws
// Error(invalid_input) "FILE:LINE: FIELD: why".
std::vector<Package> parse_packages(const std::string& file, std::string_view text, const std::string& origin);

// The packages of dpkg's status file that are installed ("Status: install ok installed",
// or any other want with "ok installed"); "not-installed" and "config-files" entries are
// skipped. A package left half-installed, unpacked, half-configured or awaiting triggers
// is Error(invalid_input) naming it and its state: the base must be repaired first.
std::vector<Package> parse_status(const std::string& file, std::string_view text);

// Reads the fields every package has, from one stanza; used by both readers above.
Package package_of(const std::string& file, const Stanza& stanza);

} // namespace dlenv::deb
