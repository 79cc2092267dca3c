#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace dlenv::oci {

// One header of a tar stream, as read; nothing in it has been checked for safety.
struct TarEntry {
    enum class Type { file, directory, symlink, hardlink, other }; // other: devices, fifos, sockets

    std::string path; // as stored in the archive
    Type type = Type::file;
    std::uint32_t mode = 0; // permission bits with setuid/setgid/sticky
    std::int64_t size = 0; // Type::file: bytes of data
    std::string link_target; // symlink: as stored; hardlink: the path of an earlier entry
    std::int64_t mtime = 0; // seconds since the epoch
};

// Reads a tar stream (ustar, PAX or GNU), plain or compressed with gzip (any number of
// concatenated members) or zstd, detected from its first bytes. The bytes come from
// `source`, which returns the next piece of the stream and an empty view at its end, so
// the caller sees every byte (to hash it) and owns the buffer each view points into
// until its next call. A stream that stops after the last entry's data, without the
// end-of-archive blocks, ends normally. Errors, and exceptions thrown by `source`, come
// out of the calls below; a malformed stream is Error(invalid_input) naming `name`.
class TarReader {
public:
    using Source = std::function<std::string_view()>;

    TarReader(Source source, std::string name);
    ~TarReader();
    TarReader(TarReader&&) noexcept;
    TarReader& operator=(TarReader&&) noexcept;
    TarReader(const TarReader&) = delete;
    TarReader& operator=(const TarReader&) = delete;

    // The next entry, skipping the data of the current one; nullopt at the end.
    std::optional<TarEntry> next();
    // The next piece of the current entry's data; empty once it is all read. The view
    // stays valid until the next call on this reader.
    std::string_view read_data();

private:
    friend void decompress(Source source, const std::string& name, const std::function<void(std::string_view)>& sink);
    struct State;
    std::unique_ptr<State> m_state;
};

// Hands `sink` the bytes of a stream compressed with gzip or zstd, decompressed, or of
// a plain stream as they are; `source` and `name` work as for TarReader.
void decompress(TarReader::Source source, const std::string& name, const std::function<void(std::string_view)>& sink);

} // namespace dlenv::oci
