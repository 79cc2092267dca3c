#include "resolve/driver_branch.h"

#include "core/error.h"

#include <algorithm>

namespace dlenv::resolve {

BranchDriver branch_driver(const matrix::Matrix& matrix, std::uint32_t branch)
{
    const std::string name = std::to_string(branch);
    const matrix::DriverReleases* known = matrix.driver_releases(branch);
    if (!known || known->releases.empty()) {
        std::string branches;
        for (const auto& listed : matrix.driver_releases())
            branches += (branches.empty() ? "" : ", ") + std::to_string(listed.branch);
        throw Error(ErrorCode::invalid_input, "driver " + name + " is no driver branch the matrix lists releases of",
            "give the release nvidia-smi shows (535.104.05); branches on record: " + branches);
    }
    const auto [oldest, newest] = std::minmax_element(known->releases.begin(), known->releases.end());
    return { *newest, *oldest != *newest ? std::optional(*oldest) : std::nullopt,
        Finding { .code = "driver-branch",
            .verdict = Verdict::ok,
            .message = "driver " + name + " is read as " + newest->text() + ", the newest " + name
                + " release on record (what a distribution's nvidia-driver-" + name + " package installs)"
                + (known->complete_through ? "" : "; the " + name + " releases on record are a partial list")
                + ": give the release nvidia-smi shows for an answer about it",
            .why = known->provenance.cite() } };
}

BranchRead read_driver_branch(const matrix::Matrix& matrix, const Query& query)
{
    BranchRead read { query, std::nullopt };
    if (!query.driver_branch)
        return read;
    if (runs_windows_driver(query.os))
        throw Error(ErrorCode::invalid_input,
            "driver " + std::to_string(*query.driver_branch) + " names a branch, whose releases the matrix lists "
                + "for Linux only",
            "on " + std::string(describe(query.os)) + " give the Windows driver's number nvidia-smi shows (561.17)");
    read.branch = branch_driver(matrix, *query.driver_branch);
    read.query.driver = read.branch->newest;
    read.query.driver_branch.reset();
    return read;
}

} // namespace dlenv::resolve
