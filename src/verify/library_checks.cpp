#include "verify/static_checks.h"

#include "resolve/base_contents.h"
#include "rootfs/lookup.h"

#include <sstream>

namespace dlenv::verify {
namespace {

// True when the dot-separated parts both versions have are equal: 8.9.6 and 8.9.6.50 agree.
bool agree(const std::string& a, const std::string& b)
{
    std::istringstream left(a), right(b);
    for (std::string x, y; std::getline(left, x, '.') && std::getline(right, y, '.');)
        if (x != y)
            return false;
    return true;
}

void check_version(const std::filesystem::path& root, const std::string& path, const PromisedLibrary& library,
    std::vector<Finding>& findings)
{
    auto real = rootfs::lookup(root, path);
    std::string found = real ? resolve::library_file_version(real->filename().string()) : std::string();
    std::string what = library.soname + " (" + (real ? real->filename().string() : path) + ")";
    if (!library.version)
        findings.push_back({ "library-version", Verdict::unknown,
            what + ": nothing in the base says which version it should be, so only its soname is held to the "
                + library.promiser });
    // The soname's own version (libcublas.so.12) is no version to compare: it matched.
    else if (found.find('.') == std::string::npos)
        findings.push_back({ "library-version", Verdict::ok,
            what + " names no minor version; the soname matches the " + *library.version + " of the "
                + library.promiser });
    else if (!agree(found, *library.version))
        findings.push_back({ "library-version", Verdict::fail,
            what + " is version " + found + ", but the " + library.promiser + " says " + *library.version });
    else
        findings.push_back({ "library-version", Verdict::ok,
            what + " is version " + found + ", as the " + library.promiser + " says (" + *library.version + ")" });
}

} // namespace

void check_libraries(
    const LibrarySearch& search, const std::vector<PromisedLibrary>& libraries, std::vector<Finding>& findings)
{
    for (const auto& library : libraries) {
        auto path = find_library(search, library.soname);
        if (!path) {
            findings.push_back({ "library-present", Verdict::fail,
                library.soname + " (promised by the " + library.promiser + ") is not in the image's library path" });
            continue;
        }
        findings.push_back({ "library-present", Verdict::ok, library.soname + " is " + *path });
        Closure closure = resolve_closure(search, *path);
        if (closure.missing.empty())
            findings.push_back({ "library-closure", Verdict::ok,
                library.soname + " and its " + std::to_string(closure.loaded.size() - 1)
                    + " dependencies resolve inside the image" });
        for (const auto& missing : closure.missing)
            findings.push_back({ "library-closure", Verdict::fail,
                library.soname + ": " + missing.name + ", needed by " + missing.needed_by + ", is not in the image" });
        check_version(search.root, *path, library, findings);
    }
}

} // namespace dlenv::verify
