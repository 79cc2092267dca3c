#include "advise/models.h"
#include "core/text.h"

#include <algorithm>

namespace dlenv::advise {
namespace {

Model llama2(const char* name, double parameters, TransformerShape shape, Citation source)
{
    return Model { name, parameters, shape, std::nullopt, source, source };
}

} // namespace

const std::vector<KnownModel>& known_models()
{
    static const std::vector<KnownModel> models {
        { "llama-2-7b", llama2("Llama-2 7B", 7e9, { 32, 4096, 32, 32 }, cite::llama2_7b) },
        { "llama-2-13b", llama2("Llama-2 13B", 13e9, { 40, 5120, 40, 40 }, cite::llama2_13b) },
        { "llama-2-70b", llama2("Llama-2 70B", 70e9, { 80, 8192, 64, 8 }, cite::llama2_70b) },
        { "resnet50",
            Model { "ResNet-50", 25557032, std::nullopt, 11.1e6, cite::resnet50_activations, cite::resnet50_params } },
    };
    return models;
}

const Model* find_model(std::string_view key)
{
    for (const auto& known : known_models())
        if (equal_ignoring_case(known.key, key))
            return &known.model;
    return nullptr;
}

const Model* llama2_of_size(double parameters)
{
    for (const auto& known : known_models())
        if (known.model.transformer && known.model.parameters == parameters)
            return &known.model;
    return nullptr;
}

} // namespace dlenv::advise
