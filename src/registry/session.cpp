#include "registry/session.h"

#include "core/base64.h"
#include "core/json_reader.h"
#include "http/url.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace dlenv::registry {
namespace {

// Tokens are renewed this long before they expire, so none lapses in flight.
constexpr auto k_token_margin = std::chrono::seconds(10);
// The token spec's default lifetime when the service names none.
constexpr int k_default_token_seconds = 60;

std::string basic(const Credentials& credentials)
{
    return "Basic " + base64_encode(credentials.username + ":" + credentials.password);
}

Error refused(const std::string& registry, const std::optional<Credentials>& credentials)
{
    if (credentials)
        return Error(ErrorCode::auth, registry + " refused the credentials from " + credentials->source,
            "check the user name and password or token, and that they may push or pull this repository");
    return Error(ErrorCode::auth, registry + " needs credentials",
        "set DLENV_REGISTRY_AUTH=USER:PASSWORD, or log in with `docker login " + registry + "`");
}

} // namespace

std::string pull_scope(const std::string& repository)
{
    return "repository:" + repository + ":pull";
}

std::string push_scope(const std::string& repository)
{
    return "repository:" + repository + ":pull,push";
}

Error registry_error(const http::Response& response, const std::string& what)
{
    std::string detail;
    nlohmann::json body = JsonReader::parse_document_or_null(response.body);
    if (body.is_object() && body.contains("errors") && body["errors"].is_array()) {
        for (const auto& error : body["errors"]) {
            if (!error.is_object())
                continue;
            detail += detail.empty() ? "" : "; ";
            detail += error.value("code", std::string("UNKNOWN")) + ": " + error.value("message", std::string());
        }
    }
    std::string message = what + ": the registry answered " + std::to_string(response.status)
        + (detail.empty() ? "" : " (" + detail + ")");
    switch (response.status) {
    case 401:
    case 403:
        return Error(ErrorCode::auth, message, "check that the credentials may access this repository");
    case 404:
        return Error(ErrorCode::not_found, message);
    default:
        return Error(ErrorCode::network, message);
    }
}

std::unique_ptr<Session> open_session(const ImageReference& reference, bool insecure)
{
    RegistryOptions options;
    options.insecure = insecure;
    return std::make_unique<Session>(
        reference.registry, reference.api_host(), options, find_credentials(reference.registry));
}

Session::Session(
    std::string registry, std::string api_host, RegistryOptions options, std::optional<Credentials> credentials)
    : m_registry(std::move(registry))
    , m_api_host(std::move(api_host))
    , m_options(std::move(options))
    , m_credentials(std::move(credentials))
    , m_client(
          http::ClientOptions { m_options.insecure ? std::set<std::string> { m_api_host } : std::set<std::string> {},
              m_options.ca_file, 30, 60 })
{
}

std::string Session::url(const std::string& path_or_url)
{
    if (path_or_url.starts_with("http://") || path_or_url.starts_with("https://"))
        return path_or_url;
    return base_url() + path_or_url;
}

// The scheme is found once, by the API version check every client starts with (GET
// /v2/); its 401 tells how to authenticate before anything else is sent. A check that
// fails is not repeated: the requests after it, from other threads too, fail the same way.
std::string Session::base_url()
{
    std::lock_guard lock(m_mutex);
    if (m_base_url.empty() && !m_unreachable) {
        try {
            m_base_url = find_base_url();
        } catch (const Error&) {
            m_unreachable = std::current_exception();
        }
    }
    if (m_unreachable)
        std::rethrow_exception(m_unreachable);
    return m_base_url;
}

std::string Session::find_base_url()
{
    std::string base = "https://" + m_api_host;
    http::Response response;
    try {
        response = ping(base);
    } catch (const http::ConnectionRefused&) {
        throw;
    } catch (const Error& e) {
        if (!m_options.insecure)
            throw Error(e.code(), e.message(),
                "check that " + m_registry
                    + " is up and reachable; if it serves plain HTTP or a certificate "
                      "you cannot verify and you trust the network, pass --insecure for it");
        base = "http://" + m_api_host;
        response = ping(base);
    }
    if (response.status == 401)
        if (std::optional<std::string> header = response.header("WWW-Authenticate"))
            m_challenge = parse_challenge(*header);
    if (response.status != 200 && response.status != 401)
        throw registry_error(response, m_registry + " does not answer as an OCI registry at " + base + "/v2/");
    return base;
}

