#pragma once

#include "pypi/index.h"
#include "pypi/requirement.h"
#include "pypi/target.h"

#include <map>
#include <string>
#include <vector>

namespace dlenv::pypi {

// A bound that does not come from a package: the stack pins torch to 2.1.2+cu118 and
// nvidia-cudnn-cu11 to its cuDNN. `reason` completes "..., but " in a conflict message:
// "the stack pins cuDNN 8.9.2 (profile pytorch-cu118)".
struct Constraint {
    SpecifierSet specifiers;
    std::string reason;
};

struct ResolveRequest {
    std::vector<Requirement> requirements; // what the profile asks for
    std::map<std::string, Constraint> constraints; // by normalised project name
    Target target;
    bool prereleases = false; // admit pre-releases everywhere, not only where pinned
    std::string requester = "the profile"; // names the roots in messages and required_by
};

// One pinned wheel of the closure.
struct ResolvedPackage {
    std::string name; // normalised
    Pep440Version version;
    std::string index; // Index::name() of the index it came from
    DistributionFile file;
    std::vector<std::string> extras; // normalised, sorted
    std::vector<std::string> required_by; // normalised names, and `requester` for roots; sorted
};

// Picks one version of every project the requirements reach, for `request.target`:
// the newest version that every requirement on it and its constraint admit, with a
// wheel whose tags the target supports (best tag first) and whose Requires-Python
// admits the target's Python. Markers are evaluated for the target and each requested
// extra. Each project comes from the index `indexes` assigns to it. On a dead end it
// backtracks to the last choice that had another candidate. Returns the closure
// sorted by name. When no choice works, throws Error(conflict) naming the chain of
// requirements of the first dead end met, newest choices first: "torch 2.1.2+cu118
// requires nvidia-cudnn-cu11==8.7.0.84, but the stack pins cuDNN 8.9.2 (profile x)".
std::vector<ResolvedPackage> resolve(const ResolveRequest& request, const IndexSet& indexes);

} // namespace dlenv::pypi
