#pragma once

#include "oci/descriptor.h"
#include "oci/layout.h"
#include "verify/container_spec.h"
#include "verify/runtime.h"

#include <filesystem>
#include <string>
#include <vector>

namespace dlenv::verify {

// An image handed to a container engine (docker or podman) for the length of a verify:
// loaded from a `docker load` archive written from the store, run by its image ID (the
// config digest, which both engines use as the ID), and removed again on destruction
// unless the engine already held it.
class EngineImage {
public:
    // Writes the image `manifest` of `layout` as an archive under `work_dir` and loads it
    // into `engine`. Error(environment) when the engine cannot load it, with its output.
    EngineImage(const Runtime& engine, const oci::ImageLayout& layout, const oci::Descriptor& manifest,
        const std::string& config_digest, const std::filesystem::path& work_dir);
    ~EngineImage();
    EngineImage(const EngineImage&) = delete;
    EngineImage& operator=(const EngineImage&) = delete;

    const std::string& id() const { return m_id; }

private:
    Runtime m_engine;
    std::string m_id; // "sha256:<config hex>"
    bool m_remove = false;
};

// The `run` arguments that start `spec` in `image` under the name `container`: the
// process, environment, working directory and numeric user of the spec, no network, a
// read-only root when the spec asks for one, and the spec's binds. When the spec
// injects GPU device nodes, the engine injects the GPUs its own way instead of those
// nodes and the driver binds that come with them: docker with `--gpus all` (the NVIDIA
// container toolkit), podman with the CDI device `nvidia.com/gpu=all`.
std::vector<std::string> engine_run_arguments(
    const Runtime& engine, const ContainerSpec& spec, const std::string& image, const std::string& container);

} // namespace dlenv::verify
