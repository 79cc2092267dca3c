#pragma once

#include "core/error.h"
#include "http/client.h"
#include "http/retry.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::pypi {

// A wheel (a zip file) at an HTTP URL, read member by member through `Range:` requests
// instead of downloaded whole, as pip's "lazy wheel" reads METADATA: the last 64 KiB
// (and 21 bytes: room for the longest end record) for the end records, ZIP64 ones
// included; the rest of the central directory when that tail does not hold it; then
// mostly one range per member, its local header and data together.
//
// A range cannot be checked against the wheel's sha256, so what comes back is checked
// against the central directory only (CRC-32 and size). That is enough for METADATA at
// lock time: the lock pins the index's sha256 of the whole wheel, and installing from
// the lock checks the downloaded wheel against it (`dlenv fetch` and `dlenv build`, and
// pip's --hash in the generated Dockerfile).
//
// Requests go through `client` (which must outlive this object) with `retry`.
// Malformed zips throw Error(invalid_input) naming the URL. A server that honoured the
// first range and then answers another range, another file size or the whole file
// throws Error(network). Not thread-safe.
class RemoteWheel {
public:
    // Reads the end records and the central directory of the zip at `url`. nullopt when
    // the server does not honour ranges (its answer to the first is not a 206 with a
    // Content-Range): the caller then downloads the whole file. The whole-file answer
    // is cut off after its headers, so that costs one round trip, not one download.
    static std::optional<RemoteWheel> open(
        const http::Client& client, const http::RetryPolicy& retry, const std::string& url);

    // The members' paths, in the central directory's order.
    std::vector<std::string> paths() const;

    // The contents of member `path`, stored or inflated, its CRC-32 and size checked;
    // nullopt when the zip has no such member.
    std::optional<std::string> read(const std::string& path);

private:
    struct Entry {
        std::string path;
        int method = 0;
        int flags = 0;
        std::uint32_t crc32 = 0;
        std::uint64_t compressed_size = 0;
        std::uint64_t size = 0;
        std::uint64_t local_header = 0; // offset of its local file header
        std::size_t central_extra = 0; // length of its central directory extra field
    };

    RemoteWheel(const http::Client& client, const http::RetryPolicy& retry, std::string url);

    // GET with `Range: bytes=<spec>`; a whole-file answer is cut off after its headers.
    http::Response get_range(const std::string& spec) const;
    // Bytes [offset, offset + length), from the tail read so far or fetched.
    std::string bytes(std::uint64_t offset, std::uint64_t length, const std::string& what);
    void read_central_directory();
    Error malformed(const std::string& what) const;

    const http::Client* m_client;
    http::RetryPolicy m_retry;
    std::string m_url;
    std::uint64_t m_size = 0; // of the whole file, from Content-Range
    std::uint64_t m_tail_offset = 0; // m_tail holds bytes [m_tail_offset, m_size)
    std::string m_tail;
    std::vector<Entry> m_entries;
};

} // namespace dlenv::pypi
