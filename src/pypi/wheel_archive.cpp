// The wheel side of the libarchive seam. oci/ wraps libarchive for tar streams; wheels
// are zip files read from a seekable file, a different format and open mode, and pypi/
// may not depend on oci/ (DESIGN.md's module table). So pypi/ has its own seam file,
// the only one in pypi/ that includes <archive.h>.
#include "pypi/wheel_archive.h"

#include "core/error.h"

#include <archive.h>
#include <archive_entry.h>

#include <vector>

namespace dlenv::pypi {

struct WheelArchive::State {
    std::string name;
    archive* reader = nullptr;
    std::vector<char> buffer = std::vector<char>(1 << 18);

    ~State()
    {
        if (reader)
            archive_read_free(reader);
    }

    void check(int status)
    {
        if (status >= ARCHIVE_WARN)
            return;
        const char* why = archive_error_string(reader);
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
    s.reader = archive_read_new();
    if (!s.reader)
        throw Error(ErrorCode::io, "read wheel " + s.name + ": cannot allocate an archive reader");
    // The seekable reader trusts the central directory, as pip does, rather than local
    // headers that a crafted zip can make disagree with it.
    s.check(archive_read_support_format_zip_seekable(s.reader));
    s.check(archive_read_open_filename(s.reader, s.name.c_str(), 1 << 16));
}

WheelArchive::~WheelArchive() = default;
WheelArchive::WheelArchive(WheelArchive&&) noexcept = default;
WheelArchive& WheelArchive::operator=(WheelArchive&&) noexcept = default;

std::optional<WheelMember> WheelArchive::next()
{
    State& s = *m_state;
    archive_entry* header = nullptr;
    int status = archive_read_next_header(s.reader, &header);
    if (status == ARCHIVE_EOF)
        return std::nullopt;
    s.check(status);
    const char* path = archive_entry_pathname(header);
    if (!path)
        throw Error(ErrorCode::invalid_input, "read wheel " + s.name + ": a member has no readable path");
    WheelMember member;
    member.path = path;
    member.directory = archive_entry_filetype(header) == AE_IFDIR || member.path.ends_with("/");
    member.executable = (archive_entry_perm(header) & 0111) != 0;
    member.size = archive_entry_size(header);
    return member;
}

std::string_view WheelArchive::read_data()
{
    State& s = *m_state;
    la_ssize_t n = archive_read_data(s.reader, s.buffer.data(), s.buffer.size());
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

} // namespace dlenv::pypi
