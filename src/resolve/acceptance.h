#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>

namespace dlenv {
class JsonReader;
} // namespace dlenv

namespace dlenv::resolve {

// The acceptance tier's training job and what it must reach, as a profile's
// `validation.acceptance` names them (a JSON object of these keys), its lock carries them
// and `dlenv verify --acceptance FILE` overrides them. Every field is optional; the
// defaults are the usual acceptance standard: an ImageNet-style ResNet-50 at batch 128,
// the GPU busy 85% of the time, data loading under 20% of each step.
struct Acceptance {
    std::string model = "resnet50"; // a torchvision.models constructor
    std::uint32_t batch_size = 128;
    std::uint32_t image_size = 224; // the crop the model trains on
    std::uint32_t num_workers = 8; // the DataLoader's
    std::uint32_t prefetch_factor = 2; // the DataLoader's: batches each worker loads ahead
    std::uint32_t steps = 50; // measured, after the warm-up
    std::uint32_t warmup = 5;
    std::uint32_t synthetic_images = 1280; // written into an empty data directory
    std::uint32_t synthetic_size = 256; // their width and height
    double gpu_utilization_min = 0.85;
    double data_wait_max_fraction = 0.2;
};

// Reads the settings: every field optional, counts within their bounds, fractions from 0
// to 1, a model name of lower case, digits and _; Error(invalid_input) naming the field.
Acceptance read_acceptance(const JsonReader& field);

// Every field, as read_acceptance reads them: the lock's validation.acceptance.
nlohmann::json to_json(const Acceptance& settings);

} // namespace dlenv::resolve
