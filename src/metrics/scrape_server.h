#pragma once

#include "core/file.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace dlenv::metrics {

// Where `--listen` serves: an IPv4 address and a port. Parsed from "PORT", ":PORT" (both on
// 127.0.0.1, so nothing is exposed beyond this machine unless an address is named) or
// "ADDRESS:PORT" ("0.0.0.0:9464"). Port 0 takes a free port. Error(invalid_input) otherwise.
struct ListenAddress {
    std::string address = "127.0.0.1";
    std::uint16_t port = 0;

    static ListenAddress parse(std::string_view text);
};

// The longest request head (request line and headers) read; a longer one gets 431.
constexpr std::size_t k_max_request_bytes = 8192;

// The whole HTTP/1.1 response to a request head: 200 with `body()` (k_content_type) for
// `GET /metrics` (a query string is ignored), 404 for another path, 405 for another
// method, 400 for a head that is no HTTP/1.x request line or never ended, 431 for one
// longer than k_max_request_bytes, 500 with the error's text when `body` throws. Every response
// closes the connection.
std::string respond(std::string_view request, const std::function<std::string()>& body);

// A listening TCP socket answering scrapes one at a time.
class ScrapeServer {
public:
    // Binds and listens. Error(environment) when the address cannot be bound (in use, not
    // this machine's).
    explicit ScrapeServer(const ListenAddress& address);

    std::uint16_t port() const { return m_port; } // the bound one, also for port 0

    // Answers connections with `respond` until the process ends. A client that sends no
    // complete request head within 5 seconds is dropped, so one slow client cannot hold
    // the scrapes of others for longer.
    [[noreturn]] void serve(const std::function<std::string()>& body);

private:
    UniqueFd m_socket;
    std::uint16_t m_port = 0;
};

} // namespace dlenv::metrics
