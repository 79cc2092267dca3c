#include "registry/blob_transfer.h"

#include "core/file.h"
#include "http/url.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <thread>

namespace dlenv::registry {
namespace {

// Reads the bytes [offset, offset + size) of an open blob file as a request body.
http::BodySource file_range(int fd, std::int64_t offset, std::int64_t size, const std::filesystem::path& path)
{
    auto position = std::make_shared<std::int64_t>(offset);
    std::int64_t end = offset + size;
    return { size, [fd, position, end, path](char* buffer, std::size_t capacity) -> std::size_t {
                std::size_t want = static_cast<std::size_t>(
                    std::min<std::int64_t>(static_cast<std::int64_t>(capacity), end - *position));
                if (want == 0)
                    return 0;
                ssize_t got = ::pread(fd, buffer, want, *position);
                if (got <= 0)
                    throw io_error("read", path);
                *position += got;
                return static_cast<std::size_t>(got);
            } };
}

std::string with_query(const std::string& url, const std::string& parameter)
{
    return url + (url.find('?') == std::string::npos ? "?" : "&") + parameter;
}

// The offset after the last byte a "Range: 0-N" header says the registry holds; nullopt
// for "0-0", which the reference registry sends for an upload that holds nothing as well
// as for one that holds a byte, so that the two cannot be told apart.
std::optional<std::int64_t> offset_after(const http::Response& response)
{
    std::optional<std::string> range = response.header("Range");
    if (!range)
        return 0;
    std::size_t dash = range->find('-');
    std::int64_t last = -1;
    if (dash == std::string::npos
        || std::from_chars(range->data() + dash + 1, range->data() + range->size(), last).ec != std::errc())
        return 0;
    if (last == 0)
        return std::nullopt;
    return last + 1;
}

// One blob's upload session: where the next request goes, and how far the bytes got.
class Upload {
public:
    Upload(Session& session, const std::string& repository, const oci::Descriptor& blob, const oci::ImageLayout& layout,
        const UploadOptions& options, const ProgressCallback& progress)
        : m_session(session)
        , m_repository(repository)
        , m_blob(blob)
        , m_path(layout.blob_path(blob.digest))
        , m_fd(::open(m_path.c_str(), O_RDONLY | O_CLOEXEC))
        , m_options(options)
        , m_progress(progress)
        , m_what("upload blob " + blob.digest.text() + " to " + session.registry() + "/" + repository)
    {
        if (m_fd.get() < 0)
            throw io_error("open", m_path);
    }

    BlobProgress::State run()
    {
        if (start(m_options.mount_from))
            return BlobProgress::State::mounted;
        if (m_blob.size <= m_options.chunk_size)
            put_whole();
        else
            put_chunks();
        report(m_blob.size, BlobProgress::State::finished);
        return BlobProgress::State::finished;
    }

private:
    std::string scope() const
    {
        std::string scope = push_scope(m_repository);
        return m_options.mount_from.empty() ? scope : scope + " " + pull_scope(m_options.mount_from);
    }

    http::Response send(const std::function<http::Request()>& make, bool retry)
    {
        return m_session.send(make, scope(), retry);
    }

    void report(std::int64_t done, BlobProgress::State state) const
    {
        if (m_progress)
            m_progress({ m_blob.digest, m_blob.size, done, state });
    }

    // POSTs a new upload session (a mount when `from` is set); true when the registry
    // mounted the blob and there is nothing to upload.
    bool start(const std::string& from)
    {
        std::string url = "/v2/" + m_repository + "/blobs/uploads/";
        if (!from.empty())
            url += "?mount=" + m_blob.digest.text() + "&from=" + http::url_encode(from);
        http::Response response = send([&] { return http::Request { .method = "POST", .url = url }; }, true);
        if (response.status == 201 && !from.empty())
            return true;
        std::optional<std::string> location = response.header("Location");
        if (response.status != 202 || !location)
            throw registry_error(response, m_what);
        m_location = http::resolve_url(response.url, *location);
        std::int64_t minimum = 0;
        if (std::optional<std::string> header = response.header("OCI-Chunk-Min-Length"))
            std::from_chars(header->data(), header->data() + header->size(), minimum);
        m_chunk = std::max(m_options.chunk_size, minimum);
        return false;
    }

