#include "verify/engine.h"

#include "core/error.h"
#include "core/subprocess.h"
#include "oci/docker_archive.h"

namespace dlenv::verify {
namespace {

// Runs an engine command with its standard error in the output, so that a refusal can
// be shown to the user; nullopt when the engine cannot be started.
std::optional<ProcessResult> run_engine(const Runtime& engine, std::vector<std::string> args)
{
    args.insert(args.begin(), { "/bin/sh", "-c", "exec \"$@\" 2>&1", "sh", engine.program });
    return run_process(args);
}

std::string user_of(const ContainerSpec& spec)
{
    return std::to_string(spec.uid) + ":" + std::to_string(spec.gid);
}

} // namespace

EngineImage::EngineImage(const Runtime& engine, const oci::ImageLayout& layout, const oci::Descriptor& manifest,
    const std::string& config_digest, const std::filesystem::path& work_dir)
    : m_engine(engine)
    , m_id(config_digest)
{
    auto present = run_engine(engine, { "image", "inspect", m_id });
    if (!present)
        throw Error(ErrorCode::environment, "cannot start " + engine.program,
            "check that it runs: `" + engine.program + " version`");
    std::filesystem::path archive = work_dir / "image.tar";
    oci::export_docker_archive(layout, manifest, {}, 0, archive);
    auto loaded = run_engine(engine, { "load", "--input", archive.string() });
    std::filesystem::remove(archive);
    if (!loaded || loaded->exit_code != 0) {
        std::string why = loaded ? loaded->out.substr(0, loaded->out.find_last_not_of("\n") + 1) : "it did not start";
        throw Error(ErrorCode::environment, engine.name + " could not load the image: " + why,
            "check that `" + engine.name + " info` works (the daemon runs, and this user may use it)");
    }
    m_remove = present->exit_code != 0;
}

EngineImage::~EngineImage()
{
    if (m_remove)
        run_engine(m_engine, { "rmi", "--force", m_id });
}

std::vector<std::string> engine_run_arguments(
    const Runtime& engine, const ContainerSpec& spec, const std::string& image, const std::string& container)
{
    std::vector<std::string> argv = { engine.program, "run", "--rm", "--name", container, "--network", "none", "--user",
        user_of(spec), "--workdir", spec.cwd };
    if (spec.readonly_rootfs)
        argv.push_back("--read-only");
    for (const auto& variable : spec.env)
        argv.insert(argv.end(), { "--env", variable });
    if (spec.devices.empty())
        for (const auto& bind : spec.binds)
            argv.insert(
                argv.end(), { "--volume", bind.source + ":" + bind.destination + (bind.read_only ? ":ro" : "") });
    else if (engine.name == "docker")
        argv.insert(argv.end(), { "--gpus", "all" });
    else
        argv.insert(argv.end(), { "--device", "nvidia.com/gpu=all" });
    if (!spec.args.empty())
        argv.insert(argv.end(), { "--entrypoint", spec.args.front() });
    argv.push_back(image);
    if (!spec.args.empty())
        argv.insert(argv.end(), spec.args.begin() + 1, spec.args.end());
    return argv;
}

} // namespace dlenv::verify
