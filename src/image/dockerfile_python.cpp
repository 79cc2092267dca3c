#include "image/dockerfile_python.h"

#include "image/templates.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace dlenv::image {
namespace {

const std::string k_wheels_dir(k_docker_wheels_dir);

// What every install step asks of pip: the lock's closure exactly (no resolution, no
// index), each wheel checked against its sha256, and no .pyc, as `dlenv build` writes
// none; the interpreter runs with -B so that pip's own modules leave none either.
std::vector<std::string> pip_arguments()
{
    return { "--no-deps", "--no-index", "--find-links", k_wheels_dir, "--require-hashes", "--no-cache-dir",
        "--no-compile", "--disable-pip-version-check", "-r", k_wheels_dir + "/requirements.txt" };
}

std::string run_with_wheels(const std::vector<std::string>& command)
{
    return "RUN --mount=type=bind,source=wheels,target=" + k_wheels_dir + " " + nlohmann::json(command).dump();
}

std::string runtime_step(const lock::PythonEnvironment& python)
{
    return "# The relocatable CPython the lock pins, unpacked under " + python.prefix + ".\n"
        + "ADD --checksum=sha256:" + python.runtime->sha256 + " " + python.runtime->url
        + " /tmp/python-runtime.tar.gz\n" + "RUN tar -xzf /tmp/python-runtime.tar.gz -C " + python.prefix
        + " --strip-components=1 && rm /tmp/python-runtime.tar.gz\n\n";
}

// The install step for the Python `target` names, read from the base's files by the build
// (or the lock's runtime).
std::string known_step(const PackagesTarget& target, std::size_t count)
{
    const pypi::InstallScheme& scheme = target.scheme;
    bool debian = scheme.purelib.ends_with("dist-packages");
    std::string out = "# The lock's " + std::to_string(count) + " Python packages, where `dlenv build` puts them for "
        + scheme.interpreter + ":\n# /" + scheme.purelib + ", scripts in /" + scheme.scripts + ". pip's --prefix "
        + target.pip_prefix + " gives exactly those\n# with that Python's sysconfig scheme"
        + (debian ? " (Debian's posix_local adds local/)" : "") + ".\n";
    std::vector<std::string> command
        = { scheme.interpreter, "-B", "-m", "pip", "install", "--prefix", target.pip_prefix };
    if (target.externally_managed) {
        out += "# The base marks this Python EXTERNALLY-MANAGED (PEP 668), which asks pip to leave its global\n"
               "# environment to the distribution's package manager, with an override, and asks\n"
               "# distributions for a local directory that manager never writes: the one above. The\n"
               "# packages go only there, in an image built once from a lock, so --break-system-packages\n"
               "# (pip 23.0.1 and later, as every Python with the mark ships) cannot break a file apt owns.\n";
        command.push_back("--break-system-packages");
    }
    for (auto& argument : pip_arguments())
        command.push_back(std::move(argument));
    return out + "# Each wheel comes from wheels/ of the context, checked against its sha256.\n"
        + run_with_wheels(command);
}

std::string asking_step(const lock::PythonEnvironment& python, std::size_t count)
{
    std::vector<std::string> command = { "python3", "-B", k_wheels_dir + "/install_packages.py", python.version };
    for (auto& argument : pip_arguments())
        command.push_back(std::move(argument));
    return "# The lock's " + std::to_string(count)
        + " Python packages where `dlenv build` puts them. This Dockerfile was written\n"
          "# without reading the base, so install_packages.py (in wheels/) asks the image's own\n"
          "# python3 as it builds: it must be Python "
        + python.version
        + ", and pip installs into its sysconfig scheme, the\n"
          "# one `dlenv build` reads from the base's files (Debian's and Ubuntu's python3:\n"
          "# /usr/local/lib/python3.X/dist-packages and /usr/local/bin; any other: site-packages\n"
          "# under its prefix). Where the base marks that Python EXTERNALLY-MANAGED (PEP 668), it\n"
          "# overrides the mark for pip only, as those directories are ones apt never writes;\n"
          "# the script says why. Each wheel comes from wheels/, checked against its sha256.\n"
        + run_with_wheels(command);
}

} // namespace

std::string python_steps(const lock::Lockfile& lock, const std::optional<PackagesTarget>& target)
{
    const lock::PythonEnvironment& python = lock.python();
    std::string out = python.runtime ? runtime_step(python) : "";
    const auto& locked = lock.packages();
    if (!locked || locked->empty())
        return out + "# The lock pins no packages.";
    if (asks_image_python(lock, target))
        return out + asking_step(python, locked->size());
    // A runtime's directories are the lock's own, whatever the base holds.
    return out
        + known_step(
            target ? *target : packages_target(lock, std::nullopt, lock.base_image().reference), locked->size());
}

bool asks_image_python(const lock::Lockfile& lock, const std::optional<PackagesTarget>& target)
{
    const auto& locked = lock.packages();
    return locked && !locked->empty() && !target && !lock.python().runtime;
}

std::string install_packages_script()
{
    return embedded_template("install_packages.py.in");
}

} // namespace dlenv::image
