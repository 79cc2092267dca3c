#include "core/output_file.h"

#include "core/error.h"

#include <cerrno>
#include <cstdint>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dlenv {
namespace {

Error not_writable(const std::filesystem::path& path, const std::string& what)
{
    return Error(ErrorCode::invalid_input, path.string() + " is " + what + ", which dlenv does not write to",
        "name a regular file, a character device or a FIFO, or - for standard output");
}

// Where an atomic replace must rename to: through a link to the file it names.
std::filesystem::path replace_target(const std::filesystem::path& path)
{
    struct stat link { };
    if (::lstat(path.c_str(), &link) != 0 || !S_ISLNK(link.st_mode))
        return path;
    std::error_code ec;
    std::filesystem::path target = std::filesystem::weakly_canonical(path, ec);
    if (ec)
        throw io_error("resolve", path);
    return target;
}

// Whether `path` is a regular file (or a link to one) that holds exactly `contents`.
bool already_holds(const std::filesystem::path& path, std::string_view contents)
{
    struct stat st { };
    if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)
        || static_cast<std::uint64_t>(st.st_size) != contents.size())
        return false;
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0)
        return false;
    std::string held(contents.size(), '\0');
    std::size_t got = 0;
    while (got < held.size()) {
        ssize_t n = ::read(fd.get(), held.data() + got, held.size() - got);
        if (n <= 0)
            return false;
        got += static_cast<std::size_t>(n);
    }
    return held == contents;
}

} // namespace

OutputFile::OutputFile(const std::filesystem::path& path, unsigned mode)
    : m_shown(path.string())
{
    if (path == "-") {
        m_stream = UniqueFd(::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0));
        if (m_stream.get() < 0)
            throw io_error("open standard output as", path);
        return;
    }
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0) {
        if (errno != ENOENT)
            throw io_error("inspect", path);
        m_file.emplace(replace_target(path), mode);
        return;
    }
    if (S_ISREG(st.st_mode)) {
        m_file.emplace(replace_target(path), mode);
    } else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        m_stream = UniqueFd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
        if (m_stream.get() < 0)
            throw io_error("open", path);
    } else {
        throw not_writable(path,
            S_ISDIR(st.st_mode)       ? "a directory"
                : S_ISBLK(st.st_mode) ? "a block device"
                                      : "a socket");
    }
}

void OutputFile::write(std::string_view bytes)
{
    if (m_file)
        m_file->write(bytes);
    else
        write_all(m_stream.get(), bytes, m_shown);
}

void OutputFile::commit()
{
    if (m_file)
        m_file->commit();
    else if (::close(m_stream.release()) != 0)
        throw io_error("close", m_shown);
}

void write_output_file(const std::filesystem::path& path, std::string_view contents)
{
    if (already_holds(path, contents))
        return;
    OutputFile file(path);
    file.write(contents);
    file.commit();
}

} // namespace dlenv
