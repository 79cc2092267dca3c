#pragma once

#include "deb/index.h"
#include "http/client.h"

#include <functional>
#include <string>
#include <vector>

namespace dlenv::deb {

// A Debian or Ubuntu apt archive, as a sources.list line names it: "deb URL SUITE
// COMPONENT...", with several suites read as one (bookworm and bookworm-updates).
struct ArchiveSource {
    std::string url; // http(s):// or file://, without a trailing '/'
    std::vector<std::string> suites;
    std::vector<std::string> components;
    std::string origin; // why this archive: "profile system_archive", "default for debian 12 (bookworm)"
};

// One suite's Release file as it was read.
struct SuiteRelease {
    std::string suite;
    std::string sha256; // of the Release file's bytes
};

struct ArchiveIndex {
    std::vector<SuiteRelease> releases; // in the source's order
    std::vector<Package> packages; // every suite's and component's, in that order
};

// Bounds on what an archive may send.
constexpr std::size_t k_max_release_bytes = 16 << 20;
constexpr std::size_t k_max_packages_bytes = std::size_t(1) << 30; // decompressed; bookworm's main is ~50 MB

// Reads dists/SUITE/Release of every suite, then each component's
// binary-ARCH/Packages (.xz, else .gz, else plain: whichever the Release lists), whose
// size and sha256 must be what the Release says: Error(verification_failed) naming the
// file and both digests otherwise. The Release file's signature is not checked (dlenv
// has no OpenPGP): its sha256 goes into the lock, so later builds fetch exactly what was
// locked, and an https:// archive or a snapshot is what a team should name. A missing
// file or an answer other than 2xx is Error(network) naming the URL; a component the
// Release does not list Error(not_found). `progress` hears each URL as it is fetched.
ArchiveIndex read_archive(const ArchiveSource& source, const std::string& architecture, const http::Client& client,
    const std::function<void(const std::string&)>& progress = {});

// The bytes at `url` (http(s):// or file://), at most `limit`: more is Error(invalid_input).
std::string fetch_bounded(const http::Client& client, const std::string& url, std::size_t limit);

} // namespace dlenv::deb
