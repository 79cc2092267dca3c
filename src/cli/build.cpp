#include "cli/commands.h"

#include "cli/artifacts_output.h"
#include "cli/dockerfile_wheels_option.h"
#include "cli/lockfile_argument.h"
#include "cli/matrix_option.h"
#include "cli/output.h"
#include "cli/registry_options.h"
#include "cli/store_output.h"
#include "image/builder.h"
#include "image/docker_wheels.h"
#include "oci/compression.h"
#include "registry/platform.h"
#include "resolve/report.h"
#include "workflow/build_into_store.h"

#include <iostream>
#include <memory>

namespace dlenv::cli {
namespace {

struct BuildArgs {
    std::string lockfile;
    std::string name;
    std::string base;
    std::string compression = "gzip";
    std::string dockerfile;
    std::string dockerfile_wheels = "context";
    std::string archive;
    RegistryArgs registry;
};

std::vector<std::string> python_notes(const image::BuildResult& result)
{
    return result.packages ? result.packages->notes : std::vector<std::string> {};
}

nlohmann::json result_json(const image::BuildResult& result)
{
    nlohmann::json layers = nlohmann::json::array();
    for (const auto& layer : result.layers)
        layers.push_back({ { "created_by", layer.created_by }, { "digest", layer.descriptor.digest.text() },
            { "media_type", layer.descriptor.media_type }, { "size", layer.descriptor.size },
            { "reused", layer.reused } });
    nlohmann::json base = nlohmann::json::array();
    for (const auto& finding : result.base_fit)
        base.push_back({ { "severity", resolve::severity_name(finding.verdict) }, { "code", finding.code },
            { "message", finding.message } });
    nlohmann::json json = { { "name", result.name }, { "digest", result.manifest.digest.text() },
        { "lock_digest", result.lock_digest }, { "layers", layers }, { "base", base },
        { "python", python_notes(result) }, { "system_packages", result.system_packages },
        { "fetched", artifacts_json(result.fetched) }, { "moved", moves_json(result.history) } };
    if (!result.platforms.empty()) {
        json["platforms"] = nlohmann::json::array();
        for (const auto& manifest : result.platforms)
            json["platforms"].push_back(
                { { "platform", registry::platform_text(*manifest.platform) }, { "digest", manifest.digest.text() } });
    }
    return json;
}

void print_result(const image::BuildResult& result, std::ostream& out)
{
    std::size_t reused = 0;
    for (const auto& layer : result.layers)
        reused += layer.reused ? 1 : 0;
    out << "built " << result.name << ":latest " << result.manifest.digest.text() << "\n"
        << "  layers: " << result.layers.size() << " from the lock (" << reused << " reused)\n";
    for (const auto& manifest : result.platforms)
        out << "  platform " << registry::platform_text(*manifest.platform) << ": " << manifest.digest.text() << "\n";
    for (const auto& finding : result.base_fit)
        out << "  base: " << (finding.verdict == Verdict::warn ? "warning: " : "") << finding.message << "\n";
    for (const auto& note : python_notes(result))
        out << "  base: " << note << "\n";
    for (const auto& note : result.system_packages)
        out << "  system packages: " << note << "\n";
    if (!result.fetched.empty())
        out << "  artifacts: " << describe_artifacts(result.fetched) << "\n";
    out << "  tags: " << describe_moves(result.history) << "\n";
}

int run_build(const BuildArgs& args, const Options& options)
{
    if (args.archive == "-" && args.dockerfile == "-")
        throw Error(ErrorCode::invalid_input, "--archive - and --dockerfile - both name standard output",
            "send one of them to a file");
    workflow::BuildIntoStoreRequest request;
    request.store_dir = store_dir(options);
    request.tool_version = DLENV_VERSION;
    std::string lockfile = lockfile_argument(args.lockfile, "build");
    image::BuildRequest build = image::prepare_build(
        lockfile, args.name, args.base, oci::parse_compression(args.compression), request.store_dir);
    build.insecure_registry = args.registry.insecure;
    request.archive = args.archive;
    request.dockerfile = args.dockerfile;
    request.dockerfile_wheels = image::parse_docker_wheels(args.dockerfile_wheels);
    if (shows_progress(options))
        request.progress = [](const std::string& step) { std::cerr << "  " << step << "\n"; };
    image::BuildResult result = workflow::build_into_store(build, request, load_matrix(options));
    std::ostream& out = report_stream({ args.archive, args.dockerfile });
    if (options.json)
        print_json(result_json(result), out);
    else
        print_result(result, out);
    return 0;
}

} // namespace

void register_build(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<BuildArgs>();
    auto* cmd = app.add_subcommand("build", "Build the image a lockfile describes into the store");
    cmd->add_option("lockfile", args->lockfile, "The lockfile (default: the only *.lock.json in . or lockfiles/)");
    cmd->add_option("--name", args->name, "Image name in the store (default: the lock's profile name)");
    cmd->add_option("--base", args->base,
        "Base image instead of the lock's: oci:DIR[:REF], docker-archive:FILE[:TAG], scratch, or a "
        "NAME[:TAG] in the store");
    cmd->add_option("--compression", args->compression, "Layer compression: gzip (default) or zstd")
        ->check(CLI::IsMember({ "gzip", "zstd" }));
    cmd->add_option("--archive", args->archive,
           "Also write the image as a tarball that `docker load` reads (- for standard output)")
        ->type_name("FILE.tar");
    cmd->add_option("--dockerfile", args->dockerfile,
           "Also write a Dockerfile, with its build context beside it, that builds the same "
           "stack with `docker build` (- for standard output, the context in the working directory)")
        ->type_name("FILE");
    add_dockerfile_wheels_option(cmd, "--dockerfile-wheels", args->dockerfile_wheels);
    add_registry_options(cmd, args->registry);
    add_store_options(cmd, options);
    cmd->callback([args, &options, &exit_code] { exit_code = run_build(*args, options); });
}

} // namespace dlenv::cli
