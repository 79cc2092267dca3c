#include "cli/commands.h"

#include "cli/output.h"
#include "cli/store_output.h"
#include "core/file.h"
#include "core/json_reader.h"
#include "resolve/acceptance.h"
#include "store/records.h"
#include "verify/verifier.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

namespace dlenv::cli {
namespace {

struct VerifyArgs {
    std::string image; // NAME[:TAG]
    std::vector<std::string> tiers;
    std::string runtime;
    std::string platform;
    int timeout_seconds = 60;
    std::string data_dir;
    std::string acceptance_file; // the acceptance tier's settings, JSON
    std::uint32_t batch_size = 0; // 0: the settings'
};

// --tier all, --tier static,gpu and repeated --tier, as one list.
std::vector<std::string> expand_tiers(const std::vector<std::string>& given)
{
    std::vector<std::string> out;
    for (const auto& item : given)
        for (std::size_t begin = 0, comma = 0; comma != std::string::npos; begin = comma + 1) {
            comma = item.find(',', begin);
            std::string tier = item.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
            if (tier == "all")
                out.insert(out.end(), { "static", "gpu", "framework" });
            else if (!tier.empty())
                out.push_back(tier);
        }
    return out;
}

// Large figures to a tenth (2900.5 GB/s), small ones to three digits (0.0438 s, 0.866).
std::string number_text(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, std::abs(value) >= 100 ? "%.1f" : "%.3g", value);
    return text;
}

std::string figure_text(const verify::Figure& figure)
{
    std::string out = figure.name + " " + number_text(figure.value) + " " + figure.unit;
    if (figure.threshold)
        out += " (limit " + number_text(*figure.threshold) + ")";
    return out;
}

// Whether `tier` has a report: the acceptance tier's CPU run has one and is still unavailable.
bool ran(const verify::Report& report, const std::string& tier)
{
    for (const auto& each : report.tiers)
        if (each.tier == tier)
            return true;
    return false;
}

void print_human(const verify::Report& report, const std::string& subject)
{
    std::cout << "verify " << subject << " " << report.digest << " with " << report.runtime << "\n"
              << "  host: kernel " << report.host.kernel << ", "
              << (report.host.driver ? "NVIDIA driver " + report.host.driver->text() + ", "
                             + std::to_string(report.host.gpus.size()) + " GPU(s)"
                                     : std::string("no NVIDIA driver"))
              << "\n";
    for (const auto& tier : report.tiers) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.2f", tier.seconds);
        std::cout << tier.tier << ": " << (tier.passed() ? "passed" : "FAILED") << " (" << tier.count(Verdict::ok)
                  << " pass, " << tier.count(Verdict::fail) << " fail, " << tier.count(Verdict::unknown) << " skip) in "
                  << seconds << " s\n";
        for (const auto& finding : tier.findings)
            std::cout << "  " << verify::outcome_name(finding.verdict) << "  " << finding.code << ": "
                      << finding.message << "\n";
        for (const auto& figure : tier.figures)
            std::cout << "  figure  " << figure_text(figure) << "\n";
    }
    for (const auto& [tier, why] : report.unavailable)
        std::cout << tier << (ran(report, tier) ? ": incomplete: " : ": not run: ") << why << "\n";
}

int run_verify(const VerifyArgs& args, const Options& options)
{
    verify::VerifyRequest request;
    request.store_dir = store_dir(options);
    store::ImageTag image = store::ImageTag::parse(args.image);
    request.name = image.name;
    request.tag = image.tag;
    request.tiers = expand_tiers(args.tiers);
    request.runtime = args.runtime;
    request.platform = args.platform;
    request.timeout_seconds = args.timeout_seconds;
    if (!args.data_dir.empty())
        request.acceptance.data_dir = args.data_dir;
    if (!args.acceptance_file.empty()) {
        nlohmann::json json = JsonReader::parse_document(args.acceptance_file, read_file(args.acceptance_file));
        request.acceptance.settings = resolve::read_acceptance(JsonReader(args.acceptance_file, json));
    }
    if (args.batch_size)
        request.acceptance.batch_size = args.batch_size;
    verify::Report report = verify::verify_image(request);
    if (options.json)
        print_json(report.to_json());
    else
        print_human(report, request.name + ":" + request.tag);
    if (!report.passed())
        return 1;
    if (!report.unavailable.empty()) {
        if (!options.json)
            std::cerr << "dlenv: the " << report.unavailable.front().first << " tier "
                      << (ran(report, report.unavailable.front().first) ? "is incomplete" : "was not run") << ": "
                      << report.unavailable.front().second << "\n";
        return 3;
    }
    return 0;
}

} // namespace

void register_verify(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<VerifyArgs>();
    auto* cmd = app.add_subcommand("verify",
        "Check an image in a container: static (no GPU), gpu, framework, acceptance (a training job); record the "
        "result for promote");
    cmd->add_option("image", args->image, "The image, NAME or NAME:TAG (default tag: latest)")
        ->required()
        ->type_name("NAME[:TAG]");
    cmd->add_option("--tier", args->tiers,
           "static, gpu, framework or all (these three), or acceptance; repeat or separate with commas "
           "(default: the tiers the image's lock asks for)")
        ->type_name("TIER");
    cmd->add_option("--runtime", args->runtime,
           "runc, crun or bwrap (default: the first of them on PATH), or the engine docker or podman "
           "(the image is loaded into it for the run and removed afterwards)")
        ->type_name("NAME");
    cmd->add_option("--platform", args->platform,
           "Of an image built for several platforms, the one to verify (default: this machine's); the static "
           "tier reads another machine's image without running it")
        ->type_name("OS/ARCH");
    cmd->add_option("--timeout", args->timeout_seconds, "Seconds each run in the container may take")
        ->type_name("SECONDS")
        ->check(CLI::Range(1, 86400));
    cmd->add_option("--data-dir", args->data_dir,
           "acceptance: the JPEG files to train on, in torchvision's ImageFolder layout (DIR/<class>/<image>.JPEG); "
           "an empty DIR gets a synthetic ImageNet-shaped set (default: a synthetic set in a temporary directory)")
        ->type_name("DIR");
    cmd->add_option("--acceptance", args->acceptance_file,
           "acceptance: a JSON object of the job's settings (model, batch_size, image_size, num_workers, "
           "prefetch_factor, steps, warmup, synthetic_images, synthetic_size) and limits (gpu_utilization_min, "
           "data_wait_max_fraction), in place of the lock's validation.acceptance; default: the lock's, else "
           "ResNet-50, batch 128, 224x224, 8 workers, prefetch 2, 0.85 and 0.2")
        ->type_name("FILE");
    cmd->add_option("--batch-size", args->batch_size,
           "acceptance: the batch size (default: --acceptance's, else the lock's, else 128)")
        ->type_name("N")
        ->check(CLI::Range(1, 65536));
    add_store_options(cmd, options);
    cmd->callback([args, &options, &exit_code] { exit_code = run_verify(*args, options); });
}

} // namespace dlenv::cli
