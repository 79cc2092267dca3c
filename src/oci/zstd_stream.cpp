#include "oci/zstd_stream.h"

#include "core/error.h"

#include <zstd.h>

#include <algorithm>
#include <string>

namespace dlenv::oci {
namespace {

// Part of every zstd layer's digest, so pinned here rather than left to defaults.
constexpr int k_level = 3;

void check(std::size_t result, const char* action)
{
    if (ZSTD_isError(result))
        throw Error(ErrorCode::environment, std::string(action) + ": " + ZSTD_getErrorName(result));
}

} // namespace

struct ZstdStream::State {
    ByteSink sink;
    ZSTD_CCtx* context = nullptr;
    std::string output;

    ~State() { ZSTD_freeCCtx(context); }

    // Feeds `input` with `mode` until libzstd has taken it all (and, when ending, has
    // flushed the frame), passing each filled buffer to the sink.
    void run(std::string_view bytes, ZSTD_EndDirective mode)
    {
        ZSTD_inBuffer input { bytes.data(), bytes.size(), 0 };
        for (;;) {
            ZSTD_outBuffer out { output.data(), output.size(), 0 };
            std::size_t left = ZSTD_compressStream2(context, &out, &input, mode);
            check(left, "zstd compress");
            if (out.pos > 0)
                sink(std::string_view(output.data(), out.pos));
            bool done = mode == ZSTD_e_end ? left == 0 : input.pos == input.size;
            if (done)
                return;
        }
    }
};

ZstdStream::ZstdStream(ByteSink sink, unsigned threads)
    : m_state(std::make_unique<State>())
{
    State& s = *m_state;
    s.sink = std::move(sink);
    s.output.resize(ZSTD_CStreamOutSize());
    s.context = ZSTD_createCCtx();
    if (!s.context)
        throw Error(ErrorCode::environment, "start zstd compression: libzstd is out of memory");
    check(ZSTD_CCtx_setParameter(s.context, ZSTD_c_compressionLevel, k_level), "set the zstd level");
    check(ZSTD_CCtx_setParameter(s.context, ZSTD_c_checksumFlag, 0), "turn off the zstd checksum");
    check(ZSTD_CCtx_setParameter(s.context, ZSTD_c_contentSizeFlag, 0), "turn off the zstd content size");
    check(ZSTD_CCtx_setParameter(s.context, ZSTD_c_nbWorkers, static_cast<int>(std::max(1u, threads))),
        "start zstd workers (libzstd built without threads?)");
}

std::string ZstdStream::format()
{
    return std::string("zstd ") + ZSTD_versionString() + " level " + std::to_string(k_level)
        + ", one or more workers, no checksum, no content size";
}

ZstdStream::~ZstdStream() = default;

void ZstdStream::write(std::string_view bytes)
{
    m_state->run(bytes, ZSTD_e_continue);
}

void ZstdStream::finish()
{
    m_state->run({}, ZSTD_e_end);
}

} // namespace dlenv::oci
