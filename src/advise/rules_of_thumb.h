#pragma once

#include "advise/job.h"
#include "advise/memory.h"

#include <string>
#include <vector>

namespace dlenv::advise {

struct RuleOfThumb;

// The rule of thumb people quote for the job's task, set against this job's arithmetic,
// with the assumption under which the rule holds.
std::vector<RuleOfThumb> rules_of_thumb(const Job& job, const MemoryEstimate& memory);

} // namespace dlenv::advise
