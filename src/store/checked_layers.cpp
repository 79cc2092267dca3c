#include "store/checked_layers.h"

#include "core/error.h"
#include "core/file.h"
#include "oci/layer_reader.h"
#include "store/staging.h"

namespace dlenv::store {
namespace {

std::filesystem::path checked_dir(const Store& store)
{
    return store.records_dir() / "checked";
}

std::filesystem::path record_of(const Store& store, const Digest& manifest)
{
    return checked_dir(store) / ("sha256-" + manifest.hex());
}

bool still_stored(const Store& store, const std::string& record_name)
{
    if (!record_name.starts_with("sha256-"))
        return false;
    try {
        return store.layout().has_blob(Digest::parse("sha256:" + record_name.substr(7)));
    } catch (const Error&) {
        return false; // not a record this store writes
    }
}

} // namespace

void check_layers_once(const Store& store, const oci::Descriptor& manifest)
{
    std::filesystem::path record = record_of(store, manifest.digest);
    if (std::filesystem::exists(record))
        return;
    const oci::ImageLayout& layout = store.layout();
    oci::Manifest parsed = oci::Manifest::parse(layout.read_blob(manifest), manifest.digest.text());
    StagingDir root(store, "check-");
    for (std::size_t i = 0; i < parsed.layers.size(); ++i) {
        try {
            oci::apply_layer(layout, parsed.layers[i], root.path());
        } catch (const Error& e) {
            throw e.with_context("layer " + std::to_string(i + 1) + " " + parsed.layers[i].digest.short_text());
        }
    }
    write_file_atomic(record, manifest.digest.text() + "\n");
}

std::size_t forget_missing_checks(const Store& store)
{
    std::size_t forgotten = 0;
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator(checked_dir(store), ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
        if (still_stored(store, it->path().filename().string()))
            continue;
        std::error_code removed;
        forgotten += std::filesystem::remove(it->path(), removed);
    }
    return forgotten;
}

} // namespace dlenv::store
