// Cases from public reports (issues, pull requests, maintainers' answers), one per row of
// tests/fixtures/compat_cases/public_cases.json: the stack as the report gives it, the verdict
// the report bears out, and the finding that says why. Each row cites its report.

#include "core/error.h"
#include "matrix/matrix.h"
#include "resolve/check.h"
#include "resolve/query.h"
#include "resolve/report.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <string>

using namespace dlenv;
using namespace dlenv::resolve;
using Json = nlohmann::json;

namespace {

const std::string k_cases = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/compat_cases/public_cases.json";

Json load_cases()
{
    std::ifstream in(k_cases);
    REQUIRE(in.good());
    return Json::parse(in);
}

// The query a row's "ask" spells, field by field as `dlenv check` takes them.
Query query_of(const Json& ask)
{
    Query q;
    for (const auto& f : ask.value("frameworks", Json::array()))
        q.frameworks.push_back(FrameworkRequest::parse(f.get<std::string>()));
    if (ask.contains("cuda"))
        q.cuda = CudaVersion::parse(ask["cuda"].get<std::string>());
    if (ask.contains("cudnn"))
        q.cudnn = CudnnVersion::parse(ask["cudnn"].get<std::string>());
    if (ask.contains("driver")) {
        auto driver = DriverRequest::parse(ask["driver"].get<std::string>());
        q.driver = driver.release;
        q.driver_branch = driver.branch;
    }
    if (ask.contains("python")) {
        auto python = PythonRequest::parse(ask["python"].get<std::string>());
        q.python = python.version;
        q.free_threaded = python.free_threaded;
    }
    q.gpus = ask.value("gpus", std::vector<std::string> {});
    q.forward_compat = ask.value("forward_compat", false);
    if (ask.contains("os"))
        q.os = parse_host_os(ask["os"].get<std::string>());
    return q;
}

const Finding* finding(const Report& report, const std::string& code)
{
    for (const auto& f : report.findings)
        if (f.code == code)
            return &f;
    return nullptr;
}

} // namespace

TEST_CASE("public reports: every case gets the verdict its report bears out, for the reason it gives", "[resolve]")
{
    const Json cases = load_cases();
    REQUIRE(cases.size() >= 30);
    for (const auto& c : cases) {
        const std::string id = c.at("id").get<std::string>();
        DYNAMIC_SECTION(id)
        {
            INFO(c.at("source").get<std::string>());
            if (c.at("expected") == "refused") {
                try {
                    check(matrix::Matrix::embedded(), query_of(c.at("ask")));
                    FAIL("checked, where the ask names what was never published");
                } catch (const Error& e) {
                    CHECK(e.code() == ErrorCode::invalid_input);
                    CHECK_THAT(
                        e.message(), Catch::Matchers::Contains(c.at("refusal").at("contains").get<std::string>()));
                }
                return;
            }
            Report report = check(matrix::Matrix::embedded(), query_of(c.at("ask")));
            INFO(report.to_json().dump(2));
            CHECK(verdict_name(report.verdict()) == c.at("expected").get<std::string>());
            const Json& key = c.at("finding");
            const Finding* f = finding(report, key.at("code").get<std::string>());
            REQUIRE(f != nullptr);
            CHECK(severity_name(f->verdict) == key.at("severity").get<std::string>());
            CHECK_THAT(f->message, Catch::Matchers::Contains(key.at("contains").get<std::string>()));
        }
    }
}

TEST_CASE("public reports: every case names its report and every verdict occurs", "[resolve]")
{
    const Json cases = load_cases();
    std::set<std::string> verdicts, ids;
    for (const auto& c : cases) {
        CHECK_THAT(c.at("source").get<std::string>(), Catch::Matchers::StartsWith("https://"));
        CHECK(!c.at("reason").get<std::string>().empty());
        CHECK(ids.insert(c.at("id").get<std::string>()).second);
        verdicts.insert(c.at("expected").get<std::string>());
    }
    CHECK(verdicts == std::set<std::string> { "ok", "warning", "error", "refused" });
}
