#include "image/fetch.h"

#include "core/error.h"
#include "core/parallel.h"
#include "oci/file_source.h"
#include "store/artifacts.h"

#include <thread>

namespace dlenv::image {
namespace {

constexpr std::string_view k_file_scheme = "file://";

std::string runtime_name(const std::string& url)
{
    std::size_t slash = url.find_last_of('/');
    return slash == std::string::npos ? url : url.substr(slash + 1);
}

Error mismatch(const PinnedArtifact& artifact, const std::string& actual)
{
    return Error(ErrorCode::verification_failed,
        artifact.url + " has sha256 " + actual + ", the lock pins " + artifact.sha256,
        "nothing was stored: the file changed upstream since the lock was written. Find the original file "
        "(a mirror, a wheelhouse), or run `dlenv lock` again to pin the new one deliberately");
}

class Fetcher {
public:
    Fetcher(const store::Store& store, const FetchOptions& options, const registry::ProgressCallback& progress)
        : m_store(store)
        , m_options(options)
        , m_client(options.client)
        , m_progress(progress)
    {
    }

    FetchedArtifact fetch(const PinnedArtifact& artifact) const
    {
        Digest digest = Digest::from_hex(artifact.sha256);
        if (auto path = store::find_artifact(m_store, artifact.sha256)) {
            auto size = static_cast<std::int64_t>(std::filesystem::file_size(*path));
            report({ digest, size, size, registry::BlobProgress::State::present, artifact.name });
            return { artifact, true, size };
        }
        // Every error names the URL or the path already.
        store::StoredArtifact stored
            = artifact.url.starts_with(k_file_scheme) ? copy(artifact, digest) : download(artifact, digest);
        report({ digest, stored.size, stored.size, registry::BlobProgress::State::finished, artifact.name });
        return { artifact, false, stored.size };
    }

private:
    void report(const registry::BlobProgress& progress) const
    {
        if (m_progress)
            m_progress(progress);
    }

    store::StoredArtifact store(
        const PinnedArtifact& artifact, const std::function<void(const store::ArtifactSink&)>& write) const
    {
        return store::add_artifact(
            m_store, artifact.sha256, write, [&](const std::string& actual) { return mismatch(artifact, actual); });
    }

    static oci::FileSource open_local(const PinnedArtifact& artifact)
    {
        try {
            return oci::FileSource(artifact.url.substr(k_file_scheme.size()));
        } catch (const Error& e) {
            if (e.code() != ErrorCode::not_found)
                throw;
            throw Error(e.code(), e.message(),
                "the lock pins a local file that is gone: put it back, or run `dlenv lock` again");
        }
    }

    store::StoredArtifact copy(const PinnedArtifact& artifact, const Digest& digest) const
    {
        return store(artifact, [&](const store::ArtifactSink& sink) {
            oci::FileSource file = open_local(artifact);
            std::int64_t done = 0;
            for (std::string_view piece = file.next(); !piece.empty(); piece = file.next()) {
                sink(piece);
                done += static_cast<std::int64_t>(piece.size());
                report({ digest, file.size(), done, registry::BlobProgress::State::transferring, artifact.name });
            }
        });
    }

    // Each attempt starts the file again: a dropped connection leaves nothing behind.
    store::StoredArtifact download(const PinnedArtifact& artifact, const Digest& digest) const
    {
        const http::RetryPolicy& policy = m_options.retry;
        for (int retry = 1;; ++retry) {
            std::optional<http::Response> refused; // a complete answer other than 2xx
            try {
                return store(artifact, [&](const store::ArtifactSink& sink) {
                    http::Request request;
                    request.url = artifact.url;
                    request.on_data = sink;
                    request.on_progress = [&](std::int64_t done, std::int64_t total) {
                        report({ digest, total ? total : artifact.size.value_or(0), done,
                            registry::BlobProgress::State::transferring, artifact.name });
                    };
                    http::Response response = m_client.send(request);
                    if (!response.ok()) {
                        refused = response;
                        throw Error(ErrorCode::network,
                            "GET " + artifact.url + ": HTTP " + std::to_string(response.status),
                            response.status == 404 || response.status == 410
                                ? "the server no longer has the file the lock pins: find it elsewhere, or run "
                                  "`dlenv lock` again"
                                : "");
                    }
                });
            } catch (const Error& e) {
                bool transient
                    = e.code() == ErrorCode::network && (!refused || http::is_transient_status(refused->status));
                if (!transient || retry >= policy.attempts)
                    throw;
                std::this_thread::sleep_for(http::retry_delay(policy, retry, refused ? &*refused : nullptr));
            }
        }
    }

    const store::Store& m_store;
    const FetchOptions& m_options;
    http::Client m_client;
    const registry::ProgressCallback& m_progress;
};

} // namespace

std::vector<PinnedArtifact> pinned_artifacts(const lock::Lockfile& lock)
{
    std::vector<PinnedArtifact> out;
    if (const auto& runtime = lock.python().runtime)
        out.push_back({ runtime_name(runtime->url), runtime->url, runtime->sha256, std::nullopt });
    if (const auto& packages = lock.packages())
        for (const auto& package : *packages)
            out.push_back({ package.filename, package.url, package.sha256, package.size });
    if (const auto& system = lock.system_packages())
        for (const auto& deb : system->packages)
            out.push_back({ deb.filename, deb.url, deb.sha256, deb.size });
    return out;
}

std::vector<FetchedArtifact> fetch_artifacts(const lock::Lockfile& lock, const store::Store& store,
    const FetchOptions& options, const registry::ProgressCallback& progress)
{
    std::vector<PinnedArtifact> artifacts = pinned_artifacts(lock);
    std::vector<FetchedArtifact> fetched(artifacts.size());
    Fetcher fetcher(store, options, progress);
    parallel_for(artifacts.size(), options.workers, [&](std::size_t i) { fetched[i] = fetcher.fetch(artifacts[i]); });
    return fetched;
}

} // namespace dlenv::image
