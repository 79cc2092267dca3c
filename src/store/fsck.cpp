#include "store/fsck.h"

#include "core/error.h"
#include "oci/media_types.h"
#include "store/reachability.h"

#include <set>

namespace dlenv::store {
namespace {

std::vector<std::pair<std::string, oci::Descriptor>> named_roots(const Store& store)
{
    std::vector<std::pair<std::string, oci::Descriptor>> out;
    for (const auto& [name, record] : store.records().images)
        for (const auto& [tag, descriptor] : record.tags)
            out.emplace_back(ref_name(name, tag), descriptor);
    for (const auto& descriptor : store.layout().read_index().manifests) {
        auto ref = descriptor.annotations.find(oci::k_ref_name_annotation);
        out.emplace_back(ref == descriptor.annotations.end() ? "index.json " + descriptor.digest.short_text()
                                                             : "index.json " + ref->second,
                         descriptor);
    }
    return out;
}

void note_leftovers(const Store& store, FsckReport& report)
{
    if (!store.index_matches_records())
        report.notes.push_back("index.json lags the records (a write was interrupted); the next build, rollback "
                               "or gc rewrites it");
    std::size_t temporary = 0;
    for (const auto& entry : std::filesystem::directory_iterator(store.layout().blob_dir()))
        if (entry.path().filename().string().starts_with("."))
            ++temporary;
    if (temporary)
        report.notes.push_back(std::to_string(temporary) +
                               " temporary blob file(s) from interrupted writes; `dlenv gc` removes them");
}

} // namespace

FsckReport check_store(const Store& store)
{
    FsckReport report;
    std::set<std::string> checked;
    for (const auto& [name, root] : named_roots(store)) {
        try {
            walk_image(store.layout(), root, [&](const oci::Descriptor& blob, const std::string& referrer) {
                if (!checked.insert(blob.digest.hex()).second)
                    return false;
                try {
                    store.layout().verify_blob(blob);
                } catch (const Error& e) {
                    report.problems.push_back(name + ": " + referrer + " -> " + blob.digest.text() + ": " + e.message());
                    return false;
                }
                ++report.checked_blobs;
                report.checked_bytes += blob.size;
                return true;
            });
        } catch (const Error& e) {
            report.problems.push_back(name + ": " + e.message());
        }
    }
    note_leftovers(store, report);
    return report;
}

} // namespace dlenv::store
