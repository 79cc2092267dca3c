#include "store/blob_check.h"

#include "core/error.h"
#include "store/reachability.h"

namespace dlenv::store {

std::vector<std::string> damaged_blobs(const oci::ImageLayout& layout, const oci::Descriptor& root, BlobTally& tally)
{
    std::vector<std::string> damaged;
    try {
        walk_image(layout, root, [&](const oci::Descriptor& blob, const std::string& referrer) {
            if (!tally.seen.insert(blob.digest.hex()).second)
                return false;
            try {
                layout.verify_blob(blob);
            } catch (const Error& e) {
                damaged.push_back(referrer + " -> " + blob.digest.text() + ": " + e.message());
                return false;
            }
            ++tally.blobs;
            tally.bytes += blob.size;
            return true;
        });
    } catch (const Error& e) {
        damaged.push_back(e.message());
    }
    return damaged;
}

} // namespace dlenv::store
