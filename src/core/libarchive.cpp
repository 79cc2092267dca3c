#include "core/libarchive.h"

#include "core/error.h"
#include "core/shared_library.h"

#include <string>

namespace dlenv {
namespace {

constexpr const char* k_soname = "libarchive.so.13";
constexpr const char* k_install = "install libarchive: apt-get install libarchive13";

Libarchive load()
{
    static const SharedLibrary& library = SharedLibrary::open_for_process(k_soname, k_install);
    Libarchive api {};
#define DLENV_LIBARCHIVE_BIND(name)                                                                                    \
    if (!library.bind("archive_" #name, api.name))                                                                     \
        throw Error(ErrorCode::environment, std::string(k_soname) + " lacks archive_" #name, k_install);
    DLENV_LIBARCHIVE_FUNCTIONS(DLENV_LIBARCHIVE_BIND)
#undef DLENV_LIBARCHIVE_BIND
    return api;
}

} // namespace

const Libarchive& libarchive()
{
    static const Libarchive api = load();
    return api;
}

} // namespace dlenv
