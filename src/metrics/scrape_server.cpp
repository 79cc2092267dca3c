#include "metrics/scrape_server.h"

#include "metrics/exposition.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

namespace dlenv::metrics {
namespace {

std::string response(
    std::string_view status, std::string_view type, const std::string& body, std::string_view headers = {})
{
    return "HTTP/1.1 " + std::string(status) + "\r\n" + std::string(headers) + "Content-Type: " + std::string(type)
        + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

std::string plain(std::string_view status, const std::string& body, std::string_view headers = {})
{
    return response(status, "text/plain; charset=utf-8", body + "\n", headers);
}

// Reads a request head: up to its blank line, or k_max_request_bytes + 1 bytes when it
// has none that soon; what arrived when the client stops sending or times out.
std::string read_head(int fd)
{
    std::string head;
    char buffer[1024];
    while (head.find("\r\n\r\n") == std::string::npos && head.size() <= k_max_request_bytes) {
        ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        head.append(buffer, static_cast<std::size_t>(n));
    }
    return head;
}

void send_all(int fd, std::string_view bytes)
{
    while (!bytes.empty()) {
        ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return; // the client went away; the next one is served
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
}

} // namespace

ListenAddress ListenAddress::parse(std::string_view text)
{
    ListenAddress out;
    std::size_t colon = text.rfind(':');
    std::string_view port = colon == std::string_view::npos ? text : text.substr(colon + 1);
    if (colon != std::string_view::npos && colon > 0)
        out.address = std::string(text.substr(0, colon));
    in_addr parsed {};
    unsigned value = 0;
    auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (port.empty() || error != std::errc() || end != port.data() + port.size() || value > 65535
        || ::inet_pton(AF_INET, out.address.c_str(), &parsed) != 1)
        throw Error(ErrorCode::invalid_input, "--listen " + std::string(text) + ": not PORT or IPV4-ADDRESS:PORT",
            "give a port (served on 127.0.0.1), e.g. --listen 9464, or an address and a port, e.g. --listen "
            "127.0.0.1:9464");
    out.port = static_cast<std::uint16_t>(value);
    return out;
}

std::string respond(std::string_view request, const std::function<std::string()>& body)
{
    std::size_t head_end = request.find("\r\n\r\n");
    if (request.size() > k_max_request_bytes
        && (head_end == std::string_view::npos || head_end + 4 > k_max_request_bytes))
        return plain("431 Request Header Fields Too Large",
            "the request head must end within " + std::to_string(k_max_request_bytes) + " bytes");
    if (head_end == std::string_view::npos)
        return plain("400 Bad Request", "the request head did not end");
    std::string_view line = request.substr(0, request.find("\r\n"));
    std::size_t first = line.find(' '), second = line.find(' ', first + 1);
    if (first == std::string_view::npos || second == std::string_view::npos
        || !line.substr(second + 1).starts_with("HTTP/1.") || line.find(' ', second + 1) != std::string_view::npos)
        return plain("400 Bad Request", "not an HTTP/1.x request line");
    std::string_view method = line.substr(0, first);
    std::string_view target = line.substr(first + 1, second - first - 1);
    target = target.substr(0, target.find('?'));
    if (target != "/metrics")
        return plain("404 Not Found", "dlenv serves /metrics only");
    if (method != "GET")
        return plain("405 Method Not Allowed", "dlenv answers GET /metrics only", "Allow: GET\r\n");
    std::string text;
    try {
        text = body();
    } catch (const std::exception& e) {
        return plain("500 Internal Server Error", e.what());
    }
    return response("200 OK", k_content_type, text);
}

ScrapeServer::ScrapeServer(const ListenAddress& address)
    : m_socket(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0))
{
    std::string shown = address.address + ":" + std::to_string(address.port);
    if (m_socket.get() < 0)
        throw Error(ErrorCode::environment, "open a socket for " + shown + ": " + std::strerror(errno));
    int on = 1;
    ::setsockopt(m_socket.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    sockaddr_in where {};
    where.sin_family = AF_INET;
    where.sin_port = htons(address.port);
    ::inet_pton(AF_INET, address.address.c_str(), &where.sin_addr);
    if (::bind(m_socket.get(), reinterpret_cast<sockaddr*>(&where), sizeof where) != 0
        || ::listen(m_socket.get(), 16) != 0)
        throw Error(ErrorCode::environment, "listen on " + shown + ": " + std::strerror(errno),
            "choose a free port, or an address of this machine");
    socklen_t size = sizeof where;
    ::getsockname(m_socket.get(), reinterpret_cast<sockaddr*>(&where), &size);
    m_port = ntohs(where.sin_port);
}

void ScrapeServer::serve(const std::function<std::string()>& body)
{
    for (;;) {
        UniqueFd client(::accept4(m_socket.get(), nullptr, nullptr, SOCK_CLOEXEC));
        if (client.get() < 0)
            continue; // EINTR, or a connection reset before it was accepted
        timeval timeout { 5, 0 };
        ::setsockopt(client.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        ::setsockopt(client.get(), SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
        send_all(client.get(), respond(read_head(client.get()), body));
    }
}

} // namespace dlenv::metrics
