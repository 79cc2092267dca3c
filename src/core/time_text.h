#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dlenv {

// Seconds since the epoch as RFC 3339 in UTC: "2026-11-29T18:04:50Z".
std::string rfc3339_utc(std::int64_t seconds);
// The seconds since the epoch of a time as rfc3339_utc writes it ("2026-11-29T18:04:50Z");
// nullopt for any other text.
std::optional<std::int64_t> parse_rfc3339_utc(std::string_view text);
// The seconds since the epoch of an HTTP-date in its preferred form, IMF-fixdate
// (RFC 9110 §5.6.7: "Sun, 06 Nov 1994 08:49:37 GMT"); nullopt for any other text.
std::optional<std::int64_t> parse_http_date(std::string_view text);
// The wall clock, for records that say when something happened (never inside an image).
std::int64_t now_seconds();

} // namespace dlenv
