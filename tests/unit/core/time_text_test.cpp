#include "core/time_text.h"

#include <catch2/catch.hpp>

using namespace dlenv;

TEST_CASE("RFC 3339 UTC times read back as the seconds they were written from", "[core]")
{
    CHECK(parse_rfc3339_utc("1970-01-01T00:00:00Z") == 0);
    CHECK(parse_rfc3339_utc("2026-11-29T18:04:50Z") == 1795975490);
    CHECK(parse_rfc3339_utc(rfc3339_utc(1700000000)) == 1700000000);
    for (std::string bad : { "", "2026-11-29T18:04:50", "2026-11-29T18:04:50+01:00", "2026-11-29T18:04:50.5Z",
             "2026-02-30T00:00:00Z", "2026-11-29 18:04:50Z", "2026-11-29T18:04:50Zx" }) {
        INFO(bad);
        CHECK(parse_rfc3339_utc(bad) == std::nullopt);
    }
}

TEST_CASE("an HTTP-date is read in its IMF-fixdate form only, with a day name that matches", "[core]")
{
    CHECK(parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT") == 784111777);
    CHECK(parse_http_date("Tue, 01 Dec 2026 23:07:23 GMT") == 1796166443);
    CHECK_FALSE(parse_http_date("Mon, 06 Nov 1994 08:49:37 GMT"));
    CHECK_FALSE(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"));
    CHECK_FALSE(parse_http_date("Sun Nov  6 08:49:37 1994"));
    CHECK_FALSE(parse_http_date("Sun, 06 Nov 1994 08:49:37 UTC"));
    CHECK_FALSE(parse_http_date("Sun, 31 Feb 1994 08:49:37 GMT"));
    CHECK_FALSE(parse_http_date(""));
}
