#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::verify {

// Where the image's dynamic loader looks for a library, in the order it looks:
// DT_RPATH of the loading object (when it has no DT_RUNPATH), LD_LIBRARY_PATH,
// DT_RUNPATH, the directories of the image's /etc/ld.so.conf (includes followed), then
// the default directories, multiarch ones included.
struct LibrarySearch {
    std::filesystem::path root; // the unpacked image
    std::vector<std::string> ld_library_path; // from the image's environment
    std::vector<std::string> system_dirs; // see system_library_dirs
};

// The ld.so.conf directories of the image at `root` followed by /lib, /usr/lib, /lib64,
// /usr/lib64 and the multiarch directories for x86_64 and aarch64. A missing
// ld.so.conf is no error; images without one use only the defaults.
std::vector<std::string> system_library_dirs(const std::filesystem::path& root);

struct MissingLibrary {
    std::string name; // the DT_NEEDED entry, or the interpreter path
    std::string needed_by; // image path of the object that needs it
};

// The dynamic closure of one object: every object loaded (image paths, the start object
// first, each once) and what could not be found.
struct Closure {
    std::vector<std::string> loaded;
    std::vector<MissingLibrary> missing;
};

// Follows DT_NEEDED from `image_path` (and its PT_INTERP) inside the image, as the
// loader would, skipping candidates built for another machine. $ORIGIN and ${ORIGIN}
// in run paths are the directory of the object that carries them. Error(not_found) when
// `image_path` itself is missing; Error(invalid_input) from the ELF parser for a damaged
// object.
Closure resolve_closure(const LibrarySearch& search, const std::string& image_path);

// Where the loader would find `soname` without any run path: LD_LIBRARY_PATH, then the
// system directories. The image path, or nullopt.
std::optional<std::string> find_library(const LibrarySearch& search, const std::string& soname);

} // namespace dlenv::verify
