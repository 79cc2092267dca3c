#include "cli/commands.h"

#include "cli/store_output.h"
#include "core/output_file.h"
#include "sbom/cyclonedx.h"
#include "sbom/spdx.h"
#include "store/records.h"
#include "verify/image_platform.h"
#include "workflow/built_image.h"
#include "workflow/image_sbom.h"

#include <memory>

namespace dlenv::cli {
namespace {

struct SbomArgs {
    std::string image;
    std::string output = "-";
    std::string format = "spdx";
    std::string platform;
};

int run_sbom(const SbomArgs& args, const Options& options)
{
    store::ImageTag image = store::ImageTag::parse(args.image);
    store::Store store = store::Store::open(store_dir(options));
    oci::Descriptor tagged = workflow::find_tag(store, image.name, image.tag);
    oci::Descriptor picked = verify::platform_image(store.layout(), tagged, args.platform);
    sbom::Subject subject = workflow::sbom_subject(store, image.name, picked, image.name + ":" + image.tag);
    nlohmann::json document = args.format == "cyclonedx" ? sbom::cyclonedx_bom(subject, DLENV_VERSION)
                                                         : sbom::spdx_document(subject, DLENV_VERSION);
    write_output_file(args.output, document.dump(2) + "\n");
    return 0;
}

} // namespace

void register_sbom(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<SbomArgs>();
    auto* cmd = app.add_subcommand("sbom",
        "The bill of materials of an image in the store, SPDX 2.3 or CycloneDX 1.5 JSON: its base by digest, what the "
        "base "
        "carries, every pinned package and system package, the layers dlenv added");
    cmd->add_option("image", args->image, "NAME[:TAG] of the store (TAG: latest)")->required();
    cmd->add_option("-o,--output", args->output, "Write to FILE instead of standard output")->type_name("FILE");
    cmd->add_option("--format", args->format, "spdx (SPDX 2.3 JSON, the default) or cyclonedx (CycloneDX 1.5 JSON)")
        ->check(CLI::IsMember({ "spdx", "cyclonedx" }));
    cmd->add_option("--platform", args->platform,
           "Of an image built for several platforms, the one to describe (default: this machine's)")
        ->type_name("OS/ARCH");
    add_store_options(cmd, options);
    cmd->callback([args, &options, &exit_code] { exit_code = run_sbom(*args, options); });
}

} // namespace dlenv::cli
