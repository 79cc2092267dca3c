#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::http {

struct Header {
    std::string name;
    std::string value;
};

// The last value of header `name` in `headers`, compared case-insensitively.
std::optional<std::string> find_header(const std::vector<Header>& headers, std::string_view name);

struct Response {
    long status = 0;
    std::string url; // the URL that answered, after any redirects
    std::vector<Header> headers; // of the final response, in order
    std::string body; // unless the request streamed a successful body elsewhere

    std::optional<std::string> header(std::string_view name) const { return find_header(headers, name); }
    bool ok() const { return status >= 200 && status < 300; }
};

} // namespace dlenv::http
