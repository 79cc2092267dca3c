#include "verify/elf.h"

#include "core/error.h"
#include "core/file.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <cstring>

namespace dlenv::verify {
namespace {

// Bounds-checked reads from the file's bytes: every offset comes from the file itself.
class Bytes {
public:
    Bytes(std::string_view bytes, const std::string& where)
        : m_bytes(bytes)
        , m_where(where)
    {
    }

    template <typename T> T read(std::uint64_t offset, const char* what) const
    {
        require(offset, sizeof(T), what);
        T value;
        std::memcpy(&value, m_bytes.data() + offset, sizeof(T));
        return value;
    }

    // A NUL-terminated string starting at `offset` that must end before `limit`.
    std::string string(std::uint64_t offset, std::uint64_t limit, const char* what) const
    {
        if (limit > m_bytes.size() || offset >= limit)
            fail(std::string(what) + " at offset " + std::to_string(offset) + " is outside its table");
        std::string_view rest = m_bytes.substr(offset, limit - offset);
        std::size_t end = rest.find('\0');
        if (end == std::string_view::npos)
            fail(std::string(what) + " at offset " + std::to_string(offset) + " is not terminated");
        return std::string(rest.substr(0, end));
    }

    void require(std::uint64_t offset, std::uint64_t size, const char* what) const
    {
        if (offset > m_bytes.size() || size > m_bytes.size() - offset)
            fail(std::string(what) + " (offset " + std::to_string(offset) + ", " + std::to_string(size)
                + " bytes) reaches past the end of the file (" + std::to_string(m_bytes.size()) + " bytes)");
    }

    [[noreturn]] void fail(const std::string& message) const
    {
        throw Error(ErrorCode::invalid_input, m_where + ": " + message,
            "the file is truncated or damaged; rebuild the image or the layer that holds it");
    }

    std::uint64_t size() const { return m_bytes.size(); }

private:
    std::string_view m_bytes;
    const std::string& m_where;
};

std::vector<std::string> split_paths(const std::string& list)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t colon = list.find(':');; colon = list.find(':', start)) {
        std::string item = list.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (!item.empty())
            out.push_back(item);
        if (colon == std::string::npos)
            return out;
        start = colon + 1;
    }
}

// The file offset of a virtual address, through the PT_LOAD segment that maps it.
std::uint64_t file_offset(const std::vector<Elf64_Phdr>& loads, std::uint64_t address, const Bytes& bytes)
{
    for (const auto& load : loads)
        if (address >= load.p_vaddr && address - load.p_vaddr < load.p_filesz)
            return load.p_offset + (address - load.p_vaddr);
    bytes.fail("the string table address " + std::to_string(address) + " is in no loaded segment");
}

void read_dynamic(const Bytes& bytes, const Elf64_Phdr& dynamic, const std::vector<Elf64_Phdr>& loads, ElfDynamic& out)
{
    bytes.require(dynamic.p_offset, dynamic.p_filesz, "the dynamic section");
    std::uint64_t strtab = 0;
    std::uint64_t strsz = 0;
    std::vector<std::pair<std::int64_t, std::uint64_t>> strings; // tag and string offset
    for (std::uint64_t at = dynamic.p_offset; at + sizeof(Elf64_Dyn) <= dynamic.p_offset + dynamic.p_filesz;
         at += sizeof(Elf64_Dyn)) {
        auto entry = bytes.read<Elf64_Dyn>(at, "a dynamic entry");
        if (entry.d_tag == DT_NULL)
            break;
        if (entry.d_tag == DT_STRTAB)
            strtab = entry.d_un.d_ptr;
        else if (entry.d_tag == DT_STRSZ)
            strsz = entry.d_un.d_val;
        else if (entry.d_tag == DT_NEEDED || entry.d_tag == DT_SONAME || entry.d_tag == DT_RUNPATH
            || entry.d_tag == DT_RPATH)
            strings.emplace_back(entry.d_tag, entry.d_un.d_val);
    }
    if (strings.empty())
        return;
    if (strtab == 0 || strsz == 0)
        bytes.fail("the dynamic section names libraries but has no string table");
    std::uint64_t table = file_offset(loads, strtab, bytes);
    bytes.require(table, strsz, "the dynamic string table");
    for (const auto& [tag, offset] : strings) {
        if (offset >= strsz)
            bytes.fail("a dynamic string offset " + std::to_string(offset) + " is past the string table");
        std::string text = bytes.string(table + offset, table + strsz, "a dynamic string");
        if (tag == DT_NEEDED)
            out.needed.push_back(text);
        else if (tag == DT_SONAME)
            out.soname = text;
        else if (tag == DT_RUNPATH)
            out.runpath = split_paths(text);
        else
            out.rpath = split_paths(text);
    }
}

} // namespace

std::optional<ElfDynamic> parse_elf_dynamic(std::string_view data, const std::string& where)
{
    if (data.size() < SELFMAG || std::memcmp(data.data(), ELFMAG, SELFMAG) != 0)
        return std::nullopt;
    Bytes bytes(data, where);
    auto header = bytes.read<Elf64_Ehdr>(0, "the ELF header");
    if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB)
        bytes.fail("not a 64-bit little-endian ELF file");
    if (header.e_phnum != 0 && header.e_phentsize != sizeof(Elf64_Phdr))
        bytes.fail("program headers of " + std::to_string(header.e_phentsize) + " bytes, not "
            + std::to_string(sizeof(Elf64_Phdr)));
    ElfDynamic out;
    out.machine = header.e_machine;
    bytes.require(header.e_phoff, std::uint64_t { header.e_phnum } * sizeof(Elf64_Phdr), "the program headers");
    std::vector<Elf64_Phdr> loads;
    std::optional<Elf64_Phdr> dynamic;
    for (std::uint16_t i = 0; i < header.e_phnum; ++i) {
        auto segment = bytes.read<Elf64_Phdr>(header.e_phoff + i * sizeof(Elf64_Phdr), "a program header");
        if (segment.p_type == PT_LOAD)
            loads.push_back(segment);
        else if (segment.p_type == PT_DYNAMIC)
            dynamic = segment;
        else if (segment.p_type == PT_INTERP) {
            bytes.require(segment.p_offset, segment.p_filesz, "the interpreter path");
            out.interpreter
                = bytes.string(segment.p_offset, segment.p_offset + segment.p_filesz, "the interpreter path");
        }
    }
    if (dynamic)
        read_dynamic(bytes, *dynamic, loads, out);
    return out;
}

std::optional<ElfDynamic> read_elf_dynamic(const std::filesystem::path& file)
{
    UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0)
        throw io_error("open", file);
    struct stat info { };
    if (::fstat(fd.get(), &info) != 0)
        throw io_error("stat", file);
    if (!S_ISREG(info.st_mode) || info.st_size == 0)
        return std::nullopt;
    auto size = static_cast<std::size_t>(info.st_size);
    void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (mapped == MAP_FAILED)
        throw io_error("map", file);
    struct Unmap {
        void* address;
        std::size_t size;
        ~Unmap() { ::munmap(address, size); }
    } unmap { mapped, size };
    return parse_elf_dynamic(std::string_view(static_cast<const char*>(mapped), size), file.string());
}

} // namespace dlenv::verify
