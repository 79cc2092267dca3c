#include "core/error.h"
#include "core/file.h"
#include "rootfs/mount_point.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using rootfs::MountPointKind;

namespace {

// A rootfs whose links point at `outside`, a directory the image must never reach, with
// a file there standing in for the host's driver library.
struct HostileRoot {
    Scratch scratch;
    std::filesystem::path root = scratch / "rootfs";
    std::filesystem::path outside = scratch / "host";

    HostileRoot()
    {
        scratch.sh("mkdir -p rootfs host/lib/x86_64-linux-gnu; echo driver >host/lib/x86_64-linux-gnu/libcuda.so.1");
    }

    // Every path under `outside`, to show that nothing was added there.
    std::vector<std::string> outside_tree() const
    {
        std::vector<std::string> out;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(outside))
            out.push_back(entry.path().lexically_relative(outside).string());
        std::sort(out.begin(), out.end());
        return out;
    }
};

std::string message_of(const std::filesystem::path& root, std::string_view path, MountPointKind kind)
{
    try {
        rootfs::make_mount_point(root, path, kind);
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        return e.message();
    }
    return "no error";
}

const std::vector<std::string> k_untouched = { "lib", "lib/x86_64-linux-gnu", "lib/x86_64-linux-gnu/libcuda.so.1" };

} // namespace

TEST_CASE("a missing mount point is made inside the root with its parents", "[rootfs]")
{
    HostileRoot host;
    CHECK(rootfs::make_mount_point(host.root, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", MountPointKind::file)
        == "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
    CHECK(std::filesystem::is_regular_file(host.root / "usr/lib/x86_64-linux-gnu/libcuda.so.1"));
    CHECK(rootfs::make_mount_point(host.root, "/run/nvidia-persistenced", MountPointKind::directory)
        == "/run/nvidia-persistenced");
    CHECK(std::filesystem::is_directory(host.root / "run/nvidia-persistenced"));
}

TEST_CASE("an absolute link to a host directory is followed inside the root, never on the host", "[rootfs]")
{
    HostileRoot host;
    std::filesystem::create_directory_symlink(host.outside, host.root / "usr");
    std::string placed
        = rootfs::make_mount_point(host.root, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", MountPointKind::file);
    CHECK(placed == host.outside.string() + "/lib/x86_64-linux-gnu/libcuda.so.1");
    CHECK(std::filesystem::is_regular_file(host.root / placed.substr(1)));
    CHECK(read_file(host.outside / "lib/x86_64-linux-gnu/libcuda.so.1") == "driver\n");
    CHECK(host.outside_tree() == k_untouched);
}

TEST_CASE("a relative link that climbs out stops at the root", "[rootfs]")
{
    HostileRoot host;
    std::string climb = "../../../../../../../../.." + host.outside.string();
    std::filesystem::create_directories(host.root / "usr");
    std::filesystem::create_directory_symlink(climb, host.root / "usr/lib");
    CHECK(rootfs::make_mount_point(host.root, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", MountPointKind::file)
        == host.outside.string() + "/x86_64-linux-gnu/libcuda.so.1");
    CHECK(read_file(host.outside / "lib/x86_64-linux-gnu/libcuda.so.1") == "driver\n");
    CHECK(host.outside_tree() == k_untouched);
}

TEST_CASE("a last component that links to a host file resolves to a file made inside the root", "[rootfs]")
{
    HostileRoot host;
    std::filesystem::create_directories(host.root / "usr/lib");
    std::filesystem::create_symlink(
        host.outside / "lib/x86_64-linux-gnu/libcuda.so.1", host.root / "usr/lib/libcuda.so.1");
    CHECK(rootfs::make_mount_point(host.root, "/usr/lib/libcuda.so.1", MountPointKind::file)
        == host.outside.string() + "/lib/x86_64-linux-gnu/libcuda.so.1");
    CHECK(read_file(host.outside / "lib/x86_64-linux-gnu/libcuda.so.1") == "driver\n");
    CHECK(host.outside_tree() == k_untouched);
}

TEST_CASE("an existing mount point is kept as it is", "[rootfs]")
{
    HostileRoot host;
    host.scratch.sh(
        "mkdir -p rootfs/usr/bin rootfs/lib64 && echo image >rootfs/usr/bin/nvidia-smi && ln -s usr/bin rootfs/bin");
    CHECK(rootfs::make_mount_point(host.root, "/bin/nvidia-smi", MountPointKind::file) == "/usr/bin/nvidia-smi");
    CHECK(read_file(host.root / "usr/bin/nvidia-smi") == "image\n");
    CHECK(rootfs::make_mount_point(host.root, "/lib64/../usr/./bin/", MountPointKind::directory) == "/usr/bin");
}

TEST_CASE("mount points that cannot be made name the path and why", "[rootfs]")
{
    HostileRoot host;
    host.scratch.sh("cd rootfs && mkdir -p etc usr && echo x >etc/passwd && ln -s loop-b loop-a && ln -s loop-a loop-b"
                    " && mkfifo usr/fifo");
    CHECK(message_of(host.root, "/etc/passwd/x", MountPointKind::directory)
        == "the image's /etc/passwd/x cannot take a mount: /etc/passwd is not a directory");
    CHECK(message_of(host.root, "/usr/fifo", MountPointKind::file)
        == "the image's /usr/fifo cannot take a mount: /usr/fifo is not a regular file");
    CHECK(message_of(host.root, "/loop-a/lib", MountPointKind::directory)
        == "the image's /loop-a/lib cannot take a mount: its symbolic links loop");
    CHECK(message_of(host.root, "/usr", MountPointKind::file)
        == "the image's /usr cannot take a mount: /usr is a directory, and a file is to be mounted there");
}