    void put_whole()
    {
        for (int retry = 1;; ++retry) {
            try {
                http::Response response = send(
                    [&] {
                        return http::Request { .method = "PUT",
                            .url = with_query(m_location, "digest=" + m_blob.digest.text()),
                            .headers = { { "Content-Type", "application/octet-stream" } },
                            .stream = file_range(m_fd.get(), 0, m_blob.size, m_path),
                            .on_progress = [&](std::int64_t done, std::int64_t) {
                                report(done, BlobProgress::State::transferring);
                            } };
                    },
                    false);
                if (response.status == 201)
                    return;
                if (!http::is_transient_status(response.status) || retry >= policy().attempts)
                    throw registry_error(response, m_what);
                pause(retry, &response);
            } catch (const Error& e) {
                if (e.code() != ErrorCode::network || retry >= policy().attempts)
                    throw;
                pause(retry, nullptr);
            }
            start("");
        }
    }

    void put_chunks()
    {
        std::int64_t offset = 0;
        for (int failures = 0; offset < m_blob.size;) {
            std::int64_t length = std::min(m_chunk, m_blob.size - offset);
            std::optional<http::Response> answer;
            try {
                answer = send([&] { return chunk_request(offset, length); }, false);
            } catch (const Error& e) {
                if (e.code() != ErrorCode::network)
                    throw;
            }
            if (answer && answer->status == 202) {
                offset += length;
                failures = 0;
                if (std::optional<std::string> location = answer->header("Location"))
                    m_location = http::resolve_url(answer->url, *location);
                continue;
            }
            bool transient = !answer || answer->status == 416 || http::is_transient_status(answer->status);
            if (!transient || ++failures >= policy().attempts)
                throw answer ? registry_error(*answer, m_what)
                             : Error(ErrorCode::network,
                                 m_what + ": the connection failed " + std::to_string(failures) + " times at byte "
                                     + std::to_string(offset));
            pause(failures, answer ? &*answer : nullptr);
            offset = resume_offset();
        }
        http::Response response = send(
            [&] {
                return http::Request { .method = "PUT",
                    .url = with_query(m_location, "digest=" + m_blob.digest.text()),
                    .headers = { { "Content-Type", "application/octet-stream" } } };
            },
            true);
        if (response.status != 201)
            throw registry_error(response, m_what);
    }

    http::Request chunk_request(std::int64_t offset, std::int64_t length)
    {
        return http::Request { .method = "PATCH",
            .url = m_location,
            .headers = { { "Content-Type", "application/octet-stream" },
                { "Content-Range", std::to_string(offset) + "-" + std::to_string(offset + length - 1) } },
            .stream = file_range(m_fd.get(), offset, length, m_path),
            .on_progress = [this, offset](std::int64_t done, std::int64_t) {
                report(offset + done, BlobProgress::State::transferring);
            } };
    }

    // Where to go on after a failed chunk: what the registry holds of the upload, or a
    // fresh upload from byte 0 when it no longer knows this one or cannot say.
    std::int64_t resume_offset()
    {
        http::Response status = send([&] { return http::Request { .url = m_location }; }, true);
        if (status.status == 204) {
            if (std::optional<std::string> location = status.header("Location"))
                m_location = http::resolve_url(status.url, *location);
            if (std::optional<std::int64_t> held = offset_after(status))
                return *held;
        } else if (status.status != 404) {
            throw registry_error(status, m_what);
        }
        start("");
        return 0;
    }

    const http::RetryPolicy& policy() const { return m_session.options().retry; }
    void pause(int retry, const http::Response* response) const
    {
        std::this_thread::sleep_for(http::retry_delay(policy(), retry, response));
    }

    Session& m_session;
    const std::string& m_repository;
    const oci::Descriptor& m_blob;
    std::filesystem::path m_path;
    UniqueFd m_fd;
    const UploadOptions& m_options;
    const ProgressCallback& m_progress;
    std::string m_what;
    std::string m_location;
    std::int64_t m_chunk = 0;
};

} // namespace

BlobProgress::State upload_blob(Session& session, const std::string& repository, const oci::Descriptor& blob,
    const oci::ImageLayout& layout, const UploadOptions& options, const ProgressCallback& progress)
{
    return Upload(session, repository, blob, layout, options, progress).run();
}

} // namespace dlenv::registry
