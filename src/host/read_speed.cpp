#include "host/read_speed.h"

#include "core/error.h"
#include "core/file.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <string>
#include <unistd.h>

namespace dlenv::host {
namespace {

constexpr std::size_t k_chunk = 8u << 20; // per read: large enough for NVMe to stream
constexpr std::size_t k_alignment = 4096; // O_DIRECT wants block-aligned buffers

struct FreeDeleter {
    void operator()(char* p) const { std::free(p); }
};
using AlignedBuffer = std::unique_ptr<char, FreeDeleter>;

AlignedBuffer aligned_buffer(std::size_t size)
{
    AlignedBuffer buffer(static_cast<char*>(std::aligned_alloc(k_alignment, size)));
    if (!buffer)
        throw Error(ErrorCode::io, "allocate a read buffer of " + std::to_string(size) + " bytes");
    return buffer;
}

// xorshift bytes: a compressing or deduplicating filesystem must not shrink the file.
void fill_incompressible(char* data, std::size_t size, std::uint64_t& state)
{
    for (std::size_t i = 0; i + 8 <= size; i += 8) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        std::memcpy(data + i, &state, 8);
    }
}

struct RemoveOnExit {
    std::filesystem::path path;
    ~RemoveOnExit()
    {
        std::error_code ignored;
        std::filesystem::remove(path, ignored);
    }
};

void write_test_file(const std::filesystem::path& path, std::uint64_t chunks)
{
    AtomicFile file(path, 0600);
    auto buffer = aligned_buffer(k_chunk);
    std::uint64_t state = 0x9e3779b97f4a7c15ull;
    for (std::uint64_t i = 0; i < chunks; ++i) {
        fill_incompressible(buffer.get(), k_chunk, state);
        file.write({ buffer.get(), k_chunk });
    }
    file.commit(); // fsyncs: every page is clean, so DONTNEED can drop it
}

// Opens for reading past the page cache: O_DIRECT, else (tmpfs, some FUSE) a plain open
// after asking the kernel to drop the file's pages.
UniqueFd open_uncached(const std::filesystem::path& path, bool& direct)
{
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC));
    direct = fd.get() >= 0;
    if (!direct)
        fd = UniqueFd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0)
        throw io_error("open", path);
    if (::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_DONTNEED) != 0 && !direct)
        throw io_error("drop from the page cache", path);
    return fd;
}

} // namespace

ReadMeasurement measure_read_speed(const std::filesystem::path& dir, std::uint64_t bytes)
{
    if (!std::filesystem::is_directory(dir))
        throw Error(ErrorCode::not_found, "data directory " + dir.string() + " does not exist",
            "pass --data-dir with the directory the training data lives in");
    std::uint64_t chunks = std::max<std::uint64_t>(1, (bytes + k_chunk - 1) / k_chunk);
    RemoveOnExit file { dir / (".dlenv-doctor-read-" + std::to_string(::getpid())) };
    write_test_file(file.path, chunks);

    ReadMeasurement result;
    UniqueFd fd = open_uncached(file.path, result.direct);
    auto buffer = aligned_buffer(k_chunk);
    auto start = std::chrono::steady_clock::now();
    for (;;) {
        ssize_t n = ::read(fd.get(), buffer.get(), k_chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw io_error("read", file.path);
        if (n == 0)
            break;
        result.bytes += static_cast<std::uint64_t>(n);
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace dlenv::host