// The first contact: a refused connection means that nothing listens there, which no
// retry mends, while 5xx and 429 answers and dropped connections are retried as ever.
http::Response Session::ping(const std::string& base)
{
    http::RetryPolicy policy = m_options.retry;
    policy.retry_refused = false;
    try {
        return http::with_retries(policy, [&] { return m_client.send({ .url = base + "/v2/" }); });
    } catch (const http::ConnectionRefused& e) {
        throw http::ConnectionRefused(ErrorCode::network, "reach registry " + m_registry + ": " + e.message(),
            "nothing accepts connections at " + m_api_host
                + ": check that the registry is running and that the image reference "
                  "names its host and port");
    }
}

Session::Token Session::fetch_token(const Challenge& challenge, const Scope& scope)
{
    std::string realm = challenge.parameter("realm");
    if (realm.empty())
        throw Error(ErrorCode::network, m_registry + " asked for a bearer token without naming a realm");
    std::string url = realm + (realm.find('?') == std::string::npos ? "?" : "&");
    url += "service=" + http::url_encode(challenge.parameter("service"));
    std::istringstream scopes(scope);
    for (std::string one; scopes >> one;)
        url += "&scope=" + http::url_encode(one);
    http::Request request { .url = url };
    if (m_credentials)
        request.authorization = basic(*m_credentials);
    http::Response response = http::with_retries(m_options.retry, [&] { return m_client.send(request); });
    if (response.status == 401 || response.status == 403)
        throw refused(m_registry, m_credentials);
    if (!response.ok())
        throw registry_error(response, "token service " + http::Url::parse(realm).origin());
    nlohmann::json body = JsonReader::parse_document_or_null(response.body);
    std::string token;
    if (body.is_object())
        token = body.value("token", body.value("access_token", std::string()));
    if (token.empty())
        throw Error(
            ErrorCode::network, "token service " + http::Url::parse(realm).origin() + " answered without a token");
    int seconds = body.value("expires_in", k_default_token_seconds);
    return { token, std::chrono::steady_clock::now() + std::chrono::seconds(seconds) - k_token_margin };
}

std::string Session::authorization(const Scope& scope, bool renew)
{
    std::lock_guard lock(m_mutex);
    if (!m_challenge)
        return "";
    if (m_challenge->scheme == "basic") {
        if (!m_credentials)
            throw refused(m_registry, m_credentials);
        return basic(*m_credentials);
    }
    if (m_challenge->scheme != "bearer")
        throw Error(ErrorCode::auth, m_registry + " asks for " + m_challenge->scheme + " authentication",
            "dlenv speaks Basic and Bearer token authentication");
    auto usable = [&](const Scope& held) {
        auto found = m_tokens.find(held);
        return found != m_tokens.end() && std::chrono::steady_clock::now() < found->second.expires ? found
                                                                                                   : m_tokens.end();
    };
    auto found = usable(scope);
    // A token to pull and push a repository also pulls from it: a push's reads (the
    // referrers it lists) need no second token.
    if (found == m_tokens.end() && scope.ends_with(":pull"))
        found = usable(scope + ",push");
    if (renew || found == m_tokens.end())
        found = m_tokens.insert_or_assign(scope, fetch_token(*m_challenge, scope)).first;
    return "Bearer " + found->second.value;
}

http::Response Session::attempt(const std::function<http::Request()>& make, const Scope& scope, bool renew)
{
    http::Request request = make();
    request.url = url(request.url);
    request.authorization = authorization(scope, renew);
    return m_client.send(request);
}

http::Response Session::send(const std::function<http::Request()>& make, const Scope& scope, bool retry)
{
    base_url();
    auto once = [&](bool renew) {
        return retry ? http::with_retries(m_options.retry, [&] { return attempt(make, scope, renew); })
                     : attempt(make, scope, renew);
    };
    http::Response response = once(false);
    if (response.status != 401)
        return response;
    // A first 401 says how to authenticate (or that a token no longer suffices): learn
    // it, authenticate afresh, and ask once more.
    if (std::optional<std::string> header = response.header("WWW-Authenticate")) {
        std::lock_guard lock(m_mutex);
        m_challenge = parse_challenge(*header);
    }
    response = once(true);
    if (response.status == 401)
        throw refused(m_registry, m_credentials);
    return response;
}

} // namespace dlenv::registry
