#include "core/error.h"
#include "core/file.h"
#include "core/output_file.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>

using namespace dlenv;
namespace fs = std::filesystem;

namespace {

struct stat lstat_of(const fs::path& path)
{
    struct stat st { };
    REQUIRE(::lstat(path.c_str(), &st) == 0);
    return st;
}

} // namespace

TEST_CASE("an output that is a character device is written through and stays that device", "[core]")
{
    Scratch scratch;
    fs::path device = scratch / "null";
    if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
        WARN("mknod needs root here: " << std::strerror(errno));
        return;
    }
    write_output_file(device, "the lock\n");
    struct stat st = lstat_of(device);
    CHECK(S_ISCHR(st.st_mode));
    CHECK(st.st_rdev == makedev(1, 3));
    fs::create_symlink(device, scratch / "stdout-like");
    write_output_file(scratch / "stdout-like", "through a link\n");
    CHECK(S_ISCHR(lstat_of(device).st_mode));
    CHECK(fs::is_symlink(scratch / "stdout-like"));
    std::vector<std::string> names; // no temporary file beside them
    for (const auto& entry : fs::directory_iterator(scratch.dir()))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string> { "null", "stdout-like" });
}

TEST_CASE("an output that is a FIFO gets every byte and stays a FIFO", "[core]")
{
    Scratch scratch;
    fs::path fifo = scratch / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string received;
    std::thread reader([&] { received = read_file(fifo); });
    write_output_file(fifo, std::string(200000, 'x'));
    reader.join();
    CHECK(received == std::string(200000, 'x'));
    CHECK(S_ISFIFO(lstat_of(fifo).st_mode));
}

TEST_CASE("an output that is a regular file is replaced whole, through a link to it", "[core]")
{
    Scratch scratch;
    write_file_atomic(scratch / "real.json", "old");
    fs::create_symlink("real.json", scratch / "link.json");
    {
        OutputFile unfinished(scratch / "link.json");
        unfinished.write("half");
    } // destroyed without commit: the old file stays
    CHECK(read_file(scratch / "real.json") == "old");
    write_output_file(scratch / "link.json", "new");
    CHECK(read_file(scratch / "real.json") == "new");
    CHECK(fs::read_symlink(scratch / "link.json") == "real.json");
    write_output_file(scratch / "made/new.json", "made");
    CHECK(read_file(scratch / "made/new.json") == "made");
}

TEST_CASE("an output that already holds the bytes is left as it is, one that differs is replaced", "[core]")
{
    Scratch scratch;
    fs::path lock = scratch / "a.lock.json";
    write_output_file(lock, "{\"a\": 1}\n");
    struct stat first = lstat_of(lock);
    write_output_file(lock, "{\"a\": 1}\n");
    struct stat same = lstat_of(lock);
    CHECK(same.st_ino == first.st_ino); // not replaced
    CHECK(same.st_mtim.tv_sec == first.st_mtim.tv_sec);
    CHECK(same.st_mtim.tv_nsec == first.st_mtim.tv_nsec);
    write_output_file(lock, "{\"a\": 2}\n"); // the same size, other bytes
    CHECK(lstat_of(lock).st_ino != first.st_ino);
    CHECK(read_file(lock) == "{\"a\": 2}\n");
}

TEST_CASE("an output that is a directory is refused before anything is written", "[core]")
{
    Scratch scratch;
    fs::create_directory(scratch / "out");
    try {
        write_output_file(scratch / "out", "x");
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message() == (scratch / "out").string() + " is a directory, which dlenv does not write to");
        CHECK(e.hint() == "name a regular file, a character device or a FIFO, or - for standard output");
    }
    CHECK(fs::is_empty(scratch / "out"));
}
