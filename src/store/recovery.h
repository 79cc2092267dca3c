#pragma once

#include "oci/descriptor.h"
#include "store/records.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dlenv::store {

// What opening a store took back from index.json into its records.
struct Recovery {
    bool records_missing = false; // dlenv/refs.json did not exist
    std::vector<std::string> refs; // "NAME:TAG", in index.json's order
};

// index.json is what other tools read and refs.json what dlenv writes first, so a tag
// the records lack while index.json lists it was lost from the records, unless the
// records' history removed it (index.json then lags that removal, and the next writer
// drops it). Takes back into `records` each index.json entry named "NAME:TAG", NAME a
// valid image name, that the records lack: every such entry when there were no records
// (`records_missing`: a store dlenv never wrote may have them from other tools, and
// adopting them loses nothing), else those of the names the records know. Each gets a
// history entry "recover" at `time` (tags.h). A tag the records hold keeps their digest.
Recovery recover_tags(
    Records& records, const std::vector<oci::Descriptor>& index, bool records_missing, std::int64_t time);

} // namespace dlenv::store
