#pragma once

#include "core/digest.h"

#include <cstdint>
#include <functional>
#include <string>

namespace dlenv::registry {

// What happens to one blob of a pull or push, or one artifact a build fetches, for
// progress bars and logs.
struct BlobProgress {
    enum class State {
        transferring, // `done` of `size` bytes moved so far
        finished, // moved completely and verified
        present, // already there: nothing moved
        mounted, // linked from another repository of the registry: nothing moved
    };
    Digest digest;
    std::int64_t size = 0;
    std::int64_t done = 0;
    State state = State::transferring;
    std::string label; // what progress lines call it (a file's name); the digest when empty
};

// Called from the transfer threads, several at once.
using ProgressCallback = std::function<void(const BlobProgress&)>;

} // namespace dlenv::registry
