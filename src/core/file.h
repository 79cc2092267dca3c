#pragma once

#include "core/error.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace dlenv {

// Owns a POSIX file descriptor and closes it on every path out.
class UniqueFd {
public:
    explicit UniqueFd(int fd = -1)
        : m_fd(fd)
    {
    }
    ~UniqueFd();
    UniqueFd(UniqueFd&& other) noexcept
        : m_fd(other.release())
    {
    }
    UniqueFd& operator=(UniqueFd&& other) noexcept;
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;

    int get() const { return m_fd; }
    int release();

private:
    int m_fd;
};

// The error of a failed system call on `path`: "ACTION PATH: strerror(errno)",
// Error(not_found) for ENOENT, Error(io) otherwise.
Error io_error(const std::string& action, const std::filesystem::path& path);

// The most read_file takes: far above any lockfile, profile, manifest or config, and a
// bound on what a device such as /dev/zero named as one of them can cost.
inline constexpr std::size_t k_read_file_max_bytes = std::size_t(256) << 20;

// Reads a whole file. Throws Error(not_found) when it does not exist, Error(invalid_input)
// past k_read_file_max_bytes, Error(io) otherwise.
std::string read_file(const std::filesystem::path& path);

// Replaces `path` with `contents` so that a reader sees either the old file or the new
// one, never a mix: write a temporary file in the same directory, fsync it, rename it
// over `path`, fsync the directory. Creates missing parent directories.
void write_file_atomic(const std::filesystem::path& path, std::string_view contents);

// A file written as a stream that appears whole or not at all: bytes go to a temporary
// file in the target's directory; `commit` fsyncs it, renames it over the target and
// fsyncs the directory. Destroyed without `commit`, it removes the temporary file.
// Durability::staged skips the fsyncs for files of a scratch tree that only matters once
// it is packed into a blob, which is made durable in its turn; readers still never see a
// partial file.
class AtomicFile {
public:
    enum class Durability { synced, staged };
    explicit AtomicFile(
        const std::filesystem::path& path, unsigned mode = 0644, Durability durability = Durability::synced);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(std::string_view bytes);
    void commit() { commit_as(m_path); }
    // Commits under another name in the same directory (a blob named by its digest).
    void commit_as(const std::filesystem::path& path);

private:
    std::filesystem::path m_path;
    std::string m_temp;
    unsigned m_mode;
    Durability m_durability;
    UniqueFd m_fd;
    std::uint64_t m_written = 0;
    std::uint64_t m_flushed = 0; // bytes whose writeback has been started
};

// Copies a file through an AtomicFile, in chunks. Throws Error(not_found) or Error(io).
void copy_file_atomic(const std::filesystem::path& from, const std::filesystem::path& to);

// Makes a rename or a new file in `dir` durable. Throws Error(io).
void fsync_directory(const std::filesystem::path& dir);

// Writes all of `bytes` to `fd`, retrying short writes; throws Error(io) naming `what`.
void write_all(int fd, std::string_view bytes, const std::string& what);

} // namespace dlenv
