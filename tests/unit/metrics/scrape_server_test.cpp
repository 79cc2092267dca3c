#include "metrics/scrape_server.h"

#include "core/error.h"

#include <catch2/catch.hpp>

using namespace dlenv;
using metrics::respond;

namespace {

std::string body()
{
    return "dlenv_x 1\n";
}

} // namespace

TEST_CASE("GET /metrics answers the exposition with its content type, and closes", "[metrics]")
{
    CHECK(respond("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain\r\n\r\n", body)
        == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\nContent-Length: "
           "10\r\nConnection: close\r\n\r\ndlenv_x 1\n");
    CHECK(respond("GET /metrics?x=1 HTTP/1.0\r\n\r\n", body).starts_with("HTTP/1.1 200 OK\r\n"));
}

TEST_CASE("other paths, methods and malformed or oversized heads get their status", "[metrics]")
{
    CHECK(respond("GET / HTTP/1.1\r\n\r\n", body)
        == "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 27\r\nConnection: "
           "close\r\n\r\ndlenv serves /metrics only\n");
    CHECK(respond("GET /metrics/../etc HTTP/1.1\r\n\r\n", body).starts_with("HTTP/1.1 404 Not Found\r\n"));
    CHECK(respond("POST /metrics HTTP/1.1\r\n\r\n", body)
        == "HTTP/1.1 405 Method Not Allowed\r\nAllow: GET\r\nContent-Type: text/plain; charset=utf-8\r\n"
           "Content-Length: 32\r\nConnection: close\r\n\r\ndlenv answers GET /metrics only\n");
    CHECK(respond("GET /metrics\r\n\r\n", body).starts_with("HTTP/1.1 400 Bad Request\r\n"));
    CHECK(respond("GET /metrics SPDY/3\r\n\r\n", body).starts_with("HTTP/1.1 400 Bad Request\r\n"));
    CHECK(respond("GET /metrics HTTP/1.1\r\nHost: x", body)
        == "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 29\r\nConnection: "
           "close\r\n\r\nthe request head did not end\n");
    std::string huge = "GET /metrics HTTP/1.1\r\nX: " + std::string(metrics::k_max_request_bytes, 'a');
    CHECK(respond(huge, body).starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
    CHECK(respond(huge + "\r\n\r\n", body).starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
}

TEST_CASE("an error while collecting answers 500 with its text", "[metrics]")
{
    auto failing = []() -> std::string { throw Error(ErrorCode::io, "read refs.json: Permission denied"); };
    CHECK(respond("GET /metrics HTTP/1.1\r\n\r\n", failing)
        == "HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
           "34\r\nConnection: close\r\n\r\nread refs.json: Permission denied\n");
}

TEST_CASE("the listen address is a port on 127.0.0.1 or an IPv4 address and a port", "[metrics]")
{
    auto parsed = [](const std::string& text) {
        auto address = metrics::ListenAddress::parse(text);
        return address.address + " " + std::to_string(address.port);
    };
    CHECK(parsed("9464") == "127.0.0.1 9464");
    CHECK(parsed(":9464") == "127.0.0.1 9464");
    CHECK(parsed("0.0.0.0:9464") == "0.0.0.0 9464");
    CHECK(parsed("127.0.0.1:0") == "127.0.0.1 0");
    for (std::string bad : { "", ":", "localhost:9464", "127.0.0.1:65536", "127.0.0.1:-1", "9464x", "[::1]:9464" }) {
        INFO(bad);
        try {
            metrics::ListenAddress::parse(bad);
            FAIL("no error");
        } catch (const Error& e) {
            CHECK(e.code() == ErrorCode::invalid_input);
            CHECK(std::string(e.what()) == "--listen " + bad + ": not PORT or IPV4-ADDRESS:PORT");
        }
    }
}

TEST_CASE("a port already taken is an environment error naming the address", "[metrics]")
{
    metrics::ScrapeServer first({ "127.0.0.1", 0 });
    REQUIRE(first.port() != 0);
    try {
        metrics::ScrapeServer second({ "127.0.0.1", first.port() });
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::environment);
        CHECK(std::string(e.what())
            == "listen on 127.0.0.1:" + std::to_string(first.port()) + ": Address already in use");
    }
}
