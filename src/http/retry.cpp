#include "http/retry.h"

#include "core/time_text.h"

#include <algorithm>
#include <charconv>

namespace dlenv::http {

bool is_transient_status(long status)
{
    return status == 408 || status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

bool is_retried(const RetryPolicy& policy, const Error& error)
{
    return error.code() == ErrorCode::network
        && (policy.retry_refused || dynamic_cast<const ConnectionRefused*>(&error) == nullptr);
}

std::chrono::milliseconds retry_delay(const RetryPolicy& policy, int retry, const Response* response)
{
    if (response) {
        if (std::optional<std::string> after = response->header("Retry-After")) {
            long seconds = 0;
            auto [end, error] = std::from_chars(after->data(), after->data() + after->size(), seconds);
            if (error == std::errc() && end == after->data() + after->size() && seconds >= 0)
                return std::min<std::chrono::milliseconds>(std::chrono::seconds(seconds), policy.max_delay);
            if (std::optional<std::int64_t> date = parse_http_date(*after)) {
                std::int64_t wait = std::max<std::int64_t>(*date - now_seconds(), 0);
                return std::min<std::chrono::milliseconds>(std::chrono::seconds(wait), policy.max_delay);
            }
        }
    }
    std::chrono::milliseconds delay = policy.first_delay * (1LL << std::min(retry - 1, 20));
    return std::min(delay, policy.max_delay);
}

} // namespace dlenv::http
