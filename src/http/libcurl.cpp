#include "http/libcurl.h"

#include "core/error.h"
#include "core/shared_library.h"

#include <string>

namespace dlenv::http {
namespace {

constexpr const char* k_soname = "libcurl.so.4";
constexpr const char* k_install = "install libcurl: apt-get install libcurl4";

Libcurl load()
{
    static const SharedLibrary& lib = SharedLibrary::open_for_process(k_soname, k_install);
    Libcurl api {};
    decltype(&::curl_global_init) global_init = nullptr;
    bool bound = lib.bind("curl_global_init", global_init) && lib.bind("curl_easy_init", api.easy_init)
        && lib.bind("curl_easy_cleanup", api.easy_cleanup) && lib.bind("curl_easy_reset", api.easy_reset)
        && lib.bind("curl_easy_setopt", api.easy_setopt) && lib.bind("curl_easy_perform", api.easy_perform)
        && lib.bind("curl_easy_getinfo", api.easy_getinfo) && lib.bind("curl_easy_strerror", api.easy_strerror)
        && lib.bind("curl_slist_append", api.slist_append) && lib.bind("curl_slist_free_all", api.slist_free_all);
    if (!bound)
        throw Error(ErrorCode::environment, std::string(k_soname) + " lacks a function dlenv uses", k_install);
    if (global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        throw Error(ErrorCode::environment, "libcurl could not start");
    return api;
}

} // namespace

const Libcurl& libcurl()
{
    static const Libcurl api = load();
    return api;
}

} // namespace dlenv::http
