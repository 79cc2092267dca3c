#pragma once

#include "oci/descriptor.h"
#include "store/records.h"
#include "store/store.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dlenv::store {

// One tag of the store, as `dlenv images` lists it.
struct ListedImage {
    std::string name;
    std::string tag;
    oci::Descriptor manifest;
    std::string created; // first_recorded: when the store first recorded this image
    std::int64_t size; // stored_size
};

// The time of the first history entry of `record` about `digest`; "" when none is.
std::string first_recorded(const ImageRecord& record, const Digest& digest);

// The bytes of the image `manifest` names as its descriptors give them: the manifest,
// its config and its layers. Errors are those of reading the manifest blob (checked
// against `manifest`) and parsing it.
std::int64_t stored_size(const Store& store, const oci::Descriptor& manifest);

// Every tag the records hold, by name then tag.
std::vector<ListedImage> list_images(const Store& store);

} // namespace dlenv::store
