#include "core/regular_file.h"

#include "core/error.h"

#include <algorithm>

namespace dlenv {
namespace {

std::string kind_of(std::filesystem::file_type type)
{
    switch (type) {
    case std::filesystem::file_type::directory:
        return "a directory";
    case std::filesystem::file_type::character:
        return "a character device";
    case std::filesystem::file_type::block:
        return "a block device";
    case std::filesystem::file_type::fifo:
        return "a FIFO";
    case std::filesystem::file_type::socket:
        return "a socket";
    default:
        return "not a file";
    }
}

} // namespace

std::filesystem::path resolve_regular_file(const std::filesystem::path& path)
{
    std::error_code ec;
    std::filesystem::path resolved = std::filesystem::canonical(path, ec);
    if (ec)
        throw Error(ec == std::errc::no_such_file_or_directory ? ErrorCode::not_found : ErrorCode::io,
            "resolve " + path.string() + ": " + ec.message());
    std::filesystem::file_type type = std::filesystem::status(resolved, ec).type();
    if (type != std::filesystem::file_type::regular)
        throw Error(ErrorCode::invalid_input, path.string() + " is " + kind_of(type) + ", not a regular file");
    return resolved;
}

bool is_inside(const std::filesystem::path& path, const std::filesystem::path& root)
{
    return std::mismatch(root.begin(), root.end(), path.begin(), path.end()).first == root.end();
}

} // namespace dlenv
