#include "workflow/build_into_store.h"

#include "core/error.h"
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

// What each image carries, kept by its digest so that push can send it as it was built:
// the image's, or each platform's of a multi-platform build (the index carries none).
void attach_documents(const store::Store& store, const image::BuildResult& result, const std::string& tool_version)
{
    const std::vector<oci::Descriptor> images
        = result.platforms.empty() ? std::vector<oci::Descriptor> { result.manifest } : result.platforms;
    for (const oci::Descriptor& image : images) {
        sbom::Subject subject = sbom_subject(store, result.name, image, result.name + "@" + image.digest.text());
        store::attach(store, image.digest, std::string(k_lock_kind), std::string(k_lock_media_type),
            subject.lock.text(), "build");
        store::attach(store, image.digest, std::string(k_sbom_kind), std::string(k_sbom_media_type),
            sbom::spdx_document(subject, tool_version).dump(2) + "\n", "build");
    }
}

} // namespace

image::BuildResult build_into_store(
    const image::BuildRequest& build, const BuildIntoStoreRequest& request, const matrix::Matrix& matrix)
{
    auto progress = [&request](const std::string& step) {
        if (request.progress)
            request.progress(step);
    };
    if (!build.lock.other_platforms().empty() && (!request.archive.empty() || !request.dockerfile.empty()))
        throw Error(ErrorCode::invalid_input,
            "--archive and --dockerfile write one platform's image, and the lock pins "
                + std::to_string(build.lock.platforms().size()),
            "build without them, then `dlenv push` the index; or lock a profile of one platform");
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
