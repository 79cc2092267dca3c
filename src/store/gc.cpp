#include "store/gc.h"

#include "core/error.h"
#include "core/file.h"
#include "store/checked_layers.h"
#include "store/layer_cache.h"
#include "store/leftovers.h"
#include "store/reachability.h"

#include <set>

namespace dlenv::store {
namespace {

std::vector<oci::Descriptor> roots(const Store& store, std::size_t keep_history)
{
    std::vector<oci::Descriptor> out = store.layout().read_index().manifests;
    for (const auto& [name, record] : store.records().images) {
        for (const auto& [tag, descriptor] : record.tags)
            out.push_back(descriptor);
        std::size_t first = record.history.size() > keep_history ? record.history.size() - keep_history : 0;
        for (std::size_t i = first; i < record.history.size(); ++i)
            out.push_back(record.history[i].image);
    }
    return out;
}

} // namespace

GcReport collect_garbage(const Store& store, std::size_t keep_history)
{
    const oci::ImageLayout& layout = store.layout();
    std::set<std::string> reachable;
    for (const auto& root : roots(store, keep_history))
        walk_image(layout, root, [&](const oci::Descriptor& blob, const std::string&) {
            if (!layout.has_blob(blob.digest))
                return false;
            return reachable.insert(blob.digest.hex()).second;
        });

    GcReport report;
    // A layout whose blobs/sha256 is gone has nothing to collect; fsck names what it lost.
    bool has_blobs = std::filesystem::is_directory(layout.blob_dir());
    for (const auto& entry :
        has_blobs ? std::filesystem::directory_iterator(layout.blob_dir()) : std::filesystem::directory_iterator()) {
        if (reachable.count(entry.path().filename().string())) {
            ++report.kept_blobs;
            continue;
        }
        std::error_code ec;
        std::uintmax_t size = entry.file_size(ec);
        if (!std::filesystem::remove(entry.path(), ec) || ec)
            throw Error(ErrorCode::io, "remove " + entry.path().string() + ": " + ec.message());
        report.removed_bytes += static_cast<std::int64_t>(size);
        ++report.removed_blobs;
    }
    if (has_blobs)
        fsync_directory(layout.blob_dir());
    report.forgotten_layers = forget_missing_layers(store);
    forget_missing_checks(store);
    remove_leftovers(store);
    return report;
}

} // namespace dlenv::store
