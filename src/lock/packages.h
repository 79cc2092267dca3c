#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::lock {

// One wheel of the Python closure, as the lock pins it.
struct LockedPackage {
    std::string name; // normalised
    std::string version; // PEP 440, with its local label: "2.1.2+cu118"
    std::string index; // the name of the index it comes from, a key of PackageSources::indexes
    std::string filename; // "torch-2.1.2+cu118-cp311-cp311-linux_x86_64.whl"
    std::string url;
    std::string sha256; // lowercase hex
    std::optional<std::int64_t> size; // when the index states it
    std::vector<std::string> required_by; // normalised names, and "profile" for what the profile asks
};

// Which index serves which project, by name: never "whichever index has the name first".
struct PackageSources {
    std::map<std::string, std::string> indexes; // name -> simple-API URL
    std::map<std::string, std::string> index_of; // project, or "prefix-*", -> index name
    std::string default_index; // the index of every other project
};

// A relocatable CPython unpacked into the image when its base has none.
struct PythonRuntime {
    std::string url;
    std::string sha256; // lowercase hex
    // For a python-build-standalone build the matrix picked: CPython's full version
    // ("3.10.19") and the release tag ("20251031"); empty for an archive the profile names.
    std::string version;
    std::string release;
};

// The Python the packages are for, and where they go in the image.
struct PythonEnvironment {
    std::string version; // "3.11"
    std::string machine; // "x86_64" or "aarch64"
    std::string glibc; // "2.28": the newest manylinux the image admits
    std::string prefix; // "/usr/local": bin/, lib/pythonX.Y/site-packages
    std::optional<PythonRuntime> runtime;
};

} // namespace dlenv::lock
