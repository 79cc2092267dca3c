#include "workflow/build_into_store.h"

#include "image/dockerfile.h"
#include "oci/docker_archive.h"
#include "sbom/spdx.h"
#include "store/attachments.h"
#include "store/store.h"
#include "store/tags.h"
#include "workflow/attachment_types.h"
#include "workflow/image_sbom.h"

namespace dlenv::workflow {
namespace {

// What the image carries, kept by its digest so that push can send it as it was built.
void attach_documents(const store::Store& store, const image::BuildResult& result, const std::string& tool_version)
{
    sbom::Subject subject = sbom_subject(store, result.name, std::string(store::k_latest));
    const Digest& image = result.manifest.digest;
    store::attach(store, image, std::string(k_lock_kind), std::string(k_lock_media_type), subject.lock.text(), "build");
    store::attach(store, image, std::string(k_sbom_kind), std::string(k_sbom_media_type),
        sbom::spdx_document(subject, tool_version).dump(2) + "\n", "build");
}

} // namespace

image::BuildResult build_into_store(
    const image::BuildRequest& build, const BuildIntoStoreRequest& request, const matrix::Matrix& matrix)
{
    auto progress = [&request](const std::string& step) {
        if (request.progress)
            request.progress(step);
    };
    store::Store store = store::Store::open_for_writing(request.store_dir);
    image::BuildResult result = image::build_image(build, store, matrix, request.clock(), progress);
    attach_documents(store, result, request.tool_version);
    if (!request.archive.empty()) {
        progress("docker archive " + request.archive.string());
        oci::export_docker_archive(
            store.layout(), result.manifest, { result.name + ":latest" }, build.source_date_epoch, request.archive);
    }
    if (!request.dockerfile.empty())
        image::write_docker_context(
            build.lock, request.dockerfile, matrix, result.packages, request.dockerfile_wheels, &store);
    return result;
}

} // namespace dlenv::workflow
