#include "core/error.h"
#include "fleet/fleet_job.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

fleet::FleetJob job_of(std::string name, std::string registry)
{
    return { std::move(name), ImageReference::parse(registry), Digest::from_hex(std::string(64, 'c')),
        { "static", "gpu" }, 2, 8, false };
}

std::string refusal(const fleet::FleetJob& job)
{
    try {
        fleet::check_job(job);
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        return e.what();
    }
    return "accepted";
}

} // namespace

TEST_CASE("a fleet job pins the image by digest and names its pulled copy as dlenv pull does", "[fleet]")
{
    fleet::FleetJob job = job_of("team/base", "127.0.0.1:5000/team/base:1");
    CHECK(fleet::pinned_reference(job) == "127.0.0.1:5000/team/base@sha256:" + std::string(64, 'c'));
    CHECK(fleet::stored_image(job) == "127.0.0.1:5000/team/base:sha256-" + std::string(64, 'c'));
    CHECK(fleet::tier_list(job) == "static,gpu");
    CHECK(fleet::job_name(job) == "dlenv-verify-team-base-cccccccc");
}

TEST_CASE("a fleet job's name is a DNS label of at most 63 characters", "[fleet]")
{
    fleet::FleetJob job = job_of(std::string(80, 'a') + "/b", "127.0.0.1:5000/x:1");
    std::string name = fleet::job_name(job);
    CHECK(name.size() == 63);
    CHECK(name == "dlenv-verify-" + std::string(41, 'a') + "-cccccccc");
    CHECK(fleet::job_name(job_of("Team__x/.y", "127.0.0.1:5000/x:1")) == "dlenv-verify-team-x-y-cccccccc");
}

TEST_CASE("the tiers a node verifies are the lock's with gpu after static", "[fleet]")
{
    using Tiers = std::vector<std::string>;
    CHECK(fleet::node_tiers({}) == Tiers { "static", "gpu" });
    CHECK(fleet::node_tiers({ "static" }) == Tiers { "static", "gpu" });
    CHECK(fleet::node_tiers({ "static", "framework" }) == Tiers { "static", "gpu", "framework" });
    CHECK(fleet::node_tiers({ "framework" }) == Tiers { "gpu", "framework" });
    CHECK(fleet::node_tiers({ "static", "gpu", "framework" }) == Tiers { "static", "gpu", "framework" });
}

TEST_CASE("a value with a shell metacharacter is refused naming its field", "[fleet]")
{
    CHECK(refusal(job_of("team/base", "127.0.0.1:5000/team/base:1")) == "accepted");
    for (std::string bad : { "a;b", "a b", "$(id)", "a`b", "a'b", "a\"b", "a|b", "a\nb", "a&b", "a>b", "a\\b", "" })
        CHECK(refusal(job_of(bad, "127.0.0.1:5000/team/base:1")).rfind("NAME: ", 0) == 0);
    CHECK(refusal(job_of("a$b", "127.0.0.1:5000/x:1")) == "NAME: holds a character a fleet job refuses at offset 1");
    fleet::FleetJob tiers = job_of("team/base", "127.0.0.1:5000/team/base:1");
    tiers.tiers.push_back("gpu;reboot");
    CHECK(refusal(tiers) == "tier: holds a character a fleet job refuses at offset 3");
    fleet::FleetJob none = job_of("team/base", "127.0.0.1:5000/team/base:1");
    none.nodes = 0;
    CHECK(refusal(none) == "--nodes: 0");
}
