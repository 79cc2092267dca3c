#include "oci/tar_writer.h"

#include "core/error.h"
#include "core/file.h"
#include "core/libarchive.h"
#include "core/sha256.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <optional>
#include <unistd.h>
#include <vector>

namespace dlenv::oci {
namespace {

// Large enough that a read costs little against hashing and compressing it, small enough
// to stay in cache on its way through the pipeline.
constexpr std::size_t k_read_chunk = 1 << 20;

Error archive_error(struct archive* archive, const std::string& action, ErrorCode code = ErrorCode::io)
{
    const char* text = libarchive().error_string(archive);
    return Error(code, action + ": " + (text ? text : "libarchive failed"));
}

} // namespace

struct TarWriter::State {
    ByteSink sink;
    std::int64_t mtime = 0;
    struct archive* archive = nullptr;
    struct archive_entry* entry = nullptr;
    // An exception thrown by the sink, kept while libarchive unwinds its C frames.
    std::exception_ptr sink_error;
    std::vector<char> buffer;
    bool abandoned = false; // being destroyed: nothing more reaches the sink

    // Frees only what libarchive made: where it could not be loaded there is nothing to free,
    // and asking for it again here would throw out of a destructor.
    ~State()
    {
        if (entry)
            libarchive().entry_free(entry);
        // Freeing closes a stream, which writes the end-of-archive blocks of an abandoned
        // one; they are dropped rather than handed to stages that may already be gone.
        // (Marking the archive failed would skip the close, and libarchive then leaks the
        // buffer of its output.)
        abandoned = true;
        if (archive)
            libarchive().write_free(archive);
    }

    static la_ssize_t on_write(struct archive*, void* self, const void* data, size_t size)
    {
        auto* state = static_cast<State*>(self);
        if (state->abandoned)
            return static_cast<la_ssize_t>(size);
        try {
            state->sink(std::string_view(static_cast<const char*>(data), size));
            return static_cast<la_ssize_t>(size);
        } catch (...) {
            state->sink_error = std::current_exception();
            return -1;
        }
    }

    // Turns a libarchive failure into the sink's own exception when that caused it.
    // Warnings count as failures: each one means an entry was not written as given.
    void check(int status, const std::string& action, ErrorCode code = ErrorCode::io)
    {
        if (sink_error)
            std::rethrow_exception(sink_error);
        if (status != ARCHIVE_OK)
            throw archive_error(archive, action, code);
    }

    void write_data(const char* data, std::size_t size, const std::string& path)
    {
        la_ssize_t written = libarchive().write_data(archive, data, size);
        if (sink_error)
            std::rethrow_exception(sink_error);
        if (written < 0 || static_cast<std::size_t>(written) != size)
            throw archive_error(archive, "write " + path + " into the layer");
    }

    void stream_file(const LayerEntry& file)
    {
        UniqueFd fd(::open(file.source.c_str(), O_RDONLY | O_CLOEXEC));
        if (fd.get() < 0)
            throw Error(ErrorCode::io, "open " + file.source.string() + ": " + std::strerror(errno));
        std::int64_t left = file.size;
        std::optional<Sha256> hash;
        if (!file.sha256.empty())
            hash.emplace();
        for (;;) {
            ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                throw Error(ErrorCode::io, "read " + file.source.string() + ": " + std::strerror(errno));
            if (n == 0 || n > left)
                break;
            if (hash)
                hash->update(buffer.data(), static_cast<std::size_t>(n));
            write_data(buffer.data(), static_cast<std::size_t>(n), file.path);
            left -= n;
        }
        // A header already promised `size` bytes, so a file that grew or shrank cannot be
        // written faithfully.
        if (left != 0 || ::read(fd.get(), buffer.data(), 1) != 0)
            throw Error(ErrorCode::io, file.source.string() + " changed while it was written into the layer",
                "build again once nothing is writing to the tree");
        if (hash && hash->hex_digest() != file.sha256)
            throw Error(ErrorCode::verification_failed,
                file.source.string()
                    + " changed while it was written into the layer (its sha256 is not the locked one)",
                "build again once nothing is writing to it, or run `dlenv lock` again to pin the new contents");
    }
};

TarWriter::TarWriter(ByteSink sink, std::int64_t mtime)
    : m_state(std::make_unique<State>())
{
    State& s = *m_state;
    s.sink = std::move(sink);
    s.mtime = mtime;
    s.buffer.resize(k_read_chunk);
    s.archive = libarchive().write_new();
    s.entry = libarchive().entry_new();
    if (!s.archive || !s.entry)
        throw Error(ErrorCode::environment, "start a tar stream: libarchive is out of memory");
    s.check(libarchive().write_set_format_pax_restricted(s.archive), "choose the pax format");
    s.check(libarchive().write_add_filter_none(s.archive), "choose no tar filter");
    // Zero turns off libarchive's blocking: the stream goes to the sink as written, and
    // its length does not depend on a block size.
    s.check(libarchive().write_set_bytes_per_block(s.archive, 0), "set the tar block size");
    s.check(libarchive().write_open2(s.archive, &s, nullptr, &State::on_write, nullptr, nullptr), "open a tar stream");
}

TarWriter::~TarWriter() = default;
TarWriter::TarWriter(TarWriter&&) noexcept = default;
TarWriter& TarWriter::operator=(TarWriter&&) noexcept = default;

void TarWriter::add(const LayerEntry& entry)
{
    State& s = *m_state;
    struct archive_entry* e = s.entry;
    libarchive().entry_clear(e);
    libarchive().entry_copy_pathname(e, entry.path.c_str());
    libarchive().entry_set_uid(e, 0);
    libarchive().entry_set_gid(e, 0);
    libarchive().entry_set_mtime(e, s.mtime, 0);
    libarchive().entry_set_perm(e, static_cast<__LA_MODE_T>(entry.mode & 07777));
    switch (entry.type) {
    case LayerEntry::Type::directory:
        libarchive().entry_set_filetype(e, AE_IFDIR);
        break;
    case LayerEntry::Type::file:
        libarchive().entry_set_filetype(e, AE_IFREG);
        libarchive().entry_set_size(e, entry.size);
        break;
    case LayerEntry::Type::symlink:
        libarchive().entry_set_filetype(e, AE_IFLNK);
        libarchive().entry_copy_symlink(e, entry.link_target.c_str());
        break;
    case LayerEntry::Type::hardlink:
        libarchive().entry_set_filetype(e, AE_IFREG);
        libarchive().entry_copy_hardlink(e, entry.link_target.c_str());
        break;
    }
    bool inline_contents = entry.type == LayerEntry::Type::file && entry.source.empty();
    if (inline_contents && static_cast<std::int64_t>(entry.contents.size()) != entry.size)
        throw Error(ErrorCode::invalid_input,
            entry.path + ": size " + std::to_string(entry.size) + " does not match its "
                + std::to_string(entry.contents.size()) + " bytes of contents");
    // With the sink healthy, a header fails only for what the entry holds: a path or link
    // target that is not UTF-8, which PAX cannot carry without a locale.
    s.check(libarchive().write_header(s.archive, e), "write the header of " + entry.path, ErrorCode::invalid_input);
    if (inline_contents)
        s.write_data(entry.contents.data(), entry.contents.size(), entry.path);
    else if (entry.type == LayerEntry::Type::file)
        s.stream_file(entry);
    s.check(libarchive().write_finish_entry(s.archive), "finish " + entry.path);
}

void TarWriter::finish()
{
    m_state->check(libarchive().write_close(m_state->archive), "close the tar stream");
}

} // namespace dlenv::oci
