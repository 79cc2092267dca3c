#include "http/url.h"

#include "core/error.h"

#include <cctype>
#include <vector>

namespace dlenv::http {

Url Url::parse(std::string_view text)
{
    std::size_t scheme_end = text.find("://");
    std::string scheme(text.substr(0, scheme_end == std::string_view::npos ? 0 : scheme_end));
    if (scheme != "http" && scheme != "https")
        throw Error(ErrorCode::invalid_input, "not an http(s) URL: " + std::string(text));
    std::string_view rest = text.substr(scheme_end + 3);
    std::size_t path_start = rest.find_first_of("/?");
    std::string authority(rest.substr(0, path_start));
    if (authority.empty() || authority.find('@') != std::string::npos)
        throw Error(ErrorCode::invalid_input, "URL without a host, or with credentials in it: " + scheme + "://…",
            "give credentials through the configuration, never in a URL");
    std::string target = path_start == std::string_view::npos ? "/" : std::string(rest.substr(path_start));
    if (target.front() == '?')
        target.insert(0, "/");
    return { scheme, authority, target };
}

namespace {

// RFC 3986 5.2.4 on the path of `target` (its query kept as is): "/simple/torch/../../f"
// becomes "/f", so a URL written into a lock names the file once, one way.
std::string remove_dot_segments(const std::string& target)
{
    auto query = target.find_first_of("?#");
    std::string path = target.substr(0, query);
    std::vector<std::string> segments;
    std::size_t start = 1;
    while (start <= path.size()) {
        auto end = path.find('/', start);
        if (end == std::string::npos)
            end = path.size();
        std::string segment = path.substr(start, end - start);
        bool last = end == path.size();
        if (segment == "..") {
            if (!segments.empty())
                segments.pop_back();
            if (last)
                segments.emplace_back();
        } else if (segment == ".") {
            if (last)
                segments.emplace_back();
        } else {
            segments.push_back(segment);
        }
        start = end + 1;
    }
    std::string out;
    for (const auto& segment : segments)
        out += "/" + segment;
    if (out.empty())
        out = "/";
    return out + (query == std::string::npos ? "" : target.substr(query));
}

} // namespace

std::string resolve_url(std::string_view base, std::string_view location)
{
    if (location.starts_with("http://") || location.starts_with("https://"))
        return std::string(location);
    Url url = Url::parse(base);
    if (location.starts_with("//"))
        return url.scheme + ":" + std::string(location);
    if (location.starts_with("/"))
        return url.origin() + remove_dot_segments(std::string(location));
    std::string path = url.target.substr(0, url.target.find('?'));
    return url.origin() + remove_dot_segments(path.substr(0, path.rfind('/') + 1) + std::string(location));
}

std::string url_encode(std::string_view text)
{
    static constexpr char k_hex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        bool unreserved = std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
        if (unreserved) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += k_hex[c >> 4];
            out += k_hex[c & 15];
        }
    }
    return out;
}

} // namespace dlenv::http
