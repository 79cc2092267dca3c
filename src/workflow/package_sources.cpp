#include "workflow/package_sources.h"

#include "core/error.h"
#include "lock/package_lock.h"
#include "lock/package_plan.h"

namespace dlenv::workflow {

IndexOption parse_index_option(const std::string& text)
{
    std::size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0)
        throw Error(ErrorCode::invalid_input, "--index " + text + ": expected NAME=URL",
            "for example --index pypi=https://mirror.example/simple/");
    return { text.substr(0, equals), text.substr(equals + 1) };
}

lock::PackageSources requested_sources(
    const SourcesRequest& request, const resolve::Profile& profile, const resolve::Stack& stack)
{
    if (request.wheelhouse)
        return lock::wheelhouse_sources(*request.wheelhouse);
    lock::PackageSources sources = lock::package_sources(profile, stack);
    for (const auto& text : request.indexes) {
        IndexOption index = parse_index_option(text);
        sources.indexes[index.name] = index.url;
    }
    return sources;
}

} // namespace dlenv::workflow
