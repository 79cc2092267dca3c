#pragma once

#include <optional>
#include <string>

namespace dlenv {

// A shared library opened with dlopen: for a dependency that only some commands need, so
// that the others do not pay for loading and relocating it (and its own dependencies) at
// start-up, and for one the host may lack (NVML).
class SharedLibrary {
public:
    // The library by its soname ("libcurl.so.4"), its symbols bound now and kept to itself;
    // nullopt, with the loader's reason in `why` when given, when it cannot be loaded.
    static std::optional<SharedLibrary> open(const char* soname, std::string* why = nullptr);
    // The library by its soname, open until the process exits: for one whose handles or
    // exit handlers may outlive static objects (libcurl's easy handles live in thread-local
    // storage, archives are read on worker threads). Keep the reference in a function-local
    // static: that is what keeps the library reachable to the end, for LeakSanitizer too.
    // Error(environment), with `install` as its hint, when it cannot be loaded.
    static const SharedLibrary& open_for_process(const char* soname, const char* install);

    SharedLibrary(SharedLibrary&& other) noexcept;
    SharedLibrary& operator=(SharedLibrary&& other) noexcept;
    SharedLibrary(const SharedLibrary&) = delete;
    SharedLibrary& operator=(const SharedLibrary&) = delete;
    ~SharedLibrary();

    // Points `function` at `symbol`; false (and `function` null) when the library lacks it.
    template <typename Function> bool bind(const char* symbol, Function& function) const
    {
        function = reinterpret_cast<Function>(address(symbol));
        return function != nullptr;
    }

private:
    explicit SharedLibrary(void* handle)
        : m_handle(handle)
    {
    }
    void* address(const char* symbol) const;

    void* m_handle;
};

} // namespace dlenv
