#pragma once

#include "core/error.h"
#include "http/connection_refused.h"
#include "http/response.h"

#include <chrono>
#include <thread>

namespace dlenv::http {

// How often and how patiently to repeat a request that failed for reasons that pass:
// 429 and 5xx answers, and dropped or refused connections.
struct RetryPolicy {
    int attempts = 5;
    std::chrono::milliseconds first_delay { 500 };
    std::chrono::milliseconds max_delay { 15000 };
    // Whether a refused connection is tried again: yes for a server that has answered
    // before and may be restarting; no for a first contact, where it means that nothing
    // listens there and waiting would only delay the error.
    bool retry_refused = true;
};

// 408, 429, 500, 502, 503 and 504: the server may answer differently in a moment.
bool is_transient_status(long status);

// Whether `error`, thrown by an attempt, is one that `policy` tries again.
bool is_retried(const RetryPolicy& policy, const Error& error);

// The wait before retry number `retry` (1 for the first): the server's Retry-After, in
// seconds or as an HTTP-date, when it gave one, else first_delay doubled each time; never above max_delay.
std::chrono::milliseconds retry_delay(const RetryPolicy& policy, int retry, const Response* response);

// Runs `attempt` (returning a Response) until it gives a non-transient answer or the
// attempts run out; then returns the last answer or rethrows the last Error(network)
// (at once when it is a ConnectionRefused the policy does not retry).
// Only for requests that are safe to repeat.
template <typename Attempt> Response with_retries(const RetryPolicy& policy, Attempt&& attempt)
{
    for (int retry = 1;; ++retry) {
        bool last = retry >= policy.attempts;
        try {
            Response response = attempt();
            if (last || !is_transient_status(response.status))
                return response;
            std::this_thread::sleep_for(retry_delay(policy, retry, &response));
        } catch (const Error& e) {
            if (last || !is_retried(policy, e))
                throw;
            std::this_thread::sleep_for(retry_delay(policy, retry, nullptr));
        }
    }
}

} // namespace dlenv::http
