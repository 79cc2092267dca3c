#include "lock/framework_needs.h"

namespace dlenv::lock {

resolve::FrameworkNeeds framework_needs(const Lockfile& lock)
{
    std::optional<std::vector<std::string>> names;
    if (const auto& packages = lock.packages()) {
        names.emplace();
        for (const auto& package : *packages)
            names->push_back(package.name);
    }
    const LockedStack& stack = lock.stack();
    return { stack.framework, stack.cuda, stack.cudnn, stack.nccl, resolve::library_sources_of(names) };
}

} // namespace dlenv::lock
