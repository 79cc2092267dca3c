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

std::int64_t now_seconds()
{
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace dlenv
