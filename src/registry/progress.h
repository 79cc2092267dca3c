#pragma once

#include "oci/digest.h"

#include <cstdint>
#include <functional>

namespace dlenv::registry {

// What happens to one blob of a pull or push, for progress bars and logs.
struct BlobProgress {
    enum class State {
        transferring, // `done` of `size` bytes moved so far
        finished,     // moved completely and verified
        present,      // already there: nothing moved
        mounted,      // linked from another repository of the registry: nothing moved
    };
    oci::Digest digest;
    std::int64_t size = 0;
    std::int64_t done = 0;
    State state = State::transferring;
};

// Called from the transfer threads, several at once.
using ProgressCallback = std::function<void(const BlobProgress&)>;

} // namespace dlenv::registry
