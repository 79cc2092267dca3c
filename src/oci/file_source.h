#pragma once

#include "core/file.h"

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace dlenv::oci {

// Reads a file front to back in pieces, for TarReader's byte source.
// Error(not_found) when the file does not exist, Error(io) when reading fails.
class FileSource {
public:
    explicit FileSource(const std::filesystem::path& path);

    // The file's size when it was opened.
    std::int64_t size() const { return m_size; }
    // The next piece; empty at the end. Valid until the next call.
    std::string_view next();

private:
    std::filesystem::path m_path;
    UniqueFd m_fd;
    std::int64_t m_size = 0;
    std::vector<char> m_buffer;
};

} // namespace dlenv::oci
