#include "image/file_source.h"

#include "core/error.h"
#include "core/regular_file.h"

namespace dlenv::image {

std::filesystem::path file_source(const lock::Lockfile& lock, std::size_t index, const lock::LockedFile& file)
{
    std::filesystem::path source = std::filesystem::path(lock.file()).parent_path() / file.source;
    try {
        return resolve_regular_file(source);
    } catch (const Error& e) {
        throw Error(ErrorCode::invalid_input,
            lock.file() + ": image.files[" + std::to_string(index) + "].source: " + e.message(),
            "the path is relative to the lockfile's directory and names a regular file; restore the file "
            "or run `dlenv lock` again");
    }
}

} // namespace dlenv::image
