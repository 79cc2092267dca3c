#include "workflow/pull_into_store.h"

#include "store/checked_layers.h"
#include "store/store.h"
#include "store/tags.h"

namespace dlenv::workflow {

std::string store_tag(const ImageReference& reference)
{
    return reference.tag.empty() ? "sha256-" + reference.digest->hex() : reference.tag;
}

PulledImage pull_into_store(const PullRequest& request)
{
    const ImageReference& reference = request.reference;
    registry::PullOptions options;
    options.platform = request.platform;
    options.progress = request.progress;
    std::unique_ptr<registry::Session> session = registry::open_session(reference, request.insecure);

    store::Store store = store::Store::open_for_writing(request.store_dir);
    registry::PullResult pull = registry::pull_image(*session, reference, store.layout(), options);
    oci::Descriptor manifest = pull.image.manifest.descriptor();
    store::check_layers_once(store, manifest);
    RegistryDocuments documents = fetch_documents(
        *session, reference.repository, manifest, oci::Manifest::parse(pull.image.manifest.bytes, reference.text()));
    std::string name = reference.familiar_name();
    std::string tag = store_tag(reference);
    store::Records records = store.records();
    store::HistoryEntry entry = store::record_pull(records, name, tag, manifest, request.clock());
    store.commit(std::move(records));
    keep_documents(store, manifest.digest, documents);
    return { std::move(name), std::move(tag), std::move(pull), std::move(entry), std::move(documents) };
}

} // namespace dlenv::workflow
