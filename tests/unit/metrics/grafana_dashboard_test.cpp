#include "core/file.h"
#include "metrics/doctor_metrics.h"
#include "metrics/exposition.h"
#include "metrics/image_metrics.h"
#include "metrics/verification_metrics.h"
#include "oci/media_types.h"
#include "store/tags.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <regex>
#include <set>

using namespace dlenv;

namespace {

// Every metric name dlenv writes: the families of findings in each unit the doctor uses,
// a gpu tier with each figure, and a promoted image.
std::set<std::string> written_names()
{
    std::vector<Finding> findings;
    for (std::string unit : { "GiB", "MB/s", "Gb/s", "C", "cores", "GPUs", "lanes", "errors", "links" })
        findings.push_back({ .code = "check_" + unit, .verdict = Verdict::ok, .measured = 1, .unit = unit });
    nlohmann::json report = { { "seconds", 1.5 }, { "counts", { { "pass", 1 } } },
        { "host", { { "kernel", "6.1.0" }, { "driver", "550.54.15" }, { "gpus", { "NVIDIA H100 80GB HBM3" } } } },
        { "runtime", "runc" },
        { "figures",
            { { { "name", "gpu0_bandwidth_fraction" }, { "value", 0.9 } },
                { { "name", "gpu0_gemm_fp16_fraction" }, { "value", 0.7 } } } },
        { "thresholds", { { "bandwidth_min_fraction", 0.8 }, { "gemm_min_fraction", 0.6 } } } };
    Digest image = Digest::from_hex(std::string(64, 'a'));
    store::Verification record { image, { { "gpu", { "gpu", true, "2026-11-29T18:04:50Z", report } } } };
    store::Records records;
    oci::Descriptor manifest { std::string(oci::media_type::k_manifest), image, 512, {}, std::nullopt };
    store::record_build(records, "app", manifest, "sha256:lock", 1764439200);
    store::record_promotion(records, "app", manifest, 1764439260);

    std::vector<metrics::Family> families = metrics::doctor_families(findings);
    for (auto&& part : { metrics::verification_families({ record }), metrics::image_families(records) })
        families.insert(families.end(), part.begin(), part.end());
    std::set<std::string> names;
    for (const auto& family : families)
        if (!family.samples.empty())
            names.insert(family.name);
    return names;
}

} // namespace

TEST_CASE("the Grafana dashboard is a dashboard model whose queries name only metrics dlenv writes", "[metrics]")
{
    nlohmann::json dashboard
        = nlohmann::json::parse(read_file(std::string(DLENV_SOURCE_DIR) + "/examples/grafana/dlenv.json"));
    CHECK(dashboard.at("uid") == "dlenv-overview");
    CHECK(dashboard.at("schemaVersion").is_number_integer());
    CHECK(dashboard.at("templating").at("list").at(0).at("type") == "datasource");
    std::set<std::string> written = written_names();
    std::set<int> ids;
    std::size_t queries = 0;
    const std::regex metric_name("dlenv_[a-z_]+");
    for (const auto& panel : dashboard.at("panels")) {
        INFO(panel.at("title").get<std::string>());
        CHECK(ids.insert(panel.at("id").get<int>()).second);
        for (const auto& key : { "x", "y", "w", "h" })
            CHECK(panel.at("gridPos").at(key).is_number_integer());
        CHECK(panel.at("datasource").at("uid") == "${datasource}");
        for (const auto& target : panel.at("targets")) {
            std::string expr = target.at("expr").get<std::string>();
            INFO(expr);
            std::size_t found = 0;
            for (std::sregex_iterator it(expr.begin(), expr.end(), metric_name), end; it != end; ++it, ++found)
                CHECK(written.count(it->str()) == 1);
            CHECK(found > 0);
            ++queries;
        }
    }
    CHECK(queries == 12);
}
