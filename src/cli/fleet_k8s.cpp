#include "cli/fleet.h"

#include "core/output_file.h"
#include "fleet/indexed_job.h"

#include <memory>

namespace dlenv::cli {
namespace {

struct K8sArgs {
    FleetArgs fleet;
    std::string dlenv_image;
    std::string gpu_product;
    unsigned retries = 2;
    std::string output = "-";
};

int run_k8s(const K8sArgs& args, const Options& options)
{
    fleet::check_plain("--dlenv-image", args.dlenv_image);
    fleet::KubernetesSettings settings { ImageReference::parse(args.dlenv_image), args.gpu_product, args.retries };
    nlohmann::json job = fleet::indexed_job(fleet_job(args.fleet, options), settings);
    write_output_file(args.output, job.dump(2) + "\n");
    return 0;
}

} // namespace

void register_fleet_k8s(CLI::App& fleet, Options& options, int& exit_code)
{
    auto args = std::make_shared<K8sArgs>();
    auto* cmd = fleet.add_subcommand("k8s",
        "Write a Kubernetes Indexed Job (JSON) that verifies the image on N distinct GPU nodes: a failed "
        "verification fails its index, one that could not run is retried");
    add_fleet_options(cmd, args->fleet, options);
    cmd->add_option("--dlenv-image", args->dlenv_image,
           "The image each pod runs: one holding dlenv and a container runtime (pin it by digest)")
        ->required()
        ->type_name("REF");
    cmd->add_option("--gpu-product", args->gpu_product,
           "Only nodes whose nvidia.com/gpu.product label (GPU Feature Discovery's) is PRODUCT, "
           "e.g. NVIDIA-H100-80GB-HBM3 (default: any GPU node)")
        ->type_name("PRODUCT");
    cmd->add_option("--retries", args->retries,
           "How often a node that could not run (exit 3) is tried again: backoffLimitPerIndex (default 2)")
        ->type_name("N")
        ->check(CLI::Range(0, 100));
    cmd->add_option("-o,--output", args->output, "Write the Job to FILE instead of standard output")->type_name("FILE");
    cmd->callback([args, &options, &exit_code] { exit_code = run_k8s(*args, options); });
}

} // namespace dlenv::cli
