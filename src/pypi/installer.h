#pragma once

#include "core/pep440.h"
#include "core/version.h"

#include <filesystem>
#include <string>
#include <vector>

namespace dlenv::pypi {

// Where the parts of a wheel go, as directories relative to the tree being filled,
// '/'-separated, "" for the tree's root.
struct InstallScheme {
    std::string purelib;
    std::string platlib;
    std::string scripts;
    std::string data;
    std::string headers; // the project's headers go to headers/<Name>/
    std::string interpreter; // absolute path in the image, for script shebangs
    PythonVersion python; // names pip's versioned scripts (pip3.11)

    // The scheme of a CPython installed under `prefix` ("usr/local"):
    // prefix/lib/pythonX.Y/site-packages, prefix/bin, prefix/include/pythonX.Y, and
    // the interpreter /prefix/bin/pythonX.Y.
    static InstallScheme for_prefix(const std::string& prefix, const PythonVersion& python);

    // The scheme pip uses with Debian's and Ubuntu's python3 outside a virtual environment
    // (Debian's sysconfig `posix_local`): usr/local/lib/pythonX.Y/dist-packages,
    // usr/local/bin, and headers in usr/include/pythonX.Y (posix_local's include is under
    // the installed base, /usr, not /usr/local), with `interpreter` ("/usr/bin/python3.11")
    // in the shebangs. That python3 reads this directory and /usr/lib/python3/dist-packages
    // (apt's), never site-packages.
    static InstallScheme debian_local(const PythonVersion& python, const std::string& interpreter);
};

struct InstalledWheel {
    std::string name; // as the metadata spells it
    Pep440Version version;
    std::vector<std::string> files; // relative to the tree, sorted, RECORD included
};

// Installs the wheel at `wheel` under `root` as pip would, without running Python:
// root-level files to purelib or platlib (the WHEEL file's Root-Is-Purelib), each
// `<dist>.data/<key>/` to the scheme's directory for that key, `#!python` shebangs of
// scripts rewritten to the scheme's interpreter, console and GUI scripts generated from
// entry_points.txt, `INSTALLER` ("dlenv") and a new `RECORD` (urlsafe base64 sha256 and
// size of every file, paths relative to the library directory, sorted, CRLF as pip)
// written in the dist-info directory. Files are 0755 when the wheel marks them executable
// (and for generated scripts), else 0644; each appears whole (temp and rename) but is not
// fsynced: the tree is staging for a layer. Each file's sha256 is checked against the
// wheel's RECORD: a mismatch, or a file RECORD does not list, is
// Error(verification_failed); a path that leaves its directory is Error(invalid_input).
InstalledWheel install_wheel(
    const std::filesystem::path& wheel, const InstallScheme& scheme, const std::filesystem::path& root);

} // namespace dlenv::pypi
