#include "core/time_text.h"

#include <chrono>
#include <ctime>

namespace dlenv {

std::string rfc3339_utc(std::int64_t seconds)
{
    std::time_t time = static_cast<std::time_t>(seconds);
    std::tm parts {};
    ::gmtime_r(&time, &parts);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
    return text;
}

std::optional<std::int64_t> parse_rfc3339_utc(std::string_view text)
{
    std::tm parts {};
    std::string copy(text);
    const char* end = ::strptime(copy.c_str(), "%Y-%m-%dT%H:%M:%SZ", &parts);
    if (!end || *end != '\0' || copy.size() != 20)
        return std::nullopt;
    std::int64_t seconds = ::timegm(&parts);
    // strptime takes 2026-02-30; a time that does not print back as it was read is no time.
    if (rfc3339_utc(seconds) != copy)
        return std::nullopt;
    return seconds;
}

std::optional<std::int64_t> parse_http_date(std::string_view text)
{
    constexpr const char* k_imf_fixdate = "%a, %d %b %Y %H:%M:%S GMT";
    std::tm parts {};
    std::string copy(text);
    const char* end = ::strptime(copy.c_str(), k_imf_fixdate, &parts);
    if (!end || *end != '\0' || copy.size() != 29)
        return std::nullopt;
    std::int64_t seconds = ::timegm(&parts);
    // As above; printing back also checks the day name against the date.
    std::time_t time = static_cast<std::time_t>(seconds);
    std::tm printed {};
    ::gmtime_r(&time, &printed);
    char again[32];
    std::strftime(again, sizeof again, k_imf_fixdate, &printed);
    if (copy != again)
        return std::nullopt;
    return seconds;
}

std::int64_t now_seconds()
{
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace dlenv
