#include "core/error.h"
#include "http/client.h"
#include "http/connection_refused.h"
#include "http/retry.h"
#include "http/url.h"
#include "support/closed_port.h"

#include <catch2/catch.hpp>

using namespace dlenv::http;
using std::chrono::milliseconds;

TEST_CASE("URLs split into scheme, authority and target, credentials in them are refused", "[http]")
{
    Url url = Url::parse("https://registry.example.com:5000/v2/team/app/blobs/uploads/x?_state=abc");
    CHECK(url.scheme == "https");
    CHECK(url.authority == "registry.example.com:5000");
    CHECK(url.target == "/v2/team/app/blobs/uploads/x?_state=abc");
    CHECK(url.origin() == "https://registry.example.com:5000");
    CHECK(Url::parse("http://host").target == "/");
    CHECK(Url::parse("http://host?x=1").target == "/?x=1");
    CHECK_THROWS_AS(Url::parse("ftp://host/x"), dlenv::Error);
    CHECK_THROWS_WITH(
        Url::parse("https://user:secret@host/x"), "URL without a host, or with credentials in it: https://…");
}

TEST_CASE("Location headers resolve against the request URL", "[http]")
{
    std::string base = "https://r.example.com/v2/app/blobs/uploads/";
    CHECK(resolve_url(base, "https://s3.example.com/b?sig=1") == "https://s3.example.com/b?sig=1");
    CHECK(resolve_url(base, "//cdn.example.com/b") == "https://cdn.example.com/b");
    CHECK(resolve_url(base, "/v2/app/blobs/uploads/123?_state=x")
        == "https://r.example.com/v2/app/blobs/uploads/123?_state=x");
    CHECK(resolve_url(base + "?q=1", "123") == "https://r.example.com/v2/app/blobs/uploads/123");
    CHECK(resolve_url("http://127.0.0.1:8080/simple/torch/", "../../files/t.whl#sha256=ab")
        == "http://127.0.0.1:8080/files/t.whl#sha256=ab");
    CHECK(resolve_url("http://h/a/b/", "./c/../d?x=../y") == "http://h/a/b/d?x=../y");
    CHECK(resolve_url("http://h/a/", "../../..") == "http://h/");
}

TEST_CASE("query values are percent-encoded except unreserved characters", "[http]")
{
    CHECK(url_encode("repository:team/app:pull,push") == "repository%3Ateam%2Fapp%3Apull%2Cpush");
    CHECK(url_encode("a-b_c.d~e") == "a-b_c.d~e");
}

TEST_CASE("transient answers are retried after a doubling delay, or the server's Retry-After", "[http]")
{
    RetryPolicy policy { 5, milliseconds(100), milliseconds(1000) };
    CHECK(is_transient_status(429));
    CHECK(is_transient_status(503));
    CHECK_FALSE(is_transient_status(404));
    CHECK_FALSE(is_transient_status(401));
    CHECK(retry_delay(policy, 1, nullptr) == milliseconds(100));
    CHECK(retry_delay(policy, 3, nullptr) == milliseconds(400));
    CHECK(retry_delay(policy, 9, nullptr) == milliseconds(1000));
    Response busy { 429, "", { { "retry-after", "0" } }, "" };
    CHECK(retry_delay(policy, 4, &busy) == milliseconds(0));
    Response slow { 503, "", { { "Retry-After", "120" } }, "" };
    CHECK(retry_delay(policy, 1, &slow) == milliseconds(1000));
}

TEST_CASE("a Retry-After HTTP-date waits until then, and one in the past not at all", "[http]")
{
    RetryPolicy policy { 5, milliseconds(100), milliseconds(1000) };
    Response past { 503, "", { { "Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT" } }, "" };
    CHECK(retry_delay(policy, 3, &past) == milliseconds(0));
    Response future { 429, "", { { "Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT" } }, "" };
    CHECK(retry_delay(policy, 1, &future) == milliseconds(1000));
    // Neither seconds nor an HTTP-date: the policy's own delay.
    Response garbled { 503, "", { { "Retry-After", "120s" } }, "" };
    CHECK(retry_delay(policy, 2, &garbled) == milliseconds(200));
}

TEST_CASE("with_retries repeats transient failures and stops at the attempts", "[http]")
{
    RetryPolicy policy { 3, milliseconds(0), milliseconds(0) };
    int calls = 0;
    Response answer = with_retries(policy, [&] {
        ++calls;
        return Response { calls < 2 ? 503L : 200L, "", {}, "" };
    });
    CHECK(answer.status == 200);
    CHECK(calls == 2);

    calls = 0;
    CHECK_THROWS_WITH(with_retries(policy,
                          [&]() -> Response {
                              ++calls;
                              throw dlenv::Error(dlenv::ErrorCode::network, "connection refused");
                          }),
        "connection refused");
    CHECK(calls == 3);

    calls = 0;
    CHECK(with_retries(policy,
              [&] {
                  ++calls;
                  return Response { 404, "", {}, "" };
              })
              .status
        == 404);
    CHECK(calls == 1);
}

TEST_CASE("a connection to a port nothing listens on is a ConnectionRefused naming the request", "[http]")
{
    Request request;
    request.url = "http://127.0.0.1:" + std::to_string(dlenv::testing::closed_port()) + "/v2/";
    Client client;
    CHECK_THROWS_AS(client.send(request), ConnectionRefused);
    CHECK_THROWS_WITH(client.send(request), "GET " + request.url + ": connection refused");
}

TEST_CASE("a refused connection is retried only where the policy says the server may be restarting", "[http]")
{
    auto refuse = [](int& calls) {
        return [&calls]() -> Response {
            ++calls;
            throw ConnectionRefused(dlenv::ErrorCode::network, "GET http://h/v2/: connection refused");
        };
    };
    RetryPolicy first_contact { 3, milliseconds(0), milliseconds(0), false };
    int calls = 0;
    CHECK_THROWS_AS(with_retries(first_contact, refuse(calls)), ConnectionRefused);
    CHECK(calls == 1);

    calls = 0;
    CHECK_THROWS_WITH(with_retries(first_contact,
                          [&]() -> Response {
                              ++calls;
                              throw dlenv::Error(dlenv::ErrorCode::network, "connection dropped");
                          }),
        "connection dropped");
    CHECK(calls == 3);

    calls = 0;
    CHECK_THROWS_AS(
        with_retries(RetryPolicy { 3, milliseconds(0), milliseconds(0) }, refuse(calls)), ConnectionRefused);
    CHECK(calls == 3);
}
