#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace dlenv::pypi {

// One member of a wheel, as the zip's central directory lists it; nothing in it has
// been checked for safety.
struct WheelMember {
    std::string path; // as stored, '/'-separated
    bool directory = false;
    bool executable = false; // any execute bit in the zip's Unix attributes
    std::int64_t size = 0;
};

// Reads a wheel (a zip file) member by member, in the central directory's order. Errors
// come out of the calls: Error(not_found) when the file is missing, Error(invalid_input)
// naming the file when it is not a readable zip.
class WheelArchive {
public:
    explicit WheelArchive(const std::filesystem::path& path);
    ~WheelArchive();
    WheelArchive(WheelArchive&&) noexcept;
    WheelArchive& operator=(WheelArchive&&) noexcept;
    WheelArchive(const WheelArchive&) = delete;
    WheelArchive& operator=(const WheelArchive&) = delete;

    // The next member, skipping the data of the current one; nullopt at the end.
    std::optional<WheelMember> next();
    // The next piece of the current member's data, inflated; empty once it is all read.
    // The view stays valid until the next call on this reader.
    std::string_view read_data();
    // The rest of the current member's data as one string.
    std::string read_all();

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// The contents of the wheel member at `member`, or nullopt when there is none.
std::optional<std::string> read_wheel_member(const std::filesystem::path& wheel, std::string_view member);

// A zip member's data as its central directory describes it: `method` 0 (stored) or 8
// (deflated), `data` the bytes after its local header, `crc32` and `size` those of the
// uncompressed contents. Deflate is inflated by libarchive's gzip filter, the raw stream
// wrapped in a gzip header and trailer. Throws Error(invalid_input) when the method is
// another, the data does not inflate, or the contents' size or CRC-32 differ.
std::string decode_zip_data(int method, std::string_view data, std::uint32_t crc32, std::uint64_t size);

} // namespace dlenv::pypi
