#include "pypi/target.h"

#include "core/error.h"

namespace dlenv::pypi {

Target Target::linux_cpython(
    PythonVersion python, std::string machine, std::uint32_t glibc_major, std::uint32_t glibc_minor)
{
    if (machine != "x86_64" && machine != "aarch64")
        throw Error(
            ErrorCode::invalid_input, "machine '" + machine + "' is not supported", "lock for x86_64 or aarch64");
    return Target { std::move(python), std::move(machine), glibc_major, glibc_minor };
}

MarkerEnvironment marker_environment(const Target& target)
{
    std::string minor = target.python.truncated(2).text();
    std::string full = target.python.parts().size() > 2 ? target.python.text() : minor + ".0";
    return {
        { "implementation_name", "cpython" },
        { "implementation_version", full },
        { "os_name", "posix" },
        { "platform_machine", target.machine },
        { "platform_python_implementation", "CPython" },
        { "platform_release", "" },
        { "platform_system", "Linux" },
        { "platform_version", "" },
        { "python_full_version", full },
        { "python_version", minor },
        { "sys_platform", "linux" },
    };
}

} // namespace dlenv::pypi
