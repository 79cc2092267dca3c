#include "core/error.h"
#include "core/file.h"
#include "support/scratch.h"
#include "verify/library_resolver.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace dlenv;

namespace {

// A root filesystem with this machine's /bin/sh, reached the way Debian 12 lays it out:
// /lib64 an absolute link to /usr/lib64, /lib a relative one to usr/lib.
void make_rootfs(const Scratch& scratch)
{
    scratch.sh("mkdir -p rootfs/bin rootfs/usr/lib/x86_64-linux-gnu rootfs/usr/lib64 rootfs/etc\n"
               "cp -L /bin/sh rootfs/bin/sh\n"
               "cp -L /lib/x86_64-linux-gnu/libc.so.6 rootfs/usr/lib/x86_64-linux-gnu/\n"
               "cp -L /lib64/ld-linux-x86-64.so.2 rootfs/usr/lib64/\n"
               "ln -s /usr/lib64 rootfs/lib64\n"
               "ln -s usr/lib rootfs/lib\n");
}

// A program /app/bin/NAME needing libdemo.so.1, built with `flags`.
void make_program(const Scratch& scratch, const std::string& name, const std::string& flags)
{
    scratch.sh("mkdir -p src rootfs/app/bin\n"
               "echo 'int demo(void) { return 1; }' > src/demo.c\n"
               "echo 'int demo(void); int main(void) { return demo(); }' > src/main.c\n"
               "cc -shared -fPIC -Wl,-soname,libdemo.so.1 -o src/libdemo.so.1 src/demo.c\n"
               "cc -o rootfs/app/bin/"
        + name + " src/main.c src/libdemo.so.1 " + flags + "\n");
}

verify::LibrarySearch search_of(const Scratch& scratch)
{
    return { scratch / "rootfs", {}, verify::system_library_dirs(scratch / "rootfs") };
}

} // namespace

TEST_CASE("the closure of /bin/sh resolves through the image's own links", "[verify]")
{
    Scratch scratch;
    make_rootfs(scratch);
    verify::Closure closure = verify::resolve_closure(search_of(scratch), "/bin/sh");
    CHECK(closure.loaded
        == std::vector<std::string> {
            "/bin/sh", "/usr/lib64/ld-linux-x86-64.so.2", "/usr/lib/x86_64-linux-gnu/libc.so.6" });
    CHECK(closure.missing.empty());
}

TEST_CASE("a library missing from the image is named with what needs it", "[verify]")
{
    Scratch scratch;
    make_rootfs(scratch);
    scratch.sh("rm rootfs/usr/lib/x86_64-linux-gnu/libc.so.6");
    verify::Closure closure = verify::resolve_closure(search_of(scratch), "/bin/sh");
    REQUIRE(closure.missing.size() == 1);
    CHECK(closure.missing[0].name == "libc.so.6");
    CHECK(closure.missing[0].needed_by == "/bin/sh");
}

TEST_CASE("$ORIGIN in a run path is the directory of the object that carries it", "[verify]")
{
    Scratch scratch;
    make_rootfs(scratch);
    make_program(scratch, "app", "-Wl,-rpath,'$ORIGIN/../lib'");
    scratch.sh("mkdir -p rootfs/app/lib && cp src/libdemo.so.1 rootfs/app/lib/");
    verify::Closure closure = verify::resolve_closure(search_of(scratch), "/app/bin/app");
    CHECK(closure.missing.empty());
    CHECK(std::find(closure.loaded.begin(), closure.loaded.end(), "/app/lib/libdemo.so.1") != closure.loaded.end());
}

TEST_CASE("ld.so.conf and the files it includes add library directories", "[verify]")
{
    Scratch scratch;
    make_rootfs(scratch);
    make_program(scratch, "app", "");
    scratch.sh("mkdir -p rootfs/opt/custom/lib rootfs/etc/ld.so.conf.d\n"
               "cp src/libdemo.so.1 rootfs/opt/custom/lib/\n"
               "echo 'include /etc/ld.so.conf.d/*.conf' > rootfs/etc/ld.so.conf\n"
               "printf '# custom\\n/opt/custom/lib\\n' > rootfs/etc/ld.so.conf.d/custom.conf\n");
    std::vector<std::string> dirs = verify::system_library_dirs(scratch / "rootfs");
    REQUIRE(dirs.size() == 9);
    CHECK(dirs[0] == "/opt/custom/lib");
    CHECK(dirs[1] == "/lib");
    verify::Closure closure = verify::resolve_closure(search_of(scratch), "/app/bin/app");
    CHECK(closure.missing.empty());
    CHECK(verify::find_library(search_of(scratch), "libdemo.so.1") == "/opt/custom/lib/libdemo.so.1");
}

TEST_CASE("LD_LIBRARY_PATH of the image is searched before the system directories", "[verify]")
{
    Scratch scratch;
    make_rootfs(scratch);
    make_program(scratch, "app", "");
    scratch.sh("mkdir -p rootfs/usr/local/demo && cp src/libdemo.so.1 rootfs/usr/local/demo/");
    verify::LibrarySearch search = search_of(scratch);
    CHECK(verify::resolve_closure(search, "/app/bin/app").missing.size() == 1);
    search.ld_library_path = { "/usr/local/demo" };
    CHECK(verify::resolve_closure(search, "/app/bin/app").missing.empty());
}

TEST_CASE("a start object that is not ELF is refused", "[verify]")
{
    Scratch scratch;
    scratch.sh("mkdir -p rootfs/bin && echo '#!/bin/sh' > rootfs/bin/script");
    try {
        verify::resolve_closure({ scratch / "rootfs", {}, {} }, "/bin/script");
        FAIL("resolved a script");
    } catch (const Error& e) {
        CHECK(e.message() == "/bin/script is not an ELF object");
    }
}
