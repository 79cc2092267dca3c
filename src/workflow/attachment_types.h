#pragma once

#include <string_view>

// What dlenv keeps beside an image and sends with it as OCI 1.1 artifacts: the kinds of
// store/attachments.h, and the artifactType (also the media type of the artifact's one
// layer) each goes out as.
namespace dlenv::workflow {

constexpr std::string_view k_lock_kind = "lock";
constexpr std::string_view k_lock_media_type = "application/vnd.dlenv.lock.v1+json";
constexpr std::string_view k_sbom_kind = "sbom";
constexpr std::string_view k_sbom_media_type = "application/spdx+json";
// One verification tier's report, as the store's record holds it (store/verifications.h).
constexpr std::string_view k_report_media_type = "application/vnd.dlenv.verification.v1+json";

} // namespace dlenv::workflow
