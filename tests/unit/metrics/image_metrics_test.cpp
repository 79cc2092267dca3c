#include "metrics/image_metrics.h"

#include "oci/media_types.h"
#include "store/tags.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

oci::Descriptor manifest(char hex)
{
    return { std::string(oci::media_type::k_manifest), Digest::from_hex(std::string(64, hex)), 512, {}, std::nullopt };
}

} // namespace

TEST_CASE("every tag is an info gauge and production carries when it moved there", "[metrics]")
{
    store::Records records;
    store::record_build(records, "app", manifest('a'), "sha256:lock", 1764439200);
    store::record_promotion(records, "app", manifest('a'), 1764439260);
    store::record_build(records, "app", manifest('b'), "sha256:lock", 1764439320);
    store::record_build(records, "train", manifest('c'), "sha256:lock", 1764439380);
    std::string a = "sha256:" + std::string(64, 'a'), b = "sha256:" + std::string(64, 'b'),
                c = "sha256:" + std::string(64, 'c');
    CHECK(metrics::render(metrics::image_families(records))
        == "# HELP dlenv_image_tag_info The digest each tag of an image in the store names, value 1.\n"
           "# TYPE dlenv_image_tag_info gauge\n"
           "dlenv_image_tag_info{image=\"app\",tag=\"latest\",digest=\""
            + b + "\"} 1\ndlenv_image_tag_info{image=\"app\",tag=\"production\",digest=\"" + a
            + "\"} 1\ndlenv_image_tag_info{image=\"app\",tag=\"rollback\",digest=\"" + a
            + "\"} 1\ndlenv_image_tag_info{image=\"train\",tag=\"latest\",digest=\"" + c
            + "\"} 1\n"
              "# HELP dlenv_image_production_timestamp_seconds When production moved to the digest it names.\n"
              "# TYPE dlenv_image_production_timestamp_seconds gauge\n"
              "dlenv_image_production_timestamp_seconds{image=\"app\"} 1764439260\n");
}
