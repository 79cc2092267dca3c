#include "metrics/exposition.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace dlenv::metrics;

TEST_CASE("families render as HELP and TYPE lines then one line per sample", "[metrics]")
{
    std::vector<Family> families = {
        { "dlenv_a_ratio", "A fraction.", { { { { "digest", "sha256:ab" }, { "tier", "gpu" } }, 0.866 } } },
        { "dlenv_empty", "Left out.", {} },
        { "dlenv_b_seconds", "No labels.", { { {}, 1700000000 } } },
    };
    CHECK(render(families)
        == "# HELP dlenv_a_ratio A fraction.\n"
           "# TYPE dlenv_a_ratio gauge\n"
           "dlenv_a_ratio{digest=\"sha256:ab\",tier=\"gpu\"} 0.866\n"
           "# HELP dlenv_b_seconds No labels.\n"
           "# TYPE dlenv_b_seconds gauge\n"
           "dlenv_b_seconds 1700000000\n");
}

TEST_CASE("label values escape backslash, double quote and line feed, help text backslash and line feed", "[metrics]")
{
    CHECK(escape_label_value("C:\\dir \"x\"\nnext") == "C:\\\\dir \\\"x\\\"\\nnext");
    CHECK(render({ { "m", "a\\b\nc \"q\"", { { { { "l", "\"" } }, 1 } } } })
        == "# HELP m a\\\\b\\nc \"q\"\n# TYPE m gauge\nm{l=\"\\\"\"} 1\n");
}

TEST_CASE("values are whole numbers as integers, others the shortest text that reads back the same", "[metrics]")
{
    CHECK(value_text(0) == "0");
    CHECK(value_text(3) == "3");
    CHECK(value_text(0.1 + 0.2) == "0.30000000000000004");
    CHECK(value_text(2.5e-7) == "2.5e-07");
    CHECK(value_text(1073741824.0 * 503) == "540092137472");
    CHECK(value_text(-1700000000) == "-1700000000");
    CHECK(value_text(1e300) == "1e+300");
    CHECK(value_text(std::numeric_limits<double>::quiet_NaN()) == "NaN");
    CHECK(value_text(std::numeric_limits<double>::infinity()) == "+Inf");
    CHECK(value_text(-std::numeric_limits<double>::infinity()) == "-Inf");
}

TEST_CASE("names outside the format's grammar and a family named twice are programming errors", "[metrics]")
{
    CHECK_THROWS_AS(render({ { "1dlenv", "h", { { {}, 1 } } } }), std::logic_error);
    CHECK_THROWS_AS(render({ { "dlenv-x", "h", { { {}, 1 } } } }), std::logic_error);
    CHECK_THROWS_AS(render({ { "m", "h", { { { { "__name__", "x" } }, 1 } } } }), std::logic_error);
    CHECK_THROWS_AS(render({ { "m", "h", { { { { "a:b", "x" } }, 1 } } } }), std::logic_error);
    CHECK_THROWS_AS(render({ { "m", "h", {} }, { "m", "h", {} } }), std::logic_error);
    CHECK(render({ { "dlenv:rule_x", "h", { { { { "_l9", "v" } }, 1 } } } })
        == "# HELP dlenv:rule_x h\n# TYPE dlenv:rule_x gauge\ndlenv:rule_x{_l9=\"v\"} 1\n");
}
