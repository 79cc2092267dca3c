#pragma once

#include "core/file.h"

#include <filesystem>
#include <optional>
#include <string_view>

namespace dlenv {

// A file the user named (`lock -o FILE`, `export -o FILE`, `build --archive FILE`), written
// so that what was there is never harmed: "-" is standard output; a character device or a
// FIFO, also one reached through a link (/dev/stdout, /dev/null), is opened and written
// through, never replaced; a regular file, or a name that does not exist yet, is replaced
// atomically as AtomicFile replaces it, at the file a link names rather than over the link.
// Anything else there (a directory, a block device, a socket) is Error(invalid_input)
// naming the path, before anything is written. A relative name is taken from the working
// directory.
class OutputFile {
public:
    explicit OutputFile(const std::filesystem::path& path, unsigned mode = 0644);

    void write(std::string_view bytes);
    // A replaced file appears whole, or not at all when commit is never called; a stream
    // has had every byte written.
    void commit();
    // Standard output, a device or a FIFO: not a file in a directory.
    bool is_stream() const { return !m_file; }

private:
    std::optional<AtomicFile> m_file;
    UniqueFd m_stream;
    std::string m_shown;
};

// Writes `contents` to an OutputFile at `path`. A regular file that already holds exactly
// `contents` is left as it is, its time included: a command rerun on what did not change
// (a scheduled `dlenv lock`) writes and syncs nothing, and tools that watch the file's
// time see no change.
void write_output_file(const std::filesystem::path& path, std::string_view contents);

} // namespace dlenv
