#include "verify/static_checks.h"

#include "core/error.h"
#include "core/file.h"
#include "core/json_reader.h"
#include "rootfs/lookup.h"

namespace dlenv::verify {
namespace {

// "X.Y" of a version, or the whole of it when it has fewer parts.
std::string major_minor(const std::string& version)
{
    std::size_t first = version.find('.');
    return first == std::string::npos ? version : version.substr(0, version.find('.', first + 1));
}

// The version a library's file name carries after ".so.": libcudnn.so.8.9.2 -> 8.9.2.
std::string file_version(const std::filesystem::path& file)
{
    std::string name = file.filename().string();
    std::size_t so = name.find(".so.");
    return so == std::string::npos ? std::string() : name.substr(so + 4);
}

void check_version(const std::filesystem::path& root, const std::string& path, const PromisedLibrary& library,
    std::vector<Finding>& findings)
{
    auto real = rootfs::lookup(root, path);
    std::string found = real ? file_version(*real) : std::string();
    std::string what = library.soname + " (" + (real ? real->filename().string() : path) + ")";
    // Components version themselves (libcudart 12.1.105 in CUDA 12.1.1); X.Y is shared.
    if (found.find('.') == std::string::npos)
        findings.push_back({ "library-version", Verdict::ok,
            what + " names no minor version; the soname matches the lock's " + library.version });
    else if (major_minor(found) != major_minor(library.version))
        findings.push_back(
            { "library-version", Verdict::fail, what + " is version " + found + ", the lock pins " + library.version });
    else
        findings.push_back(
            { "library-version", Verdict::ok, what + " is version " + found + ", as the lock's " + library.version });
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

void check_cuda_version(const std::filesystem::path& rootfs, const std::string& cuda, std::vector<Finding>& findings)
{
    const std::string file = "/usr/local/cuda/version.json";
    auto host = rootfs::lookup(rootfs, file);
    std::error_code ec;
    if (!host || !std::filesystem::is_regular_file(*host, ec)) {
        findings.push_back({ "cuda-version", Verdict::fail, file + " is missing; the lock pins CUDA " + cuda });
        return;
    }
    std::string found;
    try {
        nlohmann::json version = JsonReader::parse_document(file, read_file(*host));
        found = JsonReader(file, version).at("cuda").at("version").string();
    } catch (const Error& e) {
        findings.push_back({ "cuda-version", Verdict::fail, e.message() });
        return;
    }
    if (found == cuda)
        findings.push_back({ "cuda-version", Verdict::ok, file + " says CUDA " + found + ", as the lock" });
    else
        findings.push_back({ "cuda-version", Verdict::fail, file + " says CUDA " + found + ", the lock pins " + cuda });
}

} // namespace dlenv::verify
