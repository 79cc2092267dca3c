#pragma once

#include "oci/byte_stream.h"

#include <memory>
#include <string>

namespace dlenv::oci {

// Compresses a stream to one zstd frame (libzstd) at a pinned level with
// max(1, threads) workers. libzstd gives the same bytes for any worker count of at least
// one (its single-threaded mode, zero workers, differs and is never used), so the output
// depends only on the input. The frame carries no content size and no checksum.
class ZstdStream final : public ByteStream {
public:
    ZstdStream(ByteSink sink, unsigned threads);
    // The settings that decide the bytes: library version, level, worker mode.
    static std::string format();
    ~ZstdStream() override;
    ZstdStream(const ZstdStream&) = delete;
    ZstdStream& operator=(const ZstdStream&) = delete;

    void write(std::string_view bytes) override;
    void finish() override;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace dlenv::oci
