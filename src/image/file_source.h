#pragma once

#include "lock/lockfile.h"

#include <filesystem>

namespace dlenv::image {

// Where `file`, the lock's image.files[`index`], is on this machine: its source under the
// lockfile's directory, symlinks resolved. Throws Error(invalid_input) naming the lock and
// the field when it is missing or not a regular file (a directory, a device, a FIFO),
// before anything reads it.
std::filesystem::path file_source(const lock::Lockfile& lock, std::size_t index, const lock::LockedFile& file);

} // namespace dlenv::image
