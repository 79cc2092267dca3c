#include "resolve/acceptance.h"

#include "core/json_reader.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace dlenv::resolve {
namespace {

// The count fields with their bounds; the JSON keys are the struct's names.
struct CountField {
    std::string_view key;
    std::uint32_t Acceptance::*field;
    std::uint32_t min;
    std::uint32_t max;
};

constexpr CountField k_counts[] = {
    { "batch_size", &Acceptance::batch_size, 1, 65536 },
    { "image_size", &Acceptance::image_size, 8, 4096 },
    { "num_workers", &Acceptance::num_workers, 0, 1024 },
    { "prefetch_factor", &Acceptance::prefetch_factor, 1, 1024 },
    { "steps", &Acceptance::steps, 1, 100000 },
    { "warmup", &Acceptance::warmup, 0, 100000 },
    { "synthetic_images", &Acceptance::synthetic_images, 1, 10000000 },
    { "synthetic_size", &Acceptance::synthetic_size, 8, 4096 },
};

struct FractionField {
    std::string_view key;
    double Acceptance::*field;
};

constexpr FractionField k_fractions[] = {
    { "gpu_utilization_min", &Acceptance::gpu_utilization_min },
    { "data_wait_max_fraction", &Acceptance::data_wait_max_fraction },
};

bool is_model_name(const std::string& name)
{
    return !name.empty() && name.size() <= 64
        && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
}

} // namespace

Acceptance read_acceptance(const JsonReader& field)
{
    field.allow_only({ "model", "batch_size", "image_size", "num_workers", "prefetch_factor", "steps", "warmup",
        "synthetic_images", "synthetic_size", "gpu_utilization_min", "data_wait_max_fraction" });
    Acceptance out;
    if (auto model = field.find("model")) {
        out.model = model->string();
        if (!is_model_name(out.model))
            model->fail("\"" + out.model + "\" is not a torchvision.models name",
                "name a constructor of torchvision.models such as resnet50 (lower case, digits and _)");
    }
    for (const auto& count : k_counts)
        if (auto value = field.find(count.key)) {
            out.*count.field = value->unsigned_integer();
            if (out.*count.field < count.min || out.*count.field > count.max)
                value->fail("expected " + std::to_string(count.min) + " to " + std::to_string(count.max) + ", got "
                    + std::to_string(out.*count.field));
        }
    for (const auto& fraction : k_fractions)
        if (auto value = field.find(fraction.key)) {
            out.*fraction.field = value->number();
            if (!(out.*fraction.field >= 0 && out.*fraction.field <= 1))
                value->fail("expected a fraction from 0 to 1");
        }
    return out;
}

nlohmann::json to_json(const Acceptance& settings)
{
    nlohmann::json out = { { "model", settings.model } };
    for (const auto& count : k_counts)
        out[std::string(count.key)] = settings.*count.field;
    for (const auto& fraction : k_fractions)
        out[std::string(fraction.key)] = settings.*fraction.field;
    return out;
}

} // namespace dlenv::resolve
