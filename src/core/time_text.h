#pragma once

#include <cstdint>
#include <string>

namespace dlenv {

// Seconds since the epoch as RFC 3339 in UTC: "2026-11-29T18:04:50Z".
std::string rfc3339_utc(std::int64_t seconds);
// The wall clock, for records that say when something happened (never inside an image).
std::int64_t now_seconds();

} // namespace dlenv
