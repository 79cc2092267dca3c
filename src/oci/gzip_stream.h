#pragma once

#include "oci/byte_stream.h"

#include <cstddef>
#include <memory>
#include <string>

namespace dlenv::oci {

// Compresses a stream to gzip (libdeflate) on `threads` workers. The input is cut into
// blocks of k_block_size bytes, each compressed on its own into a complete gzip member
// (RFC 1952 section 2.2: a gzip file is a series of members) with MTIME 0, no name and
// a pinned level, and the members reach the sink in input order. The bytes therefore
// depend only on the input, never on the thread count or on how writes are split.
// At most `threads` blocks are in flight, so memory stays bounded for any stream length.
// Even an empty stream gives one member, so the output is always a valid gzip file.
class GzipStream final : public ByteStream {
public:
    static constexpr std::size_t k_block_size = 1 << 20;

    GzipStream(ByteSink sink, unsigned threads);
    // The settings that decide the bytes: block size, library version, level.
    static std::string format();
    ~GzipStream() override;
    GzipStream(const GzipStream&) = delete;
    GzipStream& operator=(const GzipStream&) = delete;

    void write(std::string_view bytes) override;
    void finish() override;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace dlenv::oci
