#pragma once

#include "http/response.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace dlenv::http {

// A request body read in pieces, so a multi-GB blob never sits in memory. `read` fills
// at most `capacity` bytes and returns how many; the body ends after `size` bytes.
struct BodySource {
    std::int64_t size = 0;
    std::function<std::size_t(char* buffer, std::size_t capacity)> read;
};

struct Request {
    std::string method = "GET";
    std::string url;
    std::vector<Header> headers;
    // Sent as the Authorization header to the request's origin only: a redirect to
    // another origin drops it, as the OCI distribution spec requires.
    std::string authorization;
    std::string body; // a small body, or
    std::optional<BodySource> stream; // a streamed one
    // When set, a 2xx response body goes here as it arrives instead of into
    // Response::body (error bodies are always collected, to explain the error).
    std::function<void(std::string_view)> on_data;
    // When set, called once with a 2xx response's status and headers before its body;
    // returning false ends the transfer there, and send returns that response with no
    // body (a server that answers a Range request with the whole file, say).
    std::function<bool(const Response&)> accept_body;
    // Bytes moved so far and the total when known (0 when not), for progress bars.
    std::function<void(std::int64_t done, std::int64_t total)> on_progress;
    // When nonzero, the most bytes a 2xx response body may have: past it the transfer
    // ends and send throws Error(invalid_input) naming the URL and the limit.
    std::size_t max_body_bytes = 0;
};

// $SSL_CERT_FILE when set: the default ClientOptions::ca_file.
std::string ca_file_from_environment();

struct ClientOptions {
    // host[:port] whose certificate is not verified (a registry given --insecure).
    std::set<std::string> insecure_hosts;
    // CA certificates (PEM) trusted instead of the system's; $SSL_CERT_FILE by default.
    std::string ca_file = ca_file_from_environment();
    long connect_timeout_s = 30;
    // A transfer slower than 1 KiB/s for this long is abandoned as dropped.
    long stall_timeout_s = 60;
};

// Sends requests over libcurl. GET and HEAD follow up to 10 redirects; other methods
// return the redirect to the caller. Transport failures (DNS, refused or dropped
// connections) throw Error(network) naming the method and URL, never credentials; one
// that made no connection at all is a ConnectionRefused. TLS failures (a certificate
// that does not verify, a server without TLS) throw Error(environment), which retrying
// cannot mend.
// Safe to use from several threads at once.
class Client {
public:
    explicit Client(ClientOptions options = {});

    Response send(const Request& request) const;

    const ClientOptions& options() const { return m_options; }

private:
    Response send_once(const Request& request, const std::string& url, bool with_authorization) const;

    ClientOptions m_options;
};

} // namespace dlenv::http
