#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::verify {

// What the dynamic loader reads from a shared object or executable.
struct ElfDynamic {
    std::uint16_t machine = 0; // e_machine: EM_X86_64, EM_AARCH64
    std::string interpreter; // PT_INTERP, executables only
    std::string soname; // DT_SONAME
    std::vector<std::string> needed; // DT_NEEDED, in order
    std::vector<std::string> runpath; // DT_RUNPATH, split at ':'
    std::vector<std::string> rpath; // DT_RPATH, split at ':'
};

// Parses the program headers and the dynamic section of a 64-bit little-endian ELF
// file held in `bytes`. Returns nullopt for bytes that are not ELF at all (a script, a
// text file). Throws Error(invalid_input) naming `where` for an ELF file this parser
// cannot trust: another class or byte order, a header, segment or string that reaches
// past the end, a string table address no loaded segment maps. Every offset is checked
// before it is read; a static executable yields an empty `needed`.
std::optional<ElfDynamic> parse_elf_dynamic(std::string_view bytes, const std::string& where);

// The same for a file, mapped read-only rather than read, so that a library of a few
// hundred megabytes costs only the pages the headers live on. Error(not_found)/Error(io)
// when the file cannot be opened.
std::optional<ElfDynamic> read_elf_dynamic(const std::filesystem::path& file);

} // namespace dlenv::verify
