#pragma once

#include "advise/job.h"

#include <string_view>
#include <vector>

namespace dlenv::advise {

// The models whose shape dlenv knows from a published source: Llama-2 7B, 13B and 70B
// (their config.json) and ResNet-50 (torchvision's parameter count, timm's activation
// count). Parameter counts of the Llama-2 models are the nominal ones of their names.
struct KnownModel {
    std::string_view key; // as --model spells it: "llama-2-7b"
    Model model;
};
const std::vector<KnownModel>& known_models();

// The known model `key` names, case-insensitively; null when unknown.
const Model* find_model(std::string_view key);

// The Llama-2 model of exactly `parameters` (7e9, 13e9, 70e9); null for any other count.
const Model* llama2_of_size(double parameters);

} // namespace dlenv::advise
