#include "oci/tar_reader.h"

#include "core/error.h"
#include "core/libarchive.h"

#include <algorithm>
#include <cerrno>
#include <exception>
#include <utility>
#include <vector>

namespace dlenv::oci {

struct TarReader::State {
    Source source;
    std::string name;
    archive* reader = nullptr;
    // An exception thrown by `source` cannot cross libarchive's C frames: it waits here
    // until control is back in C++.
    std::exception_ptr pending;
    bool source_ended = false;
    bool ended = false;
    std::int64_t data_left = 0; // of the current entry, not yet handed out
    std::int64_t position = 0; // of the current entry, handed out
    std::int64_t hole = 0; // zeros of a sparse entry to hand out before `block`
    std::string_view block; // data read from libarchive, not yet handed out
    std::vector<char> buffer = std::vector<char>(1 << 18);

    ~State()
    {
        if (reader)
            libarchive().read_free(reader);
    }

    static la_ssize_t read(archive* reader, void* client, const void** buffer)
    {
        auto* state = static_cast<State*>(client);
        try {
            std::string_view piece = state->source();
            state->source_ended = piece.empty();
            *buffer = piece.data();
            return static_cast<la_ssize_t>(piece.size());
        } catch (...) {
            state->pending = std::current_exception();
            libarchive().set_error(reader, EIO, "the byte source failed");
            return -1;
        }
    }

    // Turns a libarchive status into our error; warnings (an unknown PAX record, say)
    // do not stop the read.
    void check(int status)
    {
        if (pending)
            std::rethrow_exception(std::exchange(pending, nullptr));
        if (status >= ARCHIVE_WARN)
            return;
        const char* why = libarchive().error_string(reader);
        throw Error(ErrorCode::invalid_input, "read " + name + ": " + (why ? why : "malformed tar stream"),
            "the archive is damaged or not a tar stream: fetch or build it again");
    }

    // umoci can stop a layer right after the last entry's data, without even its
    // padding; libarchive then fails to skip the padding on its way to the next
    // header. With the source at its end, the entry's data all handed out and the
    // stream stopped short of a block boundary, only padding is missing: that is the
    // end of the archive. A stream cut inside a header stays an error.
    bool ends_early(int status)
    {
        ended = status < ARCHIVE_WARN && !pending && source_ended && data_left == 0
            && libarchive().filter_bytes(reader, 0) % 512 != 0;
        return ended;
    }

    // `format` is libarchive's tar or raw (the whole decompressed stream as one entry).
    static std::unique_ptr<State> open(Source source, std::string name, int (*format)(archive*))
    {
        auto state = std::make_unique<State>();
        State& s = *state;
        s.source = std::move(source);
        s.name = std::move(name);
        s.reader = libarchive().read_new();
        if (!s.reader)
            throw Error(ErrorCode::io, "read " + s.name + ": cannot allocate an archive reader");
        s.check(format(s.reader));
        s.check(libarchive().read_support_filter_gzip(s.reader));
        s.check(libarchive().read_support_filter_zstd(s.reader));
        s.check(libarchive().read_open(s.reader, &s, nullptr, &State::read, nullptr));
        return state;
    }
};

TarReader::TarReader(Source source, std::string name)
    : m_state(State::open(std::move(source), std::move(name), libarchive().read_support_format_tar))
{
}

TarReader::~TarReader() = default;
TarReader::TarReader(TarReader&&) noexcept = default;
TarReader& TarReader::operator=(TarReader&&) noexcept = default;

std::optional<TarEntry> TarReader::next()
{
    State& s = *m_state;
    archive_entry* header = nullptr;
    int status = s.ended ? ARCHIVE_EOF : libarchive().read_next_header(s.reader, &header);
    if (status == ARCHIVE_EOF || s.ends_early(status))
        return std::nullopt;
    s.check(status);

    TarEntry entry;
    const char* path = libarchive().entry_pathname(header);
    if (!path)
        throw Error(ErrorCode::invalid_input, "read " + s.name + ": an entry has no readable path");
    entry.path = path;
    entry.mode = static_cast<std::uint32_t>(libarchive().entry_perm(header));
    entry.size = libarchive().entry_size(header);
    s.data_left = entry.size;
    s.position = 0;
    s.hole = 0;
    s.block = {};
    entry.mtime = libarchive().entry_mtime(header);
    if (const char* target = libarchive().entry_hardlink(header)) {
        entry.type = TarEntry::Type::hardlink;
        entry.link_target = target;
        return entry;
    }
    switch (libarchive().entry_filetype(header)) {
    case AE_IFREG:
        entry.type = TarEntry::Type::file;
        break;
    case AE_IFDIR:
        entry.type = TarEntry::Type::directory;
        break;
    case AE_IFLNK:
        entry.type = TarEntry::Type::symlink;
        entry.link_target = libarchive().entry_symlink(header) ? libarchive().entry_symlink(header) : "";
        break;
    default:
        entry.type = TarEntry::Type::other;
        break;
    }
    return entry;
}

std::string_view TarReader::read_data()
{
    State& s = *m_state;
    // Asking only while the entry has data left keeps libarchive from reaching for the
    // padding after it, which a stream cut short lacks (see ends_early).
    if (s.ended || s.data_left <= 0)
        return {};
    while (s.block.empty() && s.hole == 0) {
        // A view into libarchive's read-ahead, which for an uncompressed stream is the
        // source's own piece: the data is not copied on its way to the caller.
        const void* block = nullptr;
        std::size_t size = 0;
        la_int64_t offset = 0;
        int status = libarchive().read_data_block(s.reader, &block, &size, &offset);
        if (status == ARCHIVE_EOF)
            offset = s.position + s.data_left; // a sparse entry that ends in a hole
        else
            s.check(status);
        if (offset < s.position)
            throw Error(ErrorCode::invalid_input, "read " + s.name + ": an entry's data goes back on itself",
                "the archive is damaged or not a tar stream: fetch or build it again");
        s.hole = offset - s.position;
        s.block = { static_cast<const char*>(block), status == ARCHIVE_EOF ? 0 : size };
    }
    // The holes of a sparse entry read as zeros, as archive_read_data gives them.
    static const std::vector<char> zeros(1 << 16);
    std::string_view piece = s.hole > 0
        ? std::string_view(zeros.data(), static_cast<std::size_t>(std::min<std::int64_t>(s.hole, zeros.size())))
        : std::exchange(s.block, std::string_view());
    piece = piece.substr(0, static_cast<std::size_t>(std::min<std::int64_t>(s.data_left, piece.size())));
    if (s.hole > 0)
        s.hole -= static_cast<std::int64_t>(piece.size());
    s.position += static_cast<std::int64_t>(piece.size());
    s.data_left -= static_cast<std::int64_t>(piece.size());
    return piece;
}

void decompress(TarReader::Source source, const std::string& name, const std::function<void(std::string_view)>& sink)
{
    auto state = TarReader::State::open(std::move(source), name, libarchive().read_support_format_raw);
    archive_entry* header = nullptr;
    int status = libarchive().read_next_header(state->reader, &header);
    if (status == ARCHIVE_EOF)
        return;
    state->check(status);
    for (;;) {
        la_ssize_t n = libarchive().read_data(state->reader, state->buffer.data(), state->buffer.size());
        if (n < 0)
            state->check(static_cast<int>(n));
        if (n <= 0)
            return;
        sink({ state->buffer.data(), static_cast<std::size_t>(n) });
    }
}

} // namespace dlenv::oci
