#pragma once

#include <string>
#include <string_view>

namespace dlenv::http {

// The parts of an absolute http(s) URL that decide where a request goes.
struct Url {
    std::string scheme; // http or https
    std::string authority; // host[:port], as written
    std::string target; // path and query, starting with '/'

    // "scheme://authority": credentials are only ever sent back to the same origin.
    std::string origin() const { return scheme + "://" + authority; }
    std::string text() const { return origin() + target; }

    // Error(invalid_input) for anything but an absolute http(s) URL.
    static Url parse(std::string_view text);
};

// `location` (absolute, or relative to `base` as RFC 3986 allows: "//host/p", "/p",
// "p?q") made absolute, its "." and ".." path segments removed.
std::string resolve_url(std::string_view base, std::string_view location);

// Percent-encodes everything but RFC 3986's unreserved characters, for query values.
std::string url_encode(std::string_view text);

} // namespace dlenv::http
