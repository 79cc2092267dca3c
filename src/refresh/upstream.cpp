#include "refresh/upstream.h"

#include "core/error.h"
#include "http/retry.h"

namespace dlenv::refresh {

Upstream Upstream::under(std::string_view base)
{
    std::string root(base);
    while (root.ends_with('/'))
        root.pop_back();
    return { root + "/whl/", root + "/pypi/", root + "/compute/cuda/redist/", {} };
}

std::optional<std::string> get_document(const http::Client& client, const std::string& url, std::size_t max_bytes)
{
    http::Request request;
    request.url = url;
    request.max_body_bytes = max_bytes;
    http::Response response
        = http::with_retries(http::RetryPolicy { .retry_refused = false }, [&] { return client.send(request); });
    if (response.status == 404)
        return std::nullopt;
    if (!response.ok())
        throw Error(ErrorCode::network, "GET " + url + " answered HTTP " + std::to_string(response.status),
            "check that the source URL is right and the server is up");
    return std::move(response.body);
}

} // namespace dlenv::refresh
