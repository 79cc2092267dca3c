#include "core/shared_library.h"

#include "core/error.h"

#include <dlfcn.h>
#include <utility>

namespace dlenv {

std::optional<SharedLibrary> SharedLibrary::open(const char* soname, std::string* why)
{
    void* handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        if (why) {
            const char* reason = dlerror();
            *why = reason ? reason : soname;
        }
        return std::nullopt;
    }
    return SharedLibrary(handle);
}

const SharedLibrary& SharedLibrary::open_for_process(const char* soname, const char* install)
{
    std::string why;
    std::optional<SharedLibrary> library = open(soname, &why);
    if (!library)
        throw Error(ErrorCode::environment, "cannot load " + std::string(soname) + ": " + why, install);
    return *new SharedLibrary(std::move(*library));
}

SharedLibrary::SharedLibrary(SharedLibrary&& other) noexcept
    : m_handle(std::exchange(other.m_handle, nullptr))
{
}

SharedLibrary& SharedLibrary::operator=(SharedLibrary&& other) noexcept
{
    std::swap(m_handle, other.m_handle);
    return *this;
}

SharedLibrary::~SharedLibrary()
{
    if (m_handle)
        dlclose(m_handle);
}

void* SharedLibrary::address(const char* symbol) const
{
    return dlsym(m_handle, symbol);
}

} // namespace dlenv
