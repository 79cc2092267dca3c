#include "deb/deb_file.h"

#include "core/error.h"
#include "core/libarchive.h"

#include <memory>
#include <vector>

namespace dlenv::deb {
namespace {

using Archive = std::unique_ptr<archive, decltype(Libarchive::read_free)>;

Archive new_reader()
{
    return Archive(libarchive().read_new(), libarchive().read_free);
}

std::string why(archive* reader)
{
    const char* text = libarchive().error_string(reader);
    return text ? text : "unreadable";
}

// The inner tar reads the outer ar member's bytes through this, so data.tar streams.
struct MemberSource {
    archive* outer;
    std::vector<char> buffer = std::vector<char>(1 << 16);
};

la_ssize_t read_member(archive* inner, void* data, const void** block)
{
    auto* source = static_cast<MemberSource*>(data);
    la_ssize_t n = libarchive().read_data(source->outer, source->buffer.data(), source->buffer.size());
    if (n < 0) {
        libarchive().set_error(inner, -1, "%s", why(source->outer).c_str());
        return -1;
    }
    *block = source->buffer.data();
    return n;
}

DataMember::Type type_of(archive_entry* entry)
{
    if (libarchive().entry_hardlink(entry))
        return DataMember::Type::hardlink;
    switch (libarchive().entry_filetype(entry)) {
    case AE_IFREG:
        return DataMember::Type::file;
    case AE_IFDIR:
        return DataMember::Type::directory;
    case AE_IFLNK:
        return DataMember::Type::symlink;
    default:
        return DataMember::Type::other;
    }
}

// Walks the tar inside one ar member, handing each entry and its bytes to `visit`.
void read_inner_tar(archive* outer, const std::string& where,
    const std::function<void(const DataMember&, const std::function<std::string_view()>&)>& visit)
{
    Archive inner = new_reader();
    libarchive().read_support_filter_gzip(inner.get());
    libarchive().read_support_filter_xz(inner.get());
    libarchive().read_support_filter_zstd(inner.get());
    libarchive().read_support_format_tar(inner.get());
    MemberSource source { outer };
    if (libarchive().read_open(inner.get(), &source, nullptr, read_member, nullptr) != ARCHIVE_OK)
        throw Error(ErrorCode::invalid_input, where + ": " + why(inner.get()));
    std::vector<char> buffer(1 << 16);
    for (;;) {
        archive_entry* entry = nullptr;
        int status = libarchive().read_next_header(inner.get(), &entry);
        if (status == ARCHIVE_EOF)
            return;
        if (status != ARCHIVE_OK && status != ARCHIVE_WARN)
            throw Error(ErrorCode::invalid_input, where + ": " + why(inner.get()));
        DataMember member;
        const char* path = libarchive().entry_pathname(entry);
        member.path = path ? path : "";
        member.type = type_of(entry);
        member.mode = static_cast<std::uint32_t>(libarchive().entry_perm(entry)) & 07777;
        member.size = libarchive().entry_size(entry);
        const char* link = member.type == DataMember::Type::hardlink ? libarchive().entry_hardlink(entry)
                                                                     : libarchive().entry_symlink(entry);
        member.link_target = link ? link : "";
        visit(member, [&]() -> std::string_view {
            la_ssize_t n = libarchive().read_data(inner.get(), buffer.data(), buffer.size());
            if (n < 0)
                throw Error(ErrorCode::invalid_input, where + ": " + member.path + ": " + why(inner.get()));
            return { buffer.data(), static_cast<std::size_t>(n) };
        });
    }
}

std::map<std::string, std::string> read_control(archive* outer, const std::string& where)
{
    std::map<std::string, std::string> files;
    read_inner_tar(outer, where, [&](const DataMember& member, const std::function<std::string_view()>& read) {
        if (member.type != DataMember::Type::file)
            return;
        std::string name = member.path.substr(member.path.find_last_of('/') + 1);
        if (files.size() >= k_max_control_files)
            throw Error(
                ErrorCode::invalid_input, where + ": more than " + std::to_string(k_max_control_files) + " files");
        std::string& contents = files[name];
        for (std::string_view piece = read(); !piece.empty(); piece = read()) {
            if (contents.size() + piece.size() > k_max_control_file)
                throw Error(ErrorCode::invalid_input,
                    where + ": " + name + " is larger than " + std::to_string(k_max_control_file) + " bytes");
            contents.append(piece);
        }
    });
    return files;
}

} // namespace

void read_deb(const std::filesystem::path& deb, const std::string& name,
    const std::function<void(const std::map<std::string, std::string>&)>& control,
    const std::function<void(const DataMember&, const std::function<std::string_view()>&)>& data)
{
    Archive outer = new_reader();
    libarchive().read_support_format_ar(outer.get());
    if (libarchive().read_open_filename(outer.get(), deb.c_str(), 1 << 16) != ARCHIVE_OK)
        throw Error(ErrorCode::invalid_input, name + ": " + why(outer.get()));
    enum class Next { debian_binary, control_tar, data_tar, finished } next = Next::debian_binary;
    for (;;) {
        archive_entry* entry = nullptr;
        int status = libarchive().read_next_header(outer.get(), &entry);
        if (status == ARCHIVE_EOF)
            break;
        if (status != ARCHIVE_OK)
            throw Error(ErrorCode::invalid_input, name + ": not a .deb: " + why(outer.get()));
        std::string member = libarchive().entry_pathname(entry) ? libarchive().entry_pathname(entry) : "";
        if (member.starts_with('_'))
            continue;
        if (next == Next::debian_binary && member == "debian-binary") {
            char buffer[16] = {};
            la_ssize_t n = libarchive().read_data(outer.get(), buffer, sizeof buffer);
            std::string version(buffer, n > 0 ? static_cast<std::size_t>(n) : 0);
            if (!version.starts_with("2."))
                throw Error(ErrorCode::invalid_input, name + ": debian-binary is not format 2.x");
            next = Next::control_tar;
        } else if (next == Next::control_tar && member.starts_with("control.tar")) {
            control(read_control(outer.get(), name + ": " + member));
            next = Next::data_tar;
        } else if (next == Next::data_tar && member.starts_with("data.tar")) {
            read_inner_tar(outer.get(), name + ": " + member, data);
            next = Next::finished;
        } else
            throw Error(ErrorCode::invalid_input, name + ": unexpected member '" + member.substr(0, 64) + "'",
                "a .deb holds debian-binary, control.tar and data.tar in that order");
    }
    if (next != Next::finished)
        throw Error(ErrorCode::invalid_input, name + ": not a complete .deb (no data.tar)");
}

} // namespace dlenv::deb
