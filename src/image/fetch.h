#pragma once

#include "http/client.h"
#include "http/retry.h"
#include "lock/lockfile.h"
#include "registry/progress.h"
#include "store/store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::image {

// A file the lock pins for the build: a wheel of its Python closure, its Python runtime,
// or a .deb of its system packages.
struct PinnedArtifact {
    std::string name; // the wheel's file name, or the runtime archive's
    std::string url; // http(s)://, or file:// and an absolute path as `dlenv lock` writes it
    std::string sha256; // lowercase hex
    std::optional<std::int64_t> size; // when the lock states it
};

// The lock's Python runtime, when it has one, then its packages in the lock's order
// (none when they are null: not locked), then its system packages' .debs.
std::vector<PinnedArtifact> pinned_artifacts(const lock::Lockfile& lock);

struct FetchedArtifact {
    PinnedArtifact artifact;
    bool cached = false; // the store had it: nothing moved
    std::int64_t bytes = 0; // its size
};

struct FetchOptions {
    http::ClientOptions client; // trusting $SSL_CERT_FILE when set
    http::RetryPolicy retry;
    std::size_t workers = 4; // downloads at once
};

// Puts every artifact of `lock` that `store` (opened for writing) lacks into its artifacts
// (store/artifacts.h): http(s) URLs through `options.client`, retried as `options.retry`
// says on dropped connections and 408/429/5xx; file:// URLs read from the local file.
// The sha256 is checked as the bytes stream in; a file that differs from the pin is
// Error(verification_failed) "<url> has sha256 <actual>, the lock pins <sha256>" and
// nothing of it is stored. Other answers than 2xx are Error(network) naming the URL and
// the status; a missing local file Error(not_found). After the first error no new
// download starts, those under way finish, and the error is rethrown. Returns one entry
// per artifact, in pinned_artifacts' order. `progress` hears each artifact's bytes
// (digest "sha256:<its sha256>", label its name) from the download threads: present
// when cached, transferring, finished.
std::vector<FetchedArtifact> fetch_artifacts(const lock::Lockfile& lock, const store::Store& store,
    const FetchOptions& options, const registry::ProgressCallback& progress);

} // namespace dlenv::image
