#pragma once

#include <cstdint>
#include <filesystem>

namespace dlenv::host {

struct ReadMeasurement {
    std::uint64_t bytes = 0; // read back
    double seconds = 0;
    bool direct = false; // read with O_DIRECT; false: buffered, after dropping the pages
    double megabytes_per_second() const { return seconds > 0 ? static_cast<double>(bytes) / 1e6 / seconds : 0; }
};

// Measures the sequential read speed of the storage under `dir`, the way a data loader
// streams a shard: writes a file of `bytes` (rounded up to a whole 8 MiB request) of incompressible
// data there, fsyncs it, drops it from the page cache (posix_fadvise DONTNEED), and reads
// it back in 8 MiB requests, with O_DIRECT where the filesystem supports it. The file is
// removed on every path out. Throws Error(not_found) when `dir` does not exist, Error(io)
// when it cannot write or read there.
ReadMeasurement measure_read_speed(const std::filesystem::path& dir, std::uint64_t bytes);

} // namespace dlenv::host
