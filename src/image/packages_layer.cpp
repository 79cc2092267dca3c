#include "image/packages_layer.h"

#include "core/error.h"
#include "pypi/installer.h"
#include "store/artifacts.h"

namespace dlenv::image {
namespace {

// Bumped when the same wheels would be installed into different bytes (the installer
// changed what it writes).
constexpr std::string_view k_format = "dlenv.packages-layer/v1";

} // namespace

std::optional<PlannedLayer> packages_layer(
    const lock::Lockfile& lock, const pypi::InstallScheme& scheme, std::int64_t epoch, oci::Compression compression)
{
    const std::optional<std::vector<lock::LockedPackage>>& packages = lock.packages();
    if (!packages || packages->empty())
        return std::nullopt;
    nlohmann::json wheels = nlohmann::json::array();
    for (const auto& package : *packages)
        wheels.push_back(package.sha256);
    nlohmann::json where
        = { { "purelib", scheme.purelib }, { "platlib", scheme.platlib }, { "scripts", scheme.scripts },
              { "data", scheme.data }, { "headers", scheme.headers }, { "interpreter", scheme.interpreter } };
    std::string key = layer_cache_key(
        { { "packages", k_format }, { "scheme", where }, { "python", scheme.python.text() }, { "wheels", wheels } },
        epoch, compression);
    return PlannedLayer { "packages layer",
        "dlenv build: " + std::to_string(packages->size()) + " Python packages into /" + scheme.purelib, key,
        [packages = std::move(*packages), scheme](const store::Store& store, const std::filesystem::path& staging) {
            return install_packages(packages, scheme, store, staging);
        },
        true };
}

std::vector<oci::LayerEntry> install_packages(const std::vector<lock::LockedPackage>& packages,
    const pypi::InstallScheme& scheme, const store::Store& store, const std::filesystem::path& staging)
{
    // The installer reads a wheel's name and tags from its file name, and artifacts are
    // named by their sha256: each is linked under its wheel name beside the tree.
    std::filesystem::path wheels = staging / "wheels";
    std::filesystem::path root = staging / "root";
    std::filesystem::create_directories(wheels);
    std::filesystem::create_directories(root);
    for (const auto& package : packages) {
        std::optional<std::filesystem::path> artifact = store::find_artifact(store, package.sha256);
        if (!artifact)
            throw Error(ErrorCode::not_found,
                "install " + package.filename + ": the store has no artifact sha256:" + package.sha256,
                "run `dlenv fetch` with the lock, then build again");
        std::filesystem::path wheel = wheels / package.filename;
        // Absolute: a relative store path would otherwise resolve against wheels/.
        std::filesystem::create_symlink(std::filesystem::absolute(*artifact), wheel);
        try {
            pypi::install_wheel(wheel, scheme, root);
        } catch (const Error& e) {
            throw e.with_context("install " + package.filename);
        }
    }
    std::vector<oci::LayerEntry> entries = oci::entries_of_directory(root);
    for (auto& entry : entries)
        if (entry.type == oci::LayerEntry::Type::directory)
            entry.mode = 0755;
    return entries;
}

} // namespace dlenv::image
