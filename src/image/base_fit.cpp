#include "image/base_fit.h"

#include "core/error.h"
#include "lock/framework_needs.h"
#include "resolve/base_contents.h"
#include "resolve/framework_on_base.h"

namespace dlenv::image {

std::vector<Finding> check_base_fits(const lock::Lockfile& lock, const std::string& base_reference,
    const nlohmann::json& base_config, const matrix::Matrix& matrix)
{
    resolve::BaseContents base
        = resolve::base_contents_of(resolve::describe_config(base_reference, base_config), matrix);
    std::vector<Finding> findings = resolve::check_framework_on_base(base, lock::framework_needs(lock), matrix);
    for (const auto& finding : findings)
        if (finding.verdict == Verdict::fail)
            throw Error(ErrorCode::conflict, "base image " + base_reference + ": " + finding.message,
                finding.why.empty() ? std::string() : "the rule: " + finding.why);
    return findings;
}

} // namespace dlenv::image
