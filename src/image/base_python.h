#pragma once

#include "core/version.h"
#include "lock/lockfile.h"
#include "oci/tar_reader.h"
#include "pypi/installer.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::image {

// The Python a base image brings, as read from its files.
struct BasePython {
    std::string interpreter; // where python3 leads: "/usr/bin/python3.11"
    PythonVersion version; // "3.11"
    bool debian = false; // Debian's or Ubuntu's: /usr/bin/python3 beside /usr/lib/python3/dist-packages
    bool externally_managed = false; // <prefix>/lib/python3.X/EXTERNALLY-MANAGED (PEP 668) is there
};

// Whether find_base_python reads `path` (relative, as oci::index_layers hands it): the
// python3 commands of /usr/local/bin and /usr/bin, and what lies under lib/python3*.
bool python_path(const std::string& path);

// The python3 a shell in the image runs first (/usr/local/bin before /usr/bin, as every
// base's PATH has them), from `files` (the base's entries at python_path), its symlinks
// followed to a `python3.X` file; nullopt when neither leads to one.
std::optional<BasePython> find_base_python(const std::map<std::string, oci::TarEntry>& files);

// The scheme of `python`'s own installations: Debian's (InstallScheme::debian_local) for
// Debian's python3, else site-packages under the prefix above its bin/ with it in the
// shebangs.
pypi::InstallScheme packages_scheme_for(const BasePython& python);

// Where the lock's packages go, and the "base:" lines that say why. A lock that pins a
// runtime installs into it: under its prefix (InstallScheme::for_prefix), where a
// python-build-standalone CPython reads prefix/lib/pythonX.Y/site-packages, and a line
// names the runtime and that directory. Otherwise into `base`'s
// own Python (packages_scheme_for); an EXTERNALLY-MANAGED marker is named in
// a line (dlenv writes a layer, never runs pip in the image, so PEP 668 does not apply).
// A base without Python is Error(conflict) saying to add python_runtime or use a base
// with python3; a base whose Python is not the lock's X.Y is Error(conflict) naming both.
struct PackagesTarget {
    pypi::InstallScheme scheme;
    // The `pip install --prefix` that gives `scheme` with its interpreter's sysconfig:
    // "/usr" for Debian's python3 (its posix_local scheme adds local/), else the prefix.
    std::string pip_prefix;
    bool externally_managed = false; // the interpreter's EXTERNALLY-MANAGED (PEP 668) is there
    std::vector<std::string> notes;
};
PackagesTarget packages_target(
    const lock::Lockfile& lock, const std::optional<BasePython>& base, const std::string& base_reference);

} // namespace dlenv::image
