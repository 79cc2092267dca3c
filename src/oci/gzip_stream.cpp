#include "oci/gzip_stream.h"

#include "core/error.h"

#include <libdeflate.h>

#include <algorithm>
#include <deque>
#include <future>
#include <string>

namespace dlenv::oci {
namespace {

// Part of every gzip layer's digest: changing it changes the bytes of every layer.
// Measured in 1 MiB blocks against `umoci insert` (pgzip -6) of the same trees: on a
// CUDA 13 lib dir (2.57 GB of tar) level 4 gives 1.784 GB to umoci's 1.812 GB, on
// python3.11's stdlib 15.6 MB to 16.2 MB, and runs 27% faster than level 6, which
// saves only another 0.6% on the CUDA libraries.
constexpr int k_level = 4;

std::string compress_block(const std::string& input)
{
    std::unique_ptr<libdeflate_compressor, decltype(&libdeflate_free_compressor)> compressor(
        libdeflate_alloc_compressor(k_level), &libdeflate_free_compressor);
    if (!compressor)
        throw Error(ErrorCode::environment, "start gzip compression: libdeflate is out of memory");
    std::string output(libdeflate_gzip_compress_bound(compressor.get(), input.size()), '\0');
    std::size_t size
        = libdeflate_gzip_compress(compressor.get(), input.data(), input.size(), output.data(), output.size());
    if (size == 0)
        throw Error(ErrorCode::environment, "gzip compress a block: libdeflate's output bound was too small");
    output.resize(size);
    return output;
}

} // namespace

struct GzipStream::State {
    ByteSink sink;
    std::size_t threads = 1;
    std::string block;
    // Members being compressed, oldest first; the sink takes them in this order.
    std::deque<std::future<std::string>> in_flight;
    bool any_member = false;

    void emit_oldest()
    {
        std::string member = in_flight.front().get();
        in_flight.pop_front();
        sink(member);
    }

    void submit_block()
    {
        if (in_flight.size() >= threads)
            emit_oldest();
        // A thread per block costs microseconds against the milliseconds a block takes,
        // and needs no pool to shut down on an error.
        in_flight.push_back(std::async(std::launch::async, compress_block, std::move(block)));
        block = std::string();
        block.reserve(k_block_size);
        any_member = true;
    }
};

GzipStream::GzipStream(ByteSink sink, unsigned threads)
    : m_state(std::make_unique<State>())
{
    m_state->sink = std::move(sink);
    m_state->threads = std::max(1u, threads);
    m_state->block.reserve(k_block_size);
}

// Waiting for the blocks still in flight is what the futures' destructors do.
GzipStream::~GzipStream() = default;

void GzipStream::write(std::string_view bytes)
{
    State& s = *m_state;
    while (!bytes.empty()) {
        std::size_t take = std::min(bytes.size(), k_block_size - s.block.size());
        s.block.append(bytes.substr(0, take));
        bytes.remove_prefix(take);
        if (s.block.size() == k_block_size)
            s.submit_block();
    }
}

void GzipStream::finish()
{
    State& s = *m_state;
    if (!s.block.empty() || !s.any_member)
        s.submit_block();
    while (!s.in_flight.empty())
        s.emit_oldest();
}

} // namespace dlenv::oci
