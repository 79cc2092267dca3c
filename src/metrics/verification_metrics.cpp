#include "metrics/verification_metrics.h"

#include "core/error.h"
#include "core/time_text.h"

#include <algorithm>
#include <array>
#include <optional>

namespace dlenv::metrics {
namespace {

// A figure a tier records, and the gauge it becomes. `figure` is the name after gpu<N>_
// for figures of one GPU (`per_gpu`), the whole name otherwise.
struct FigureMetric {
    std::string_view figure;
    bool per_gpu;
    std::string_view metric;
    Labels extra;
};

const std::array k_figures = {
    FigureMetric { "bandwidth_fraction", true, "dlenv_verification_memory_bandwidth_ratio", {} },
    FigureMetric { "gemm_fp16_fraction", true, "dlenv_verification_gemm_ratio", { { "precision", "fp16" } } },
    FigureMetric { "gemm_bf16_fraction", true, "dlenv_verification_gemm_ratio", { { "precision", "bf16" } } },
    FigureMetric { "utilization", true, "dlenv_verification_gpu_utilization_ratio", {} },
    FigureMetric { "data_wait_fraction", false, "dlenv_verification_data_wait_ratio", {} },
    FigureMetric { "images_per_second", false, "dlenv_verification_training_images_per_second", {} },
    FigureMetric { "ddp_scaling_efficiency", false, "dlenv_verification_ddp_scaling_efficiency_ratio", {} },
};

// The gauges of k_figures, in the order they are written.
struct FigureFamily {
    std::string_view metric;
    std::string_view help;
};

constexpr std::array k_figure_families = {
    FigureFamily { "dlenv_verification_memory_bandwidth_ratio",
        "Measured memory bandwidth of the GPU as a fraction of the matrix's spec." },
    FigureFamily { "dlenv_verification_gemm_ratio",
        "Measured GEMM throughput of the GPU as a fraction of the matrix's dense tensor-core peak." },
    FigureFamily { "dlenv_verification_gpu_utilization_ratio",
        "Mean GPU utilisation NVML sampled during the acceptance tier's training steps, as a fraction." },
    FigureFamily { "dlenv_verification_data_wait_ratio",
        "Fraction of each acceptance training step spent waiting for the DataLoader's next batch." },
    FigureFamily { "dlenv_verification_training_images_per_second",
        "Images the acceptance tier's training job processed per second." },
    FigureFamily { "dlenv_verification_ddp_scaling_efficiency_ratio",
        "Images per second of the acceptance tier's DDP run over N GPUs, against N times one GPU's." },
};

struct ThresholdMetric {
    std::string_view key; // of the report's "thresholds", as the lock names it
    std::string_view metric;
    std::string_view help;
};

constexpr std::array k_thresholds = {
    ThresholdMetric { "bandwidth_min_fraction", "dlenv_verification_memory_bandwidth_min_ratio",
        "The fraction of the spec's memory bandwidth the lock requires." },
    ThresholdMetric { "gemm_min_fraction", "dlenv_verification_gemm_min_ratio",
        "The fraction of the spec's dense tensor-core GEMM peak the lock requires." },
};

// The families in the order they are written, each named once.
struct Families {
    Family passed { "dlenv_verification_passed", "1 when the latest run of the tier on the image passed, else 0.", {} };
    Family time { "dlenv_verification_timestamp_seconds", "When the latest run of the tier on the image ran.", {} };
    Family duration { "dlenv_verification_duration_seconds", "How long the latest run of the tier took.", {} };
    Family checks { "dlenv_verification_checks", "The findings of the latest run of the tier, by outcome.", {} };
    Family host { "dlenv_verification_host_info", "The host the latest run of the tier ran on, value 1.", {} };
    std::vector<Family> figures;
    std::vector<Family> thresholds;

    Families()
    {
        for (const auto& f : k_figure_families)
            figures.push_back({ std::string(f.metric), std::string(f.help), {} });
        for (const auto& t : k_thresholds)
            thresholds.push_back({ std::string(t.metric), std::string(t.help), {} });
    }
    Family& figure_family(std::string_view metric)
    {
        return *std::find_if(figures.begin(), figures.end(), [&](const Family& f) { return f.name == metric; });
    }
};

// Reads the fields of one tier's report, naming the record and the field when one is not
// what verify writes.
class ReportFields {
public:
    ReportFields(const nlohmann::json& report, std::string where)
        : m_report(report)
        , m_where(std::move(where))
    {
    }

    const nlohmann::json* at(
        std::string_view path, const nlohmann::json& from, std::string_view key, nlohmann::json::value_t type) const
    {
        if (!from.is_object() || !from.contains(std::string(key)))
            return nullptr;
        const nlohmann::json& value = from.at(std::string(key));
        bool number = type == nlohmann::json::value_t::number_float;
        if (number ? !value.is_number() : value.type() != type)
            throw Error(ErrorCode::invalid_input,
                m_where + ": field " + std::string(path) + " must be " + (number ? "a number" : value_kind(type)),
                "the verification record is damaged; run `dlenv verify` on the image again");
        return &value;
    }
    const nlohmann::json& report() const { return m_report; }

private:
    static std::string value_kind(nlohmann::json::value_t type)
    {
        return type == nlohmann::json::value_t::string ? "a string"
            : type == nlohmann::json::value_t::array   ? "an array"
                                                       : "an object";
    }

