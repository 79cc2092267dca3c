#include "resolve/targets.h"

#include "core/closest.h"
#include "core/error.h"
#include "core/text.h"

#include <algorithm>
#include <cctype>

namespace dlenv::resolve {
namespace {

// The models gpus.json lists are a sample, so a bare compute capability's segment is
// NVIDIA's whole list of its parts, and known only where that list has one segment.
std::optional<matrix::GpuSegment> only_segment(const matrix::Architecture& arch)
{
    if (!arch.segments || arch.segments->size() != 1)
        return std::nullopt;
    return arch.segments->front();
}

GpuTarget model_target(const matrix::Gpu& gpu)
{
    return { gpu.name, gpu.compute_capability, &gpu, {}, gpu.segment };
}

// The loader made sure a family's variants share their compute capability and segment.
std::optional<GpuTarget> family(const matrix::Matrix& matrix, std::string_view text)
{
    std::vector<const matrix::Gpu*> variants = matrix.gpu_family(text);
    if (variants.empty())
        return std::nullopt;
    const matrix::Gpu& first = *variants.front();
    return GpuTarget { first.family, first.compute_capability, nullptr, variants, first.segment };
}

// `text` without the words of `words` it starts with, in any order and case, as long as
// something is left.
std::string_view without_leading(std::string_view text, std::initializer_list<std::string_view> words)
{
    for (bool stripped = true; stripped;) {
        stripped = false;
        for (std::string_view word : words)
            if (text.size() > word.size() && starts_with_ignoring_case(text, word)) {
                text.remove_prefix(word.size());
                stripped = true;
            }
    }
    return text;
}

// "NVIDIA GeForce RTX 3080", "Tesla V100": the brand words nvidia-smi and users put before
// a model, which the matrix's names and aliases need not carry.
std::string_view without_brand(std::string_view text)
{
    return without_leading(text, { "NVIDIA ", "GeForce ", "Tesla " });
}

// The model whose name or an alias reads as `text` once the brand words are off both: the
// matrix names "NVIDIA H100 80GB HBM3" as nvidia-smi does, users type "H100 80GB HBM3".
const matrix::Gpu* find_model(const matrix::Matrix& matrix, std::string_view text)
{
    std::string_view bare = without_brand(text);
    auto reads_as = [&](std::string_view name) { return equal_ignoring_case(without_brand(name), bare); };
    for (const auto& gpu : matrix.gpus())
        if (reads_as(gpu.name) || std::any_of(gpu.aliases.begin(), gpu.aliases.end(), reads_as))
            return &gpu;
    return nullptr;
}

// "RTX3090", "gtx-1080 ti", "NVIDIA-GeForce-RTX-3090": the name without spaces, hyphens, case
// and brand words, where people's spellings differ most. No two models or families of the
// matrix read alike this way.
std::string compact(std::string_view text)
{
    std::string out;
    for (char c : text)
        if (c != ' ' && c != '-' && c != '_')
            out += ascii_lower(c);
    return std::string(without_leading(out, { "nvidia", "geforce", "tesla" }));
}

// A family, else a model, whose name or an alias reads as `text` once both are compact.
std::optional<GpuTarget> find_compact(const matrix::Matrix& matrix, std::string_view text)
{
    const std::string wanted = compact(text);
    auto reads_as = [&](std::string_view name) { return compact(name) == wanted; };
    for (const auto& gpu : matrix.gpus())
        if (!gpu.family.empty() && reads_as(gpu.family))
            return family(matrix, gpu.family);
    for (const auto& gpu : matrix.gpus())
        if (reads_as(gpu.name) || std::any_of(gpu.aliases.begin(), gpu.aliases.end(), reads_as))
            return model_target(gpu);
    return std::nullopt;
}

// A model or family by its name, an alias, either without the brand words, or compacted.
std::optional<GpuTarget> find_target(const matrix::Matrix& matrix, std::string_view text)
{
    // A name or alias as typed, or as typed without the brand words, before a family; a
    // model's name without its brand words last ("RTX 3080" is the family of the 10GB and
    // 12GB models, though "NVIDIA GeForce RTX 3080" is the 10GB one's name).
    for (std::string_view name : { text, without_brand(text) }) {
        if (const auto* gpu = matrix.find_gpu(name))
            return model_target(*gpu);
        if (auto found = family(matrix, name))
            return found;
    }
    if (const auto* gpu = find_model(matrix, text))
        return model_target(*gpu);
    return find_compact(matrix, text);
}

// "A100 40GB", "RTX 4060 Ti 16 GB": the name before the memory size users add, and the size
// in GB; none where the text ends in no size of at most four digits.
std::optional<std::pair<std::string_view, double>> split_memory(std::string_view text)
{
    if (text.size() < 3 || !equal_ignoring_case(text.substr(text.size() - 2), "GB"))
        return std::nullopt;
    std::string_view rest = text.substr(0, text.size() - 2);
    if (!rest.empty() && rest.back() == ' ')
        rest.remove_suffix(1);
    std::size_t digits = rest.size();
    while (digits > 0 && rest[digits - 1] >= '0' && rest[digits - 1] <= '9')
        --digits;
    const std::size_t size_digits = rest.size() - digits;
    if (size_digits == 0 || size_digits > 4 || digits == 0 || (rest[digits - 1] != ' ' && rest[digits - 1] != '-'))
        return std::nullopt;
    unsigned gb = 0;
    for (char c : rest.substr(digits))
        gb = gb * 10 + static_cast<unsigned>(c - '0');
    return std::pair { rest.substr(0, digits - 1), static_cast<double>(gb) };
}

// A model or family named with its memory size: the family's variants of that size, or the
// model where its memory is that size or not on record. A model sold with another size
// (the RTX 2060 12GB beside the 6GB one) stands for what the two share, its compute
// capability and segment, and not for its memory.
std::optional<GpuTarget> find_with_memory(const matrix::Matrix& matrix, std::string_view text)
{
    auto split = split_memory(text);
    auto target = split ? find_target(matrix, split->first) : std::nullopt;
    if (!target || (!target->model && target->variants.empty()))
        return std::nullopt;
    const double gb = split->second;
    if (target->model)
        return !target->model->memory_gb || *target->model->memory_gb == gb
            ? *target
            : GpuTarget { std::string(text), target->compute_capability, nullptr, {}, target->segment };
    std::vector<const matrix::Gpu*> sized;
    std::vector<std::string> names;
    for (const auto* variant : target->variants) {
        names.push_back(variant->name);
        if (variant->memory_gb == gb)
            sized.push_back(variant);
    }
    if (sized.empty())
        throw Error(ErrorCode::invalid_input,
            "no " + target->label + " is sold with " + std::string(text.substr(split->first.size() + 1)),
            "name one of its variants: " + join_alternatives(names));
    if (sized.size() == 1)
        return model_target(*sized.front());
    return GpuTarget { std::string(text), target->compute_capability, nullptr, sized, target->segment };
}

// The words of `text`, lowercased: "Radeon RX 7900 XTX" -> radeon, rx, 7900, xtx.
std::vector<std::string> words_of(std::string_view text)
{
    std::vector<std::string> words(1);
    for (char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            words.back() += ascii_lower(c);
        else if (!words.back().empty())
            words.emplace_back();
    }
    if (words.back().empty())
        words.pop_back();
    return words;
}

} // namespace

std::optional<OtherVendor> other_vendor(std::string_view text)
{
    const auto words = words_of(text);
    auto has = [&](std::initializer_list<std::string_view> names) {
        return std::any_of(words.begin(), words.end(),
            [&](const std::string& word) { return std::find(names.begin(), names.end(), word) != names.end(); });
    };
    // MI300X, and a Radeon written without its space (RX6800)
    auto numbered = [&](std::string_view prefix, std::size_t min_size) {
        return std::any_of(words.begin(), words.end(), [&](const std::string& word) {
            return word.size() >= min_size && word.starts_with(prefix)
                && std::isdigit(static_cast<unsigned char>(word[prefix.size()]));
        });
    };
    if (numbered("mi", 4) || numbered("rx", 3) || has({ "amd", "radeon", "instinct", "rx" }))
        return OtherVendor { "AMD", "ROCm builds (such as torch's +rocm wheels)" };
    if (has({ "intel", "arc", "iris" }))
        return OtherVendor { "Intel", "XPU builds (such as torch's +xpu wheels)" };
    if (has({ "apple" }))
        return OtherVendor { "Apple", "Metal backends (torch's MPS, tensorflow-metal, jax-metal)" };
    return std::nullopt;
}

std::string GpuTarget::with_sm() const
{
    std::string sm = compute_capability.sm_name();
    return label == sm ? sm : label + " (" + sm + ")";
}

bool cubin_runs_on(const std::vector<ComputeCapability>& cubins, const ComputeCapability& device)
{
    return std::any_of(cubins.begin(), cubins.end(),
        [&](const ComputeCapability& cc) { return cc.major() == device.major() && cc.minor() <= device.minor(); });
}

GpuTarget resolve_gpu(const matrix::Matrix& matrix, std::string_view text)
{
    if (auto found = find_target(matrix, text))
        return *found;
    if (auto sized = find_with_memory(matrix, text))
        return *sized;
    if (auto cc = ComputeCapability::try_parse(text)) {
        const matrix::Architecture* arch = matrix.architecture(*cc);
        if (!arch) {
            std::vector<std::string> known;
            for (const auto& other : matrix.architectures())
                known.push_back(other.compute_capability.text());
            throw Error(ErrorCode::invalid_input, "unknown compute capability " + cc->text(),
                "known: " + join_alternatives(known, " and "));
        }
        return { cc->sm_name(), *cc, nullptr, {}, only_segment(*arch) };
    }
    if (auto vendor = other_vendor(text))
        throw Error(ErrorCode::invalid_input,
            "'" + std::string(text) + "' is an " + std::string(vendor->name) + " GPU, not an NVIDIA one",
            "CUDA builds run on NVIDIA GPUs only: " + std::string(vendor->name) + " GPUs run "
                + std::string(vendor->builds) + ", which dlenv does not judge");
    auto near = closest_matches(without_brand(text), matrix.gpu_names(), 3);
    throw Error(ErrorCode::invalid_input, "unknown GPU '" + std::string(text) + "'",
        near.empty() ? "name a model (e.g. \"RTX 4090\", \"A100 80GB SXM4\") or a compute capability (sm_89)"
                     : "did you mean " + join_alternatives(near) + "?");
}

bool sold_with_grace(const GpuTarget& gpu)
{
    if (gpu.model)
        return gpu.model->host_aarch64;
    return !gpu.variants.empty()
        && std::all_of(gpu.variants.begin(), gpu.variants.end(), [](const matrix::Gpu* v) { return v->host_aarch64; });
}

} // namespace dlenv::resolve
