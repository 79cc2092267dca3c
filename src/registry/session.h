#pragma once

#include "core/image_reference.h"
#include "http/client.h"
#include "http/retry.h"
#include "registry/challenge.h"
#include "registry/credentials.h"

#include <chrono>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace dlenv::registry {

struct RegistryOptions {
    // The registry may answer over plain HTTP or with a certificate that is not verified
    // (--insecure). Applies to this registry only.
    bool insecure = false;
    http::RetryPolicy retry;
    std::string ca_file = http::ca_file_from_environment();
};

// What a request needs from the token service: "repository:team/app:pull,push", with
// more scopes separated by spaces (a cross-repository mount also pulls from the source).
using Scope = std::string;

std::string pull_scope(const std::string& repository);
std::string push_scope(const std::string& repository);

// Talks to one registry: picks https (or http for an insecure registry that has no TLS),
// authenticates as the registry asks (anonymous; Basic; Bearer tokens from the
// WWW-Authenticate realm, fetched per scope and fetched again when they expire or no
// longer suffice), and retries transient failures. A registry that refuses the first
// connection is given up at once (http::ConnectionRefused, naming it); one that refuses
// later, after it answered, may be restarting and is retried. Safe to share between threads.
class Session {
public:
    Session(
        std::string registry, std::string api_host, RegistryOptions options, std::optional<Credentials> credentials);

    const std::string& registry() const { return m_registry; }
    const RegistryOptions& options() const { return m_options; }

    // An absolute URL for a path under the registry ("/v2/…"); absolute URLs pass through.
    std::string url(const std::string& path_or_url);

    // Sends the request `make` builds, building it again for every attempt (a retry, or
    // the repeat after authenticating), so a streamed body starts over each time.
    // `retry`: transient failures are retried with backoff; only for repeatable requests.
    // Error(auth) when the registry refuses the credentials (or wants some and has none).
    http::Response send(const std::function<http::Request()>& make, const Scope& scope, bool retry);

private:
    struct Token {
        std::string value;
        std::chrono::steady_clock::time_point expires;
    };

    std::string base_url();
    std::string find_base_url();
    http::Response ping(const std::string& base);
    std::string authorization(const Scope& scope, bool renew);
    Token fetch_token(const Challenge& challenge, const Scope& scope);
    http::Response attempt(const std::function<http::Request()>& make, const Scope& scope, bool renew);

    std::string m_registry;
    std::string m_api_host;
    RegistryOptions m_options;
    std::optional<Credentials> m_credentials;
    http::Client m_client;

    std::mutex m_mutex; // guards what follows
    std::string m_base_url;
    std::exception_ptr m_unreachable; // why the version check failed
    std::optional<Challenge> m_challenge;
    std::map<Scope, Token> m_tokens;
};

// A session with the registry of `reference`, with the credentials find_credentials
// gives for it; `insecure` as RegistryOptions::insecure.
std::unique_ptr<Session> open_session(const ImageReference& reference, bool insecure);

// The Error for a registry answer that is not what `what` needed: the registry's own
// error codes and messages (distribution-spec "errors"), mapped to dlenv's codes
// (401/403 auth, 404 not_found, others network).
Error registry_error(const http::Response& response, const std::string& what);

} // namespace dlenv::registry
