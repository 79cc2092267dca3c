#include "refresh/upstream.h"

#include "core/error.h"
#include "http/retry.h"

namespace dlenv::refresh {

Upstream Upstream::under(std::string_view base)
{
    std::string root(base);
    while (root.ends_with('/'))
        root.pop_back();
    return { root + "/whl/", root + "/pypi/", root + "/compute/cuda/redist/" };
}

std::optional<std::string> get_document(const http::Client& client, const std::string& url)
{
    bool too_large = false;
    http::Response response = http::with_retries(http::RetryPolicy { .retry_refused = false }, [&] {
        too_large = false;
        http::Request request;
        request.url = url;
        std::string body;
        request.on_data = [&](std::string_view data) {
            if (body.size() + data.size() > k_max_document_bytes)
                too_large = true;
            else
                body.append(data);
        };
        http::Response r = client.send(request);
        if (r.ok())
            r.body = std::move(body);
        return r;
    });
    if (response.status == 404)
        return std::nullopt;
    if (!response.ok())
        throw Error(ErrorCode::network, "GET " + url + " answered HTTP " + std::to_string(response.status),
            "check that the source URL is right and the server is up");
    if (too_large)
        throw Error(ErrorCode::invalid_input,
            url + ": the document exceeds " + std::to_string(k_max_document_bytes) + " bytes",
            "this is not the vendor's page; check the source URL");
    return std::move(response.body);
}

} // namespace dlenv::refresh
