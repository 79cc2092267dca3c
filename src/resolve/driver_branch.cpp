#include "resolve/driver_branch.h"

#include "core/error.h"

#include <algorithm>

namespace dlenv::resolve {

BranchRead read_driver_branch(const matrix::Matrix& matrix, const Query& query)
{
    BranchRead read { query, std::nullopt };
    if (!query.driver_branch)
        return read;
    const std::string branch = std::to_string(*query.driver_branch);
    const matrix::DriverReleases* known = matrix.driver_releases(*query.driver_branch);
    if (!known || known->releases.empty()) {
        std::string branches;
        for (const auto& listed : matrix.driver_releases())
            branches += (branches.empty() ? "" : ", ") + std::to_string(listed.branch);
        throw Error(ErrorCode::invalid_input, "driver " + branch + " is no driver branch the matrix lists releases of",
            "give the release nvidia-smi shows (535.104.05); branches on record: " + branches);
    }
    const auto [oldest, newest] = std::minmax_element(known->releases.begin(), known->releases.end());
    if (*oldest != *newest)
        read.oldest = *oldest;
    read.query.driver = *newest;
    read.query.driver_branch.reset();
    read.finding = Finding { .code = "driver-branch",
        .verdict = Verdict::ok,
        .message = "driver " + branch + " is read as " + newest->text() + ", the newest " + branch
            + " release on record (what a distribution's nvidia-driver-" + branch + " package installs)"
            + (known->complete_through ? "" : "; the " + branch + " releases on record are a partial list")
            + ": give the release nvidia-smi shows for an answer about it",
        .why = known->provenance.cite() };
    return read;
}

} // namespace dlenv::resolve
