#include "workflow/build_into_store.h"

#include "core/error.h"
#include "image/dockerfile.h"
#include "oci/docker_archive.h"
#include "store/store.h"

namespace dlenv::workflow {

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
