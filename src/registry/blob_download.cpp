#include "registry/blob_transfer.h"

#include "core/error.h"

#include <thread>

namespace dlenv::registry {
namespace {

// Configs run to a few KiB (Env, Labels, one history entry per layer); the limit is the
// manifests' own, so a registry cannot make dlenv hold an unbounded answer.
constexpr std::int64_t k_max_config_bytes = 8 << 20;

} // namespace

std::string get_config_blob(Session& session, const std::string& repository, const oci::Descriptor& config)
{
    std::string what = "config " + config.digest.text() + " of " + session.registry() + "/" + repository;
    if (config.size > k_max_config_bytes)
        throw Error(
            ErrorCode::network, what + " is " + std::to_string(config.size) + " bytes, too large for an image config");
    http::Response response
        = session.send([&] { return http::Request { .url = "/v2/" + repository + "/blobs/" + config.digest.text() }; },
            pull_scope(repository), true);
    if (!response.ok())
        throw registry_error(response, "download " + what);
    Digest received = Digest::of(response.body);
    std::int64_t size = static_cast<std::int64_t>(response.body.size());
    if (received != config.digest || size != config.size)
        throw Error(ErrorCode::verification_failed,
            what + ": content is " + received.text() + " (" + std::to_string(size) + " bytes), expected "
                + config.digest.text() + " (" + std::to_string(config.size) + " bytes)",
            "the registry or something between it and here changed the config; do not use this image");
    return std::move(response.body);
}

bool has_blob(Session& session, const std::string& repository, const oci::Descriptor& blob)
{
    http::Response response = session.send(
        [&] { return http::Request { .method = "HEAD", .url = "/v2/" + repository + "/blobs/" + blob.digest.text() }; },
        push_scope(repository), true);
    if (response.status == 404)
        return false;
    if (!response.ok())
        throw registry_error(response, "check for blob " + blob.digest.text() + " in " + repository);
    return true;
}

void download_blob(Session& session, const std::string& repository, const oci::Descriptor& blob,
    const oci::ImageLayout& layout, const ProgressCallback& progress)
{
    std::string what = "blob " + blob.digest.text() + " of " + session.registry() + "/" + repository;
    const http::RetryPolicy& policy = session.options().retry;
    for (int retry = 1;; ++retry) {
        oci::BlobWriter writer = layout.new_blob();
        auto make = [&] {
            return http::Request {
                .url = "/v2/" + repository + "/blobs/" + blob.digest.text(),
                .on_data = [&](std::string_view bytes) { writer.write(bytes); },
                .on_progress =
                    [&](std::int64_t done, std::int64_t) {
                        if (progress)
                            progress({ blob.digest, blob.size, done, BlobProgress::State::transferring });
                    },
            };
        };
        try {
            http::Response response = session.send(make, pull_scope(repository), false);
            if (response.ok()) {
                writer.commit_expecting(blob, what);
                if (progress)
                    progress({ blob.digest, blob.size, blob.size, BlobProgress::State::finished });
                return;
            }
            if (!http::is_transient_status(response.status) || retry >= policy.attempts)
                throw registry_error(response, "download " + what);
            std::this_thread::sleep_for(http::retry_delay(policy, retry, &response));
        } catch (const Error& e) {
            if (e.code() != ErrorCode::network || retry >= policy.attempts)
                throw;
            std::this_thread::sleep_for(http::retry_delay(policy, retry, nullptr));
        }
    }
}

} // namespace dlenv::registry
