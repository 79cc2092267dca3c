#pragma once

#include "metrics/exposition.h"
#include "store/records.h"

#include <vector>

namespace dlenv::metrics {

// The store's tags as gauges:
// - dlenv_image_tag_info{image, tag, digest}: value 1 for every tag of every image name
//   (latest, rollback, production, production-previous, pulled tags), so that
//   `dlenv_image_tag_info{tag="production"}` gives each image's production digest and a
//   verification's `digest` joins to its names;
// - dlenv_image_production_timestamp_seconds{image}: when production last moved to the digest
//   it names, from the history (left out when no history entry moved it there).
std::vector<Family> image_families(const store::Records& records);

} // namespace dlenv::metrics
