#pragma once

#include "core/digest.h"
#include "core/image_reference.h"

#include <string>
#include <string_view>
#include <vector>

namespace dlenv::fleet {

// One image verified on many GPU nodes: what every node pulls, runs `dlenv verify` on and
// pushes back, whatever the scheduler that places the nodes.
struct FleetJob {
    std::string name; // the image's name in the store it was built in: "team/base"
    ImageReference registry; // --registry REF: where the nodes pull from and push back to
    Digest digest; // the image's manifest; nodes pull it by this digest only
    std::vector<std::string> tiers; // the tiers every node verifies, "gpu" among them
    unsigned nodes = 1;
    unsigned gpus_per_node = 1;
    bool insecure = false; // plain HTTP or an unverified certificate for the registry
};

// Throws Error(invalid_input) naming `field` unless `value` is a non-empty run of
// [A-Za-z0-9] and ._:/@+=- only: the values a job writes into a shell script or a pod.
void check_plain(std::string_view field, std::string_view value);

// The job as given, each value held to check_plain, nodes at least 1: Error(invalid_input)
// naming the field otherwise.
void check_job(const FleetJob& job);

// REGISTRY/REPOSITORY@sha256:…: what each node pulls.
std::string pinned_reference(const FleetJob& job);
// The name and tag `dlenv pull` gives the pinned reference in a node's store:
// "127.0.0.1:5000/team/base:sha256-<hex>".
std::string stored_image(const FleetJob& job);
// "static,gpu,framework": the tiers as `dlenv verify --tier` takes them.
std::string tier_list(const FleetJob& job);
// "dlenv-verify-team-base-ab12cd34": a name for the job that schedulers accept (at most 63
// characters of [a-z0-9-], starting and ending alphanumeric), the same for the same image.
std::string job_name(const FleetJob& job);

// The tiers a node verifies: the lock's, with "gpu" added where the lock leaves it out.
std::vector<std::string> node_tiers(const std::vector<std::string>& lock_tiers);

} // namespace dlenv::fleet
