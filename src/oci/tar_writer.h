#pragma once

#include "oci/byte_stream.h"
#include "oci/layer_entry.h"

#include <cstdint>
#include <memory>

namespace dlenv::oci {

// Writes an uncompressed, deterministic tar stream (libarchive, pax_restricted: ustar
// headers, with a PAX header named "<dir>/PaxHeader/<name>" only where ustar cannot
// hold a path, link target or size). Every entry gets uid/gid 0, no user or group names,
// mtime `mtime` and no atime, ctime or xattrs. The stream is passed to the sink as it is
// made, unblocked, and ends with the two zero blocks that close a tar archive.
class TarWriter {
public:
    TarWriter(ByteSink sink, std::int64_t mtime);
    ~TarWriter();
    TarWriter(TarWriter&&) noexcept;
    TarWriter& operator=(TarWriter&&) noexcept;
    TarWriter(const TarWriter&) = delete;
    TarWriter& operator=(const TarWriter&) = delete;

    // Writes one entry; a file's data is read from `entry.source` in chunks (or taken from
    // `entry.contents`). Callers order the entries. Throws Error(io) when the source cannot
    // be read or does not have `entry.size` bytes, and rethrows what the sink throws.
    void add(const LayerEntry& entry);
    // Writes the end-of-archive blocks. Nothing may be added afterwards.
    void finish();

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace dlenv::oci
