// A layer applied onto a root filesystem (dlenv verify's unpack), then a check that
// nothing outside the root changed. The input lists the layer's entries, one a line,
// so that mutations change paths, kinds, modes and link targets rather than tar
// checksums:
//   [gzip|zstd]              optional first line: how the layer is compressed
//   f MODE PATH<TAB>DATA     a file
//   d MODE PATH              a directory
//   l MODE PATH<TAB>TARGET   a symbolic link
//   h MODE PATH<TAB>TARGET   a hard link to an earlier entry
// "@OUT@" anywhere stands for the absolute path of the directory beside the root that
// must stay untouched. Lines that do not parse are skipped.
#include "fuzz_input.h"
#include "oci/gzip_stream.h"
#include "oci/layer_reader.h"
#include "oci/media_types.h"
#include "oci/tar_writer.h"
#include "oci/zstd_stream.h"
#include "sandbox.h"

#include <charconv>
#include <memory>
#include <optional>
#include <vector>

namespace {

using namespace dlenv;
using oci::LayerEntry;

std::optional<LayerEntry> entry_of(std::string_view line)
{
    static const std::string_view kinds = "fdlh";
    static const LayerEntry::Type types[] = { LayerEntry::Type::file, LayerEntry::Type::directory,
        LayerEntry::Type::symlink, LayerEntry::Type::hardlink };
    if (line.size() < 4 || kinds.find(line[0]) == std::string_view::npos || line[1] != ' ')
        return std::nullopt;
    LayerEntry entry;
    entry.type = types[kinds.find(line[0])];
    line.remove_prefix(2);
    auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), entry.mode, 8);
    if (ec != std::errc() || end == line.data() + line.size() || *end != ' ')
        return std::nullopt;
    entry.mode &= 07777;
    line.remove_prefix(static_cast<std::size_t>(end - line.data()) + 1);
    std::size_t tab = line.find('\t');
    entry.path = std::string(line.substr(0, tab));
    std::string arg = tab == std::string_view::npos ? "" : std::string(line.substr(tab + 1));
    if (entry.type == LayerEntry::Type::file) {
        entry.contents = arg;
        entry.size = static_cast<std::int64_t>(arg.size());
    } else if (entry.type != LayerEntry::Type::directory) {
        entry.link_target = arg;
    }
    return entry;
}

// The layer blob the input describes, and its media type; nullopt when the writer
// refuses an entry (an empty path, say).
std::optional<std::pair<std::string, std::string_view>> layer_of(std::string_view text)
{
    std::string blob;
    oci::ByteSink into_blob = [&](std::string_view bytes) { blob.append(bytes); };
    std::unique_ptr<oci::ByteStream> compressor;
    std::string_view media_type = oci::media_type::k_layer_tar;
    if (text.starts_with("gzip\n")) {
        compressor = std::make_unique<oci::GzipStream>(into_blob, 1);
        media_type = oci::media_type::k_layer_gzip;
    } else if (text.starts_with("zstd\n")) {
        compressor = std::make_unique<oci::ZstdStream>(into_blob, 1);
        media_type = oci::media_type::k_layer_zstd;
    }
    oci::ByteSink tar_sink
        = compressor ? oci::ByteSink([&](std::string_view bytes) { compressor->write(bytes); }) : into_blob;
    try {
        oci::TarWriter tar(tar_sink, 1700000000);
        while (!text.empty()) {
            std::size_t newline = text.find('\n');
            if (auto entry = entry_of(text.substr(0, newline)))
                tar.add(*entry);
            text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
        }
        tar.finish();
        if (compressor)
            compressor->finish();
    } catch (const Error&) {
        return std::nullopt;
    }
    return std::pair { std::move(blob), media_type };
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const fuzz::Sandbox sandbox;
    static const oci::ImageLayout layout = oci::ImageLayout::open_or_create(sandbox.work() / "layout");
    auto layer = layer_of(sandbox.aim(fuzz::text_of(data, size)));
    if (!layer)
        return 0;
    oci::Descriptor descriptor { std::string(layer->second), Digest::of(layer->first),
        static_cast<std::int64_t>(layer->first.size()), {}, std::nullopt };
    fuzz::write_bytes(layout.blob_path(descriptor.digest), layer->first);
    fuzz::expect_only_error([&] { oci::apply_layer(layout, descriptor, sandbox.root()); });
    sandbox.check();
    std::filesystem::remove(layout.blob_path(descriptor.digest));
    sandbox.reset();
    return 0;
}
