#include "cli/lockfile_argument.h"

#include "core/error.h"

#include <filesystem>
#include <vector>

namespace dlenv::cli {

std::string lockfile_argument(const std::string& given, const std::string& command)
{
    if (!given.empty())
        return given;
    std::vector<std::string> found;
    for (const char* dir : { ".", "lockfiles" }) {
        if (!std::filesystem::is_directory(dir))
            continue;
        for (const auto& entry : std::filesystem::directory_iterator(dir))
            if (entry.path().filename().string().ends_with(".lock.json"))
                found.push_back(entry.path().string());
    }
    if (found.size() == 1)
        return found.front();
    throw Error(ErrorCode::invalid_input,
        found.empty() ? "no lockfile here (*.lock.json in . or lockfiles/)"
                      : std::to_string(found.size()) + " lockfiles here; name the one to " + command,
        "run `dlenv " + command + " LOCKFILE`, or `dlenv lock PROFILE` first");
}

} // namespace dlenv::cli
