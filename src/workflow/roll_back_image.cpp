#include "workflow/roll_back_image.h"

#include "core/error.h"
#include "store/store.h"
#include "store/tags.h"

namespace dlenv::workflow {

store::HistoryEntry roll_back_image(const RollbackRequest& request)
{
    const std::string& name = request.name;
    store::Store store = store::Store::open_for_writing(request.store_dir);
    store::Records records = store.records();
    auto present = [&](const Digest& digest) { return store.layout().has_blob(digest); };
    store::HistoryEntry entry = request.production
        ? store::roll_back_production(records, name, request.clock(), present)
        : store::roll_back(records, name, request.clock(), present);
    std::string tag(request.production ? store::k_production : store::k_latest);
    // The tag policy only asks `present` about the image the previous one steps back to;
    // a tag must never point at an image the store cannot give out.
    if (!store.layout().has_blob(entry.image.digest))
        throw Error(ErrorCode::not_found,
            "the image " + entry.image.digest.text() + " that " + name + ":" + tag
                + " would go back to is no longer in the store",
            "`dlenv fsck` says what is damaged; build the image again");
    store.commit(std::move(records));
    return entry;
}

} // namespace dlenv::workflow
