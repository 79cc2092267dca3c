#pragma once

#include "core/version.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace dlenv::pypi {

// The interpreter and platform a lock is for: CPython of a given version on Linux with
// glibc. Markers and wheel tags are evaluated for it, never for the machine dlenv runs on.
struct Target {
    PythonVersion python; // "3.11" or "3.11.7"
    std::string machine; // "x86_64" or "aarch64"
    std::uint32_t glibc_major = 2; // of the image's C library
    std::uint32_t glibc_minor = 17;

    // Throws Error(invalid_input) for a machine other than x86_64 or aarch64.
    static Target linux_cpython(
        PythonVersion python, std::string machine, std::uint32_t glibc_major, std::uint32_t glibc_minor);
};

// PEP 508's marker variables for `target`: python_version "3.11", python_full_version
// "3.11.7" (a two-part python counts as its .0 release), os_name "posix", sys_platform
// "linux", platform_system "Linux", platform_machine, platform_python_implementation
// "CPython", implementation_name "cpython", implementation_version, and empty
// platform_release and platform_version (unknown for an image).
using MarkerEnvironment = std::map<std::string, std::string, std::less<>>;
MarkerEnvironment marker_environment(const Target& target);

} // namespace dlenv::pypi