    const nlohmann::json& m_report;
    std::string m_where;
};

using Type = nlohmann::json::value_t;

// "gpu3_bandwidth_fraction" -> 3 and "bandwidth_fraction"; nullopt for a figure of no GPU.
std::optional<std::pair<std::size_t, std::string>> split_gpu_figure(const std::string& name)
{
    if (!name.starts_with("gpu"))
        return std::nullopt;
    std::size_t end = 3;
    while (end < name.size() && name[end] >= '0' && name[end] <= '9')
        ++end;
    if (end == 3 || end + 1 >= name.size() || name[end] != '_' || end - 3 > 6)
        return std::nullopt;
    return std::pair { std::stoul(name.substr(3, end - 3)), name.substr(end + 1) };
}

void add_figures(const ReportFields& fields, const Labels& base, Families& out)
{
    const nlohmann::json* host = fields.at("host", fields.report(), "host", Type::object);
    const nlohmann::json* gpus = host ? fields.at("host.gpus", *host, "gpus", Type::array) : nullptr;
    const nlohmann::json* figures = fields.at("figures", fields.report(), "figures", Type::array);
    if (!figures)
        return;
    for (const auto& figure : *figures) {
        const nlohmann::json* name = fields.at("figures[].name", figure, "name", Type::string);
        const nlohmann::json* value = fields.at("figures[].value", figure, "value", Type::number_float);
        if (!name || !value)
            continue;
        auto gpu = split_gpu_figure(name->get<std::string>());
        for (const auto& row : k_figures) {
            if (row.per_gpu != gpu.has_value() || (gpu ? gpu->second : name->get<std::string>()) != row.figure)
                continue;
            Labels labels = base;
            if (gpu) {
                const nlohmann::json* model = gpus && gpu->first < gpus->size() ? &(*gpus)[gpu->first] : nullptr;
                labels.emplace_back("gpu_index", std::to_string(gpu->first));
                labels.emplace_back("gpu", model && model->is_string() ? model->get<std::string>() : "");
            }
            labels.insert(labels.end(), row.extra.begin(), row.extra.end());
            out.figure_family(row.metric).samples.push_back({ std::move(labels), value->get<double>() });
        }
    }
}

void add_host(const ReportFields& fields, const Labels& base, Families& out)
{
    const nlohmann::json* host = fields.at("host", fields.report(), "host", Type::object);
    if (!host)
        return;
    auto text = [&](const nlohmann::json& from, std::string_view key, std::string_view path) {
        const nlohmann::json* value
            = from.is_object() && from.contains(std::string(key)) && from.at(std::string(key)).is_null()
            ? nullptr
            : fields.at(path, from, key, Type::string);
        return value ? value->get<std::string>() : std::string();
    };
    Labels labels = base;
    labels.emplace_back("kernel", text(*host, "kernel", "host.kernel"));
    labels.emplace_back("driver", text(*host, "driver", "host.driver"));
    labels.emplace_back("runtime", text(fields.report(), "runtime", "runtime"));
    out.host.samples.push_back({ std::move(labels), 1 });
}

void add_tier(const Digest& image, const store::TierVerification& tier, Families& out)
{
    Labels base = { { "digest", image.text() }, { "tier", tier.tier } };
    ReportFields fields(tier.report, "verification record of " + image.text() + ", tier " + tier.tier);
    out.passed.samples.push_back({ base, tier.passed ? 1.0 : 0.0 });
    if (auto seconds = parse_rfc3339_utc(tier.time))
        out.time.samples.push_back({ base, double(*seconds) });
    if (const nlohmann::json* seconds = fields.at("seconds", tier.report, "seconds", Type::number_float))
        out.duration.samples.push_back({ base, seconds->get<double>() });
    if (const nlohmann::json* counts = fields.at("counts", tier.report, "counts", Type::object))
        for (std::string_view outcome : { "pass", "fail", "skip", "warn" })
            if (const nlohmann::json* n
                = fields.at("counts." + std::string(outcome), *counts, outcome, Type::number_float)) {
                Labels labels = base;
                labels.emplace_back("outcome", std::string(outcome));
                out.checks.samples.push_back({ std::move(labels), n->get<double>() });
            }
    add_host(fields, base, out);
    add_figures(fields, base, out);
    if (const nlohmann::json* thresholds = fields.at("thresholds", tier.report, "thresholds", Type::object))
        for (std::size_t i = 0; i < k_thresholds.size(); ++i)
            if (const nlohmann::json* value = fields.at("thresholds." + std::string(k_thresholds[i].key), *thresholds,
                    k_thresholds[i].key, Type::number_float))
                out.thresholds[i].samples.push_back({ base, value->get<double>() });
}

} // namespace

std::vector<Family> verification_families(const std::vector<store::Verification>& records)
{
    Families out;
    for (const auto& record : records)
        for (const auto& [name, tier] : record.tiers)
            add_tier(record.image, tier, out);
    std::vector<Family> families = { std::move(out.passed), std::move(out.time), std::move(out.duration),
        std::move(out.checks), std::move(out.host) };
    families.insert(families.end(), out.figures.begin(), out.figures.end());
    families.insert(families.end(), out.thresholds.begin(), out.thresholds.end());
    return families;
}

} // namespace dlenv::metrics
