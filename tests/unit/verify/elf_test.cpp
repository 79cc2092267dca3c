#include "core/error.h"
#include "core/file.h"
#include "verify/elf.h"

#include <catch2/catch.hpp>

#include <elf.h>

#include <cstring>

using namespace dlenv;

TEST_CASE("the ELF parser reads DT_NEEDED and the interpreter of this machine's /bin/sh", "[verify]")
{
    auto elf = verify::read_elf_dynamic("/bin/sh");
    REQUIRE(elf);
    CHECK(elf->machine == EM_X86_64);
    CHECK(elf->needed == std::vector<std::string> { "libc.so.6" });
    CHECK(elf->interpreter == "/lib64/ld-linux-x86-64.so.2");
    CHECK(elf->soname.empty());
}

TEST_CASE("the ELF parser reads the soname of a shared library", "[verify]")
{
    auto elf = verify::read_elf_dynamic("/lib/x86_64-linux-gnu/libc.so.6");
    REQUIRE(elf);
    CHECK(elf->soname == "libc.so.6");
    CHECK(elf->needed == std::vector<std::string> { "ld-linux-x86-64.so.2" });
    CHECK(elf->interpreter == "/lib64/ld-linux-x86-64.so.2"); // libc can be run as a program
}

TEST_CASE("bytes that are not ELF are no ELF object, not an error", "[verify]")
{
    CHECK_FALSE(verify::parse_elf_dynamic("#!/bin/sh\necho hello\n", "hello.sh"));
    CHECK_FALSE(verify::parse_elf_dynamic("", "empty"));
    CHECK_FALSE(verify::parse_elf_dynamic("\x7f"
                                          "EL",
        "three bytes"));
}

TEST_CASE("every truncation of a real executable is refused or parsed, never read past its end", "[verify]")
{
    std::string bytes = read_file("/bin/sh");
    std::size_t refused = 0;
    for (std::size_t size : { 4u, 16u, 63u, 64u, 100u, 0x318u, 0x330u, 0x1000u, 0x1db28u, 0x1db40u }) {
        // A copy of exactly `size` bytes, so that a sanitizer sees a read past the end.
        std::string cut = bytes.substr(0, std::min(size, bytes.size()));
        try {
            verify::parse_elf_dynamic(cut, "cut");
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::invalid_input);
            CHECK(e.message().starts_with("cut: "));
            ++refused;
        }
    }
    CHECK(refused >= 8);
}

TEST_CASE("malformed ELF headers are refused with what is wrong", "[verify]")
{
    std::string bytes = read_file("/bin/sh");
    auto message_for = [](const std::string& data) {
        try {
            verify::parse_elf_dynamic(data, "bad");
        } catch (const Error& e) {
            return e.message();
        }
        return std::string("(accepted)");
    };

    std::string thirty_two = bytes;
    thirty_two[EI_CLASS] = ELFCLASS32;
    CHECK(message_for(thirty_two) == "bad: not a 64-bit little-endian ELF file");

    std::string far_headers = bytes;
    Elf64_Ehdr header;
    std::memcpy(&header, far_headers.data(), sizeof header);
    header.e_phoff = 0xffffffffffffff00ull;
    std::memcpy(far_headers.data(), &header, sizeof header);
    CHECK(message_for(far_headers).starts_with("bad: the program headers (offset 18446744073709551360, "));

    std::string wrong_size = bytes;
    std::memcpy(&header, wrong_size.data(), sizeof header);
    header.e_phentsize = 12;
    std::memcpy(wrong_size.data(), &header, sizeof header);
    CHECK(message_for(wrong_size) == "bad: program headers of 12 bytes, not 56");
}

TEST_CASE("a string table offset past the table is refused", "[verify]")
{
    std::string bytes = read_file("/bin/sh");
    Elf64_Ehdr header;
    std::memcpy(&header, bytes.data(), sizeof header);
    for (std::uint16_t i = 0; i < header.e_phnum; ++i) {
        Elf64_Phdr segment;
        std::memcpy(&segment, bytes.data() + header.e_phoff + i * sizeof segment, sizeof segment);
        if (segment.p_type != PT_DYNAMIC)
            continue;
        for (std::uint64_t at = segment.p_offset; at < segment.p_offset + segment.p_filesz; at += sizeof(Elf64_Dyn)) {
            Elf64_Dyn entry;
            std::memcpy(&entry, bytes.data() + at, sizeof entry);
            if (entry.d_tag == DT_NEEDED) {
                entry.d_un.d_val = 0x7fffffff;
                std::memcpy(bytes.data() + at, &entry, sizeof entry);
            }
        }
    }
    try {
        verify::parse_elf_dynamic(bytes, "bad");
        FAIL("accepted a DT_NEEDED outside the string table");
    } catch (const Error& e) {
        CHECK(e.message() == "bad: a dynamic string offset 2147483647 is past the string table");
    }
}
