#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace dlenv {

// Reads a whole file. Throws Error(not_found) when it does not exist, Error(io) otherwise.
std::string read_file(const std::filesystem::path& path);

// Replaces `path` with `contents` so that a reader sees either the old file or the new
// one, never a mix: write a temporary file in the same directory, fsync it, rename it
// over `path`, fsync the directory. Creates missing parent directories.
void write_file_atomic(const std::filesystem::path& path, std::string_view contents);

} // namespace dlenv
