#include "oci/layer_writer.h"

#include "core/error.h"
#include "core/sha256.h"
#include "oci/gzip_stream.h"
#include "oci/tar_writer.h"
#include "oci/zstd_stream.h"

#include <algorithm>
#include <thread>

namespace dlenv::oci {
namespace {

class PassThrough final : public ByteStream {
public:
    explicit PassThrough(ByteSink sink)
        : m_sink(std::move(sink))
    {
    }
    void write(std::string_view bytes) override { m_sink(bytes); }
    void finish() override { }

private:
    ByteSink m_sink;
};

std::unique_ptr<ByteStream> make_compressor(Compression compression, unsigned threads, ByteSink sink)
{
    switch (compression) {
    case Compression::gzip:
        return std::make_unique<GzipStream>(std::move(sink), threads);
    case Compression::zstd:
        return std::make_unique<ZstdStream>(std::move(sink), threads);
    case Compression::none:
        break;
    }
    return std::make_unique<PassThrough>(std::move(sink));
}

void check_order(const std::vector<LayerEntry>& entries)
{
    for (std::size_t i = 1; i < entries.size(); ++i)
        if (entries[i].path == entries[i - 1].path)
            throw Error(ErrorCode::invalid_input, "the layer has two entries for " + entries[i].path);
}

} // namespace

std::string layer_format(Compression compression)
{
    std::string tar = "dlenv.layer/v1: pax_restricted tar, entries sorted, 0:0, mtime = epoch; ";
    switch (compression) {
    case Compression::gzip:
        return tar + GzipStream::format();
    case Compression::zstd:
        return tar + ZstdStream::format();
    case Compression::none:
        break;
    }
    return tar + "uncompressed";
}

WrittenLayer write_layer(std::vector<LayerEntry> entries, const LayerOptions& options, BlobWriter blob)
{
    std::sort(entries.begin(), entries.end(), [](const LayerEntry& a, const LayerEntry& b) { return a.path < b.path; });
    check_order(entries);

    unsigned threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    Sha256 tar_hash;
    std::unique_ptr<ByteStream> compressor
        = make_compressor(options.compression, threads, [&blob](std::string_view bytes) { blob.write(bytes); });
    // The tar is hashed here, on the thread that makes it, so the diff_id needs no second
    // pass and no copy.
    TarWriter tar(
        [&](std::string_view bytes) {
            tar_hash.update(bytes);
            compressor->write(bytes);
        },
        options.source_date_epoch);
    for (const LayerEntry& entry : entries)
        tar.add(entry);
    tar.finish();
    compressor->finish();

    BlobWriter::Committed committed = blob.commit();
    return WrittenLayer { Descriptor { std::string(layer_media_type(options.compression)), committed.digest,
                              committed.size, {}, std::nullopt },
        Digest::from_hex(tar_hash.hex_digest()) };
}

} // namespace dlenv::oci
