#pragma once

#include "lock/packages.h"
#include "resolve/profile.h"
#include "resolve/stack.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::workflow {

// Where a lock's Python packages come from, as `dlenv lock` is told it.
struct SourcesRequest {
    std::optional<std::filesystem::path> wheelhouse; // every package from this folder of wheels (--wheelhouse)
    std::vector<std::string> indexes; // "NAME=URL" each, as --index gives them
};

// One --index: the index NAME served from URL.
struct IndexOption {
    std::string name;
    std::string url;
};

// Reads "NAME=URL" (the URL may be empty, the name may not). Error(invalid_input)
// "--index TEXT: expected NAME=URL" with an example otherwise.
IndexOption parse_index_option(const std::string& text);

// The wheelhouse alone when one is given (the --index options are then not read);
// otherwise the profile's sources for `stack`, with each --index serving or adding its
// index. Errors are lock::package_sources' and parse_index_option's.
lock::PackageSources requested_sources(
    const SourcesRequest& request, const resolve::Profile& profile, const resolve::Stack& stack);

} // namespace dlenv::workflow
