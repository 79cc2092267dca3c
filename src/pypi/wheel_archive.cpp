// The wheel side of the libarchive seam. oci/ wraps libarchive for tar streams; wheels
// are zip files read from a seekable file, a different format and open mode, and pypi/
// may not depend on oci/ (docs/DESIGN.md's module table). So pypi/ has its own seam file,
// the only one in pypi/ that includes <archive.h>. It also inflates the one member a
// range read fetches (remote_wheel.cpp), which libarchive cannot take as a zip: a raw
// deflate stream wrapped as gzip is one it can.
#include "pypi/wheel_archive.h"

#include "core/error.h"
#include "core/libarchive.h"

#include <array>
#include <cstdio>
#include <memory>
#include <vector>

namespace dlenv::pypi {

namespace {

constexpr int k_stored = 0;
constexpr int k_deflated = 8;

// CRC-32 as zip and gzip use it (reflected, polynomial 0xEDB88320). libarchive's gzip
// filter skips the trailer's check, and zlib is no direct dependency of dlenv.
std::uint32_t crc32_of(std::string_view data)
{
    static constexpr auto table = [] {
        std::array<std::uint32_t, 256> t {};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int bit = 0; bit < 8; ++bit)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    std::uint32_t crc = 0xFFFFFFFFu;
    for (unsigned char byte : data)
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

void append_le32(std::string& out, std::uint32_t value)
{
    for (int shift = 0; shift < 32; shift += 8)
        out += static_cast<char>((value >> shift) & 0xFF);
}

// Stops once past `limit` bytes: enough to tell a stream that inflates to more than its
// zip entry says, without inflating all of a bomb.
std::string inflate(std::string_view deflated, std::uint32_t crc32, std::uint64_t limit)
{
    // RFC 1952: magic, CM=deflate, no flags, no mtime, no extra flags, OS unknown.
    std::string gzip("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
    gzip += deflated;
    append_le32(gzip, crc32);
    append_le32(gzip, static_cast<std::uint32_t>(limit));
    std::unique_ptr<archive, decltype(Libarchive::read_free)> reader(libarchive().read_new(), libarchive().read_free);
    if (!reader)
        throw Error(ErrorCode::io, "inflate: cannot allocate an archive reader");
    auto fail = [&] {
        const char* why = libarchive().error_string(reader.get());
        return Error(ErrorCode::invalid_input,
            std::string("inflate: ") + (why ? why : "truncated or malformed deflate stream"),
            "the wheel is damaged: fetch or build it again");
    };
    archive_entry* entry = nullptr;
    if (libarchive().read_support_filter_gzip(reader.get()) != ARCHIVE_OK
        || libarchive().read_support_format_raw(reader.get()) != ARCHIVE_OK
        || libarchive().read_open_memory(reader.get(), gzip.data(), gzip.size()) != ARCHIVE_OK
        || libarchive().read_next_header(reader.get(), &entry) != ARCHIVE_OK)
        throw fail();
    std::string out;
    std::array<char, 1 << 16> buffer;
    while (out.size() <= limit) {
        la_ssize_t n = libarchive().read_data(reader.get(), buffer.data(), buffer.size());
        if (n < 0)
            throw fail();
        if (n == 0)
            break;
        out.append(buffer.data(), static_cast<std::size_t>(n));
    }
    return out;
}

std::string hex32(std::uint32_t value)
{
    char text[9];
    std::snprintf(text, sizeof text, "%08x", value);
    return text;
}

} // namespace

struct WheelArchive::State {
    std::string name;
    archive* reader = nullptr;
    std::vector<char> buffer = std::vector<char>(1 << 18);

    ~State()
    {
        if (reader)
            libarchive().read_free(reader);
    }

    void check(int status)
    {
        if (status >= ARCHIVE_WARN)
            return;
        const char* why = libarchive().error_string(reader);
        throw Error(ErrorCode::invalid_input, "read wheel " + name + ": " + (why ? why : "malformed zip file"),
            "the wheel is damaged or not a zip file: fetch or build it again");
    }
};

WheelArchive::WheelArchive(const std::filesystem::path& path)
    : m_state(std::make_unique<State>())
{
    State& s = *m_state;
    s.name = path.string();
    // libarchive reports a missing file as a malformed archive; say what it is.
    if (!std::filesystem::exists(path))
        throw Error(ErrorCode::not_found, "open wheel " + s.name + ": no such file",
            "fetch the wheel again, or lock again if it left the index");
    s.reader = libarchive().read_new();
    if (!s.reader)
        throw Error(ErrorCode::io, "read wheel " + s.name + ": cannot allocate an archive reader");
    // The seekable reader trusts the central directory, as pip does, rather than local
    // headers that a crafted zip can make disagree with it.
    s.check(libarchive().read_support_format_zip_seekable(s.reader));
    s.check(libarchive().read_open_filename(s.reader, s.name.c_str(), 1 << 16));
}

WheelArchive::~WheelArchive() = default;
WheelArchive::WheelArchive(WheelArchive&&) noexcept = default;
WheelArchive& WheelArchive::operator=(WheelArchive&&) noexcept = default;

std::optional<WheelMember> WheelArchive::next()
{
    State& s = *m_state;
    archive_entry* header = nullptr;
    int status = libarchive().read_next_header(s.reader, &header);
    if (status == ARCHIVE_EOF)
        return std::nullopt;
    s.check(status);
    const char* path = libarchive().entry_pathname(header);
    if (!path)
        throw Error(ErrorCode::invalid_input, "read wheel " + s.name + ": a member has no readable path");
    WheelMember member;
    member.path = path;
    member.directory = libarchive().entry_filetype(header) == AE_IFDIR || member.path.ends_with("/");
    member.executable = (libarchive().entry_perm(header) & 0111) != 0;
    member.size = libarchive().entry_size(header);
    return member;
}

std::string_view WheelArchive::read_data()
{
    State& s = *m_state;
    la_ssize_t n = libarchive().read_data(s.reader, s.buffer.data(), s.buffer.size());
    if (n < 0)
        s.check(static_cast<int>(n));
    return { s.buffer.data(), n < 0 ? 0 : static_cast<std::size_t>(n) };
}

std::string WheelArchive::read_all()
{
    std::string out;
    for (std::string_view piece = read_data(); !piece.empty(); piece = read_data())
        out += piece;
    return out;
}

std::optional<std::string> read_wheel_member(const std::filesystem::path& wheel, std::string_view member)
{
    WheelArchive archive(wheel);
    while (auto entry = archive.next())
        if (entry->path == member)
            return archive.read_all();
    return std::nullopt;
}

std::string decode_zip_data(int method, std::string_view data, std::uint32_t crc32, std::uint64_t size)
{
    if (method != k_stored && method != k_deflated)
        throw Error(ErrorCode::invalid_input,
            "compression method " + std::to_string(method) + " is neither stored (0) nor deflate (8)",
            "wheels hold stored or deflated members only: rebuild the wheel");
    std::string out = method == k_stored ? std::string(data) : inflate(data, crc32, size);
    if (out.size() != size)
        throw Error(ErrorCode::invalid_input,
            (out.size() > size ? "the data holds more than the "
                               : "the data holds " + std::to_string(out.size()) + " of the ")
                + std::to_string(size) + " bytes the central directory says",
            "the wheel is damaged: fetch or build it again");
    if (crc32_of(out) != crc32)
        throw Error(ErrorCode::invalid_input,
            "the data has CRC-32 " + hex32(crc32_of(out)) + ", the central directory says " + hex32(crc32),
            "the wheel is damaged: fetch or build it again");
    return out;
}

} // namespace dlenv::pypi
