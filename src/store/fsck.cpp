#include "store/fsck.h"

#include "core/closest.h"
#include "core/error.h"
#include "core/sha256.h"
#include "oci/media_types.h"
#include "store/artifacts.h"
#include "store/blob_check.h"
#include "store/leftovers.h"

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

void check_artifacts(const Store& store, FsckReport& report)
{
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator(artifact_dir(store), ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
        std::string name = it->path().filename().string();
        if (name.starts_with("."))
            continue;
        std::string actual;
        try {
            actual = sha256_file_hex(it->path());
        } catch (const Error& e) {
            report.problems.push_back("artifact " + name + ": " + e.message());
            continue;
        }
        if (actual != name) {
            report.problems.push_back(
                "artifact " + name + " has sha256 " + actual + ": remove it, and `dlenv fetch` downloads it again");
            continue;
        }
        ++report.checked_artifacts;
        report.checked_bytes += static_cast<std::int64_t>(it->file_size());
    }
}

// The tags taken back from index.json are in the records read, but not yet in refs.json.
void report_recovery(const Store& store, FsckReport& report)
{
    const Recovery& recovery = store.recovery();
    if (recovery.refs.empty())
        return;
    report.problems.push_back(std::string(recovery.records_missing ? "dlenv/refs.json is missing (its history is lost)"
                                                                   : "dlenv/refs.json lacks tags index.json lists")
        + ": took " + join_alternatives(recovery.refs, ", ")
        + " back from index.json; the next build, promote, rollback or gc records them");
}

void note_leftovers(const Store& store, FsckReport& report)
{
    if (!store.index_matches_records())
        report.notes.push_back("index.json lags the records (a write was interrupted); the next build, rollback "
                               "or gc rewrites it");
    Leftovers leftovers = find_leftovers(store);
    if (!leftovers.empty())
        report.notes.push_back(std::to_string(leftovers.temporary_files.size()) + " temporary file(s) and "
            + std::to_string(leftovers.staging_dirs.size())
            + " staging directory(ies) from interrupted writes; the next build, promote, rollback or gc removes "
              "them");
}

} // namespace

FsckReport check_store(const Store& store)
{
    FsckReport report;
    report_recovery(store, report);
    BlobTally tally;
    for (const auto& [name, root] : named_roots(store))
        for (const auto& damage : damaged_blobs(store.layout(), root, tally))
            report.problems.push_back(name + ": " + damage);
    report.checked_blobs = tally.blobs;
    report.checked_bytes = tally.bytes;
    check_artifacts(store, report);
    note_leftovers(store, report);
    return report;
}

} // namespace dlenv::store
