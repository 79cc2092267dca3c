#include "deb/compressed.h"

#include "core/error.h"
#include "core/libarchive.h"

#include <memory>

namespace dlenv::deb {

std::string decompress_index(std::string_view bytes, const std::string& name, std::size_t limit)
{
    std::unique_ptr<archive, decltype(Libarchive::read_free)> reader(libarchive().read_new(), libarchive().read_free);
    libarchive().read_support_filter_all(reader.get());
    libarchive().read_support_format_raw(reader.get());
    auto fail
        = [&](const std::string& why) { return Error(ErrorCode::invalid_input, "decompress " + name + ": " + why); };
    if (libarchive().read_open_memory(reader.get(), bytes.data(), bytes.size()) != ARCHIVE_OK)
        throw fail(libarchive().error_string(reader.get()) ? libarchive().error_string(reader.get()) : "unreadable");
    archive_entry* entry = nullptr;
    int status = libarchive().read_next_header(reader.get(), &entry);
    if (status == ARCHIVE_EOF)
        return {};
    if (status != ARCHIVE_OK)
        throw fail(libarchive().error_string(reader.get()) ? libarchive().error_string(reader.get()) : "unreadable");
    std::string out;
    char buffer[1 << 16];
    for (;;) {
        la_ssize_t n = libarchive().read_data(reader.get(), buffer, sizeof buffer);
        if (n < 0)
            throw fail(libarchive().error_string(reader.get()) ? libarchive().error_string(reader.get()) : "damaged");
        if (n == 0)
            return out;
        if (out.size() + static_cast<std::size_t>(n) > limit)
            throw fail("more than " + std::to_string(limit) + " bytes once decompressed");
        out.append(buffer, static_cast<std::size_t>(n));
    }
}

} // namespace dlenv::deb
