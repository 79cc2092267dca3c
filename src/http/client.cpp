#include "http/client.h"

#include "core/error.h"
#include "http/connection_refused.h"
#include "http/libcurl.h"
#include "http/url.h"

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <system_error>

namespace dlenv::http {
namespace {

constexpr int k_max_redirects = 10;

struct CurlHeaders {
    curl_slist* list = nullptr;
    ~CurlHeaders() { libcurl().slist_free_all(list); }
    void add(const std::string& line) { list = libcurl().slist_append(list, line.c_str()); }
};

// One easy handle per thread, reset between requests: libcurl keeps its connection
// cache on the handle, so a thread's requests to one registry reuse a connection.
CURL* thread_handle()
{
    const Libcurl& curl = libcurl();
    thread_local std::unique_ptr<CURL, decltype(curl.easy_cleanup)> handle(curl.easy_init(), curl.easy_cleanup);
    if (!handle)
        throw Error(ErrorCode::environment, "libcurl could not start");
    curl.easy_reset(handle.get());
    return handle.get();
}

struct Transfer {
    const Request& request;
    Response response;
    std::int64_t sent = 0;
    bool body_begun = false;
    bool body_refused = false;
    std::size_t body_bytes = 0; // of a 2xx body so far
    bool body_too_large = false;
};

bool streams_body(const Transfer& transfer)
{
    return transfer.request.on_data && transfer.response.ok();
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user)
{
    auto& transfer = *static_cast<Transfer*>(user);
    std::string_view line(data, size * count);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
        line.remove_suffix(1);
    if (line.starts_with("HTTP/")) {
        // A new response begins (after a 100 Continue, say): its headers replace the last.
        transfer.response.headers.clear();
        std::size_t space = line.find(' ');
        transfer.response.status = space == std::string_view::npos ? 0 : std::atol(line.data() + space + 1);
        return size * count;
    }
    std::size_t colon = line.find(':');
    if (colon != std::string_view::npos) {
        std::string_view value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ')
            value.remove_prefix(1);
        transfer.response.headers.push_back({ std::string(line.substr(0, colon)), std::string(value) });
    }
    return size * count;
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user)
{
    auto& transfer = *static_cast<Transfer*>(user);
    std::string_view bytes(data, size * count);
    if (!transfer.body_begun && transfer.request.accept_body && transfer.response.ok()) {
        transfer.body_begun = true;
        if (!transfer.request.accept_body(transfer.response)) {
            transfer.body_refused = true;
            return 0; // libcurl ends the transfer with CURLE_WRITE_ERROR
        }
    }
    if (transfer.request.max_body_bytes && transfer.response.ok()) {
        transfer.body_bytes += bytes.size();
        if (transfer.body_bytes > transfer.request.max_body_bytes) {
            transfer.body_too_large = true;
            return 0; // libcurl ends the transfer with CURLE_WRITE_ERROR
        }
    }
    if (streams_body(transfer))
        transfer.request.on_data(bytes);
    else
        transfer.response.body.append(bytes);
    return bytes.size();
}

std::size_t on_read(char* buffer, std::size_t size, std::size_t count, void* user)
{
    auto& transfer = *static_cast<Transfer*>(user);
    std::size_t got = transfer.request.stream->read(buffer, size * count);
    transfer.sent += static_cast<std::int64_t>(got);
    return got;
}

int on_progress(
    void* user, curl_off_t download_total, curl_off_t downloaded, curl_off_t upload_total, curl_off_t uploaded)
{
    auto& transfer = *static_cast<Transfer*>(user);
    if (transfer.request.stream)
        transfer.request.on_progress(uploaded, upload_total);
    else
        transfer.request.on_progress(downloaded, download_total);
    return 0;
}

// A certificate that does not verify, or a server that does not speak TLS: asking again
// gives the same answer, so these are not network trouble to retry.
bool is_tls_failure(CURLcode code)
{
    switch (code) {
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
        return true;
    default:
        return false;
    }
}

// Why no connection could be made, from the errno of the last attempt: "connection
// refused" when a host answered with RST, which is what to tell the user.
std::string connect_failure(CURL* curl)
{
    long os_error = 0;
    libcurl().easy_getinfo(curl, CURLINFO_OS_ERRNO, &os_error);
    if (os_error == ECONNREFUSED)
        return "connection refused";
    return os_error ? "could not connect: " + std::generic_category().message(static_cast<int>(os_error))
                    : "could not connect";
}

bool is_redirect(long status)
{
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

} // namespace

std::string ca_file_from_environment()
{
    const char* file = std::getenv("SSL_CERT_FILE");
    return file ? file : "";
}

Client::Client(ClientOptions options)
    : m_options(std::move(options))
{
}

Response Client::send(const Request& request) const
{
    std::string url = request.url;
    const std::string origin = Url::parse(url).origin();
    bool follows = request.method == "GET" || request.method == "HEAD";
    for (int hop = 0; hop <= k_max_redirects; ++hop) {
        Response response = send_once(request, url, Url::parse(url).origin() == origin);
        std::optional<std::string> location = response.header("Location");
        if (!follows || !is_redirect(response.status) || !location)
            return response;
        url = resolve_url(url, *location);
    }
    throw Error(ErrorCode::network,
        request.method + " " + request.url + ": more than " + std::to_string(k_max_redirects) + " redirects");
}

Response Client::send_once(const Request& request, const std::string& url, bool with_authorization) const
{
    Url target = Url::parse(url);
    CURL* handle = thread_handle();
    const Libcurl& curl = libcurl();
    Transfer transfer { request, {}, 0, false, false, 0, false };
    CurlHeaders headers;
    for (const auto& header : request.headers)
        headers.add(header.name + ": " + header.value);
    if (with_authorization && !request.authorization.empty())
        headers.add("Authorization: " + request.authorization);
    headers.add("Expect:"); // no 100-continue round trip before each upload

    curl.easy_setopt(handle, CURLOPT_URL, url.c_str());
    curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl.easy_setopt(handle, CURLOPT_USERAGENT, "dlenv");
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT, m_options.connect_timeout_s);
    curl.easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT, 1024L);
    curl.easy_setopt(handle, CURLOPT_LOW_SPEED_TIME, m_options.stall_timeout_s);
    // Large buffers: multi-GB blobs then move in fewer writes, reads and hash updates.
    curl.easy_setopt(handle, CURLOPT_BUFFERSIZE, 512L << 10);
    curl.easy_setopt(handle, CURLOPT_UPLOAD_BUFFERSIZE, 1L << 20);
    curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(handle, CURLOPT_HEADERDATA, &transfer);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, &transfer);
    if (m_options.insecure_hosts.count(target.authority)) {
        curl.easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, 0L);
        curl.easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, 0L);
    } else if (!m_options.ca_file.empty()) {
        curl.easy_setopt(handle, CURLOPT_CAINFO, m_options.ca_file.c_str());
    }

    if (request.method == "HEAD") {
        curl.easy_setopt(handle, CURLOPT_NOBODY, 1L);
    } else if (request.stream) {
        curl.easy_setopt(handle, CURLOPT_UPLOAD, 1L);
        curl.easy_setopt(handle, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(request.stream->size));
        curl.easy_setopt(handle, CURLOPT_READFUNCTION, on_read);
        curl.easy_setopt(handle, CURLOPT_READDATA, &transfer);
        curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    } else if (request.method != "GET") {
        curl.easy_setopt(handle, CURLOPT_POSTFIELDS, request.body.data());
        curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
        curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request.method.c_str());
        if (!find_header(request.headers, "Content-Type"))
            headers.add("Content-Type:"); // not libcurl's form-encoding default
    }
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, headers.list);
    if (request.on_progress) {
        curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
        curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, on_progress);
        curl.easy_setopt(handle, CURLOPT_XFERINFODATA, &transfer);
    }

    char reason[CURL_ERROR_SIZE] = {};
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, reason);
    CURLcode code = curl.easy_perform(handle);
    if (code == CURLE_COULDNT_CONNECT)
        throw ConnectionRefused(ErrorCode::network, request.method + " " + url + ": " + connect_failure(handle));
    if (transfer.body_too_large)
        throw Error(ErrorCode::invalid_input,
            request.method + " " + url + ": the body is larger than the limit of "
                + std::to_string(request.max_body_bytes) + " bytes",
            "this is not the document expected there; check the URL");
    if (code != CURLE_OK && !(code == CURLE_WRITE_ERROR && transfer.body_refused))
        throw Error(is_tls_failure(code) ? ErrorCode::environment : ErrorCode::network,
            request.method + " " + url + ": " + (reason[0] ? reason : curl.easy_strerror(code)));
    transfer.response.url = url;
    return std::move(transfer.response);
}

} // namespace dlenv::http
