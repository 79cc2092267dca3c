#pragma once

#include "lock/lockfile.h"
#include "resolve/framework_on_base.h"

namespace dlenv::lock {

// What the lock's framework needs of its base: the CUDA and cuDNN it was built with, and
// which of its CUDA libraries come from the wheels the lock pins.
resolve::FrameworkNeeds framework_needs(const Lockfile& lock);

} // namespace dlenv::lock
