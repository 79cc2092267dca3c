#include "image/base_python.h"

#include "core/error.h"
#include "rootfs/path.h"

#include <regex>

namespace dlenv::image {
namespace {

// The commands a shell finds as `python3`, in PATH order.
const std::vector<std::string> k_commands = { "usr/local/bin/python3", "usr/bin/python3" };

// Debian's python3.X package puts apt's modules here; no other distribution has it.
constexpr std::string_view k_debian_dist_packages = "usr/lib/python3/dist-packages";

// What Debian's and Ubuntu's libpython3.X-minimal installs beside the interpreter, so a
// base with only the minimal packages is known as Debian's too.
std::string debian_sitecustomize(const std::string& name)
{
    return "etc/" + name + "/sitecustomize.py";
}

std::string parent_of(const std::string& path)
{
    std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? "" : path.substr(0, slash);
}

// The file `command` leads to through its symlinks, or nullopt when it leads nowhere
// in `files` (a loop, a target outside them).
std::optional<std::string> resolve(const std::map<std::string, oci::TarEntry>& files, std::string path)
{
    for (int hops = 0; hops < 8; ++hops) {
        auto it = files.find(path);
        if (it == files.end())
            return std::nullopt;
        if (it->second.type != oci::TarEntry::Type::symlink)
            return path;
        const std::string& target = it->second.link_target;
        std::optional<std::string> next
            = rootfs::normalize_path(target.starts_with('/') ? target : "/" + parent_of(path) + "/" + target);
        if (!next)
            return std::nullopt;
        path = rootfs::relative_path(*next);
    }
    return std::nullopt;
}

// python-build-standalone's CPython is its own prefix, as `make install` lays it out:
// the layer puts it under the lock's prefix, so the packages go where its sysconfig's
// posix_prefix scheme points, with its bin/python3.X in the shebangs.
PackagesTarget runtime_target(const lock::PythonEnvironment& python, const PythonVersion& version)
{
    PackagesTarget target { pypi::InstallScheme::for_prefix(rootfs::relative_path(python.prefix), version),
        python.prefix, false, {} };
    const lock::PythonRuntime& runtime = *python.runtime;
    std::string which = runtime.version.empty()
        ? "the lock's Python runtime"
        : "python-build-standalone's CPython " + runtime.version + " (" + runtime.release + ")";
    target.notes.push_back(
        "Python packages for " + which + " " + target.scheme.interpreter + " into /" + target.scheme.purelib);
    return target;
}

} // namespace

bool python_path(const std::string& path)
{
    static const std::regex pattern("(usr/local/bin|usr/bin)/python3(\\.[0-9]+)?"
                                    "|(usr/local/lib|usr/lib)/python3(\\.[0-9]+)?(/(dist-packages|EXTERNALLY-MANAGED))?"
                                    "|etc/python3\\.[0-9]+/sitecustomize\\.py");
    return std::regex_match(path, pattern);
}

std::optional<BasePython> find_base_python(const std::map<std::string, oci::TarEntry>& files)
{
    static const std::regex versioned("python(3\\.[0-9]+)");
    for (const auto& command : k_commands) {
        std::optional<std::string> file = resolve(files, command);
        if (!file)
            continue;
        std::smatch match;
        std::string name = file->substr(file->rfind('/') + 1);
        if (files.at(*file).type == oci::TarEntry::Type::directory || !std::regex_match(name, match, versioned))
            continue;
        std::string prefix = parent_of(parent_of(*file));
        BasePython python { "/" + *file, PythonVersion::parse(match[1].str()) };
        python.debian = prefix == "usr"
            && (files.contains(std::string(k_debian_dist_packages)) || files.contains(debian_sitecustomize(name)));
        python.externally_managed = files.contains(prefix + "/lib/" + name + "/EXTERNALLY-MANAGED");
        return python;
    }
    return std::nullopt;
}

pypi::InstallScheme packages_scheme_for(const BasePython& python)
{
    if (python.debian)
        return pypi::InstallScheme::debian_local(python.version, python.interpreter);
    std::string prefix = parent_of(parent_of(rootfs::relative_path(python.interpreter)));
    pypi::InstallScheme scheme = pypi::InstallScheme::for_prefix(prefix, python.version);
    scheme.interpreter = python.interpreter;
    return scheme;
}

PackagesTarget packages_target(
    const lock::Lockfile& lock, const std::optional<BasePython>& base, const std::string& base_reference)
{
    const lock::PythonEnvironment& python = lock.python();
    PythonVersion version = PythonVersion::parse(python.version);
    if (python.runtime)
        return runtime_target(python, version);
    if (!base)
        throw Error(ErrorCode::conflict,
            "the lock pins Python packages but no python_runtime, and the base " + base_reference
                + " has no python3 in /usr/local/bin or /usr/bin",
            "add python_runtime to the profile's packages and lock again, or use a base with python3");
    if (base->version.truncated(2).text() != version.truncated(2).text())
        throw Error(ErrorCode::conflict,
            "the base's python3 is " + base->version.text() + " (" + base->interpreter + "), the lock's python is "
                + python.version,
            "lock the profile with python " + base->version.text() + ", or use a base with Python " + python.version);
    PackagesTarget target { packages_scheme_for(*base),
        "/" + parent_of(parent_of(rootfs::relative_path(base->interpreter))), base->externally_managed, {} };
    target.notes.push_back("Python packages for " + std::string(base->debian ? "Debian's python3 " : "the base's ")
        + base->interpreter + " into /" + target.scheme.purelib);
    if (base->externally_managed)
        target.notes.push_back("its Python is marked EXTERNALLY-MANAGED (PEP 668): dlenv adds the packages as a "
                               "layer and never runs pip in the image, so the mark does not forbid it");
    return target;
}

} // namespace dlenv::image
