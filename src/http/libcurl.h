#pragma once

#include <curl/curl.h>

namespace dlenv::http {

// The libcurl entry points the client uses, loaded with dlopen the first time a request is
// made: commands that never reach the network (check, lock --offline, verify) start
// without loading libcurl and the TLS, LDAP, Kerberos and IDN libraries it brings. Each
// pointer has the type of the function curl/curl.h declares.
struct Libcurl {
    decltype(&::curl_easy_init) easy_init;
    decltype(&::curl_easy_cleanup) easy_cleanup;
    decltype(&::curl_easy_reset) easy_reset;
    decltype(&::curl_easy_setopt) easy_setopt;
    decltype(&::curl_easy_perform) easy_perform;
    decltype(&::curl_easy_getinfo) easy_getinfo;
    decltype(&::curl_easy_strerror) easy_strerror;
    decltype(&::curl_slist_append) slist_append;
    decltype(&::curl_slist_free_all) slist_free_all;
};

// libcurl, loaded and globally initialised once; Error(environment) saying what to
// install when the host lacks it.
const Libcurl& libcurl();

} // namespace dlenv::http
