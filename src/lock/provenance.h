#pragma once

#include "core/finding.h"
#include "core/host_facts.h"
#include "core/version.h"
#include "resolve/stack.h"

#include <optional>
#include <string>
#include <vector>

namespace dlenv::lock {

// The profile a lock was made from, so a changed profile is noticed.
struct LockedProfile {
    std::string name;
    std::string sha256; // of the profile file, lowercase hex
};

// A warning the resolution gave, kept in the lock for whoever reads it later.
struct LockedWarning {
    std::string code;
    std::string message;
    std::string source;
};

// The machine the lock was checked against, when the lock was asked for one.
struct LockedHost {
    std::optional<DriverVersion> driver;
    std::vector<std::string> gpus; // models, or X.Y where the model is unknown
};

// The warnings among `findings` (a report's), in their order.
std::vector<LockedWarning> locked_warnings(const std::vector<Finding>& findings);
// `host` as the lock records it; nullopt when it names neither a driver nor a GPU.
std::optional<LockedHost> locked_host(const HostFacts& host);

} // namespace dlenv::lock
