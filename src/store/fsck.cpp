#include "store/fsck.h"

#include "core/error.h"
#include "core/sha256.h"
#include "oci/media_types.h"
#include "store/artifacts.h"
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

// Temporary files start with "." (AtomicFile's names): leftovers of interrupted writes.
std::size_t temporary_files(const std::filesystem::path& dir)
{
    std::size_t count = 0;
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator(dir, ec); !ec && it != std::filesystem::directory_iterator();
         it.increment(ec))
        if (it->path().filename().string().starts_with("."))
            ++count;
    return count;
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
            report.problems.push_back("artifact " + name + " has sha256 " + actual +
                                      ": remove it, and `dlenv fetch` downloads it again");
            continue;
        }
        ++report.checked_artifacts;
        report.checked_bytes += static_cast<std::int64_t>(it->file_size());
    }
}

void note_leftovers(const Store& store, FsckReport& report)
{
    if (!store.index_matches_records())
        report.notes.push_back("index.json lags the records (a write was interrupted); the next build, rollback "
                               "or gc rewrites it");
    std::size_t temporary = temporary_files(store.layout().blob_dir()) + temporary_files(artifact_dir(store));
    if (temporary)
        report.notes.push_back(std::to_string(temporary) +
                               " temporary file(s) from interrupted writes; `dlenv gc` removes them");
}

} // namespace

FsckReport check_store(const Store& store)
{
    FsckReport report;
    std::set<std::string> checked;
    // Not a structured binding: clang before 16 cannot capture one in the lambda below.
    for (const auto& named_root : named_roots(store)) {
        const auto& name = named_root.first;
        const auto& root = named_root.second;
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
    check_artifacts(store, report);
    note_leftovers(store, report);
    return report;
}

} // namespace dlenv::store
