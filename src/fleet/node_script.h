#pragma once

#include "fleet/fleet_job.h"

#include <string>
#include <utility>
#include <vector>

namespace dlenv::fleet {

// The exit codes of a node and of a whole job, as `dlenv verify` gives them.
constexpr int k_node_passed = 0;
constexpr int k_node_failed = 1; // a verification failed
constexpr int k_node_bad_input = 2;
constexpr int k_node_not_run = 3; // the node could not run it: no GPU, no runtime, no registry

// The program each node runs under /bin/sh: `dlenv pull` of the pinned image into a
// private store, `dlenv verify` of the job's tiers, `dlenv push` back to the registry (so
// the verification travels with the image), the store removed, then one line
// "dlenv-fleet-result NODE CODE" and an exit with CODE: verify's, else pull's or push's
// where one of them failed. It reads only the environment node_environment names, and
// holds no single quote, so it may be written inside one.
const std::string& node_script();

// The environment node_script reads, in order: DLENV_FLEET_DLENV (the dlenv program),
// DLENV_FLEET_IMAGE, DLENV_FLEET_STORED, DLENV_FLEET_TIERS, DLENV_FLEET_PUSH,
// DLENV_FLEET_INSECURE ("1" or "0"); DLENV_FLEET_STORE, the node's store, is the
// scheduler's to set.
std::vector<std::pair<std::string, std::string>> node_environment(const FleetJob& job, const std::string& dlenv);

// `value` as one single-quoted sh word.
std::string shell_quote(const std::string& value);

} // namespace dlenv::fleet
