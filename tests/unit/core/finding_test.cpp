#include "core/finding.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace dlenv;

namespace {

std::vector<Finding> with(std::initializer_list<Verdict> verdicts)
{
    std::vector<Finding> out;
    for (Verdict verdict : verdicts)
        out.push_back({ .code = "c", .verdict = verdict });
    return out;
}

} // namespace

TEST_CASE("the worst verdict is fail over warn over ok, and unknown counts as ok", "[core]")
{
    CHECK(worst_verdict({}) == Verdict::ok);
    CHECK(worst_verdict(with({ Verdict::unknown, Verdict::unknown })) == Verdict::ok);
    CHECK(worst_verdict(with({ Verdict::ok, Verdict::unknown })) == Verdict::ok);
    CHECK(worst_verdict(with({ Verdict::unknown, Verdict::warn, Verdict::ok })) == Verdict::warn);
    CHECK(worst_verdict(with({ Verdict::fail, Verdict::warn, Verdict::unknown })) == Verdict::fail);
}

TEST_CASE("a verdict's own name is its enumerator's", "[core]")
{
    CHECK(to_string(Verdict::unknown) == "unknown");
    CHECK(to_string(Verdict::ok) == "ok");
    CHECK(to_string(Verdict::warn) == "warn");
    CHECK(to_string(Verdict::fail) == "fail");
}
