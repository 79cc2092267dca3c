#include "http/libcurl.h"

#include "core/error.h"
#include "core/shared_library.h"

namespace dlenv::http {
namespace {

constexpr const char* k_soname = "libcurl.so.4";
constexpr const char* k_install = "install libcurl: apt-get install libcurl4";

Libcurl load()
{
    std::string why;
    auto opened = SharedLibrary::open(k_soname, &why);
    if (!opened)
        throw Error(ErrorCode::environment, "cannot load " + std::string(k_soname) + ": " + why, k_install);
    // Never closed: easy handles live in thread-local storage, and exit handlers of the
    // libraries it brings may run after static objects are destroyed.
    const auto* library = new SharedLibrary(std::move(*opened));
    Libcurl api {};
    decltype(&::curl_global_init) global_init = nullptr;
    bool bound = library->bind("curl_global_init", global_init) && library->bind("curl_easy_init", api.easy_init)
        && library->bind("curl_easy_cleanup", api.easy_cleanup) && library->bind("curl_easy_reset", api.easy_reset)
        && library->bind("curl_easy_setopt", api.easy_setopt) && library->bind("curl_easy_perform", api.easy_perform)
        && library->bind("curl_easy_getinfo", api.easy_getinfo)
        && library->bind("curl_easy_strerror", api.easy_strerror)
        && library->bind("curl_slist_append", api.slist_append)
        && library->bind("curl_slist_free_all", api.slist_free_all);
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
