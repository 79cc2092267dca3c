#pragma once

#include <cstddef>
#include <functional>

namespace dlenv {

// Runs job(0) … job(count - 1) on up to `workers` threads and waits for them. After a
// job throws, no new job starts; the first exception is rethrown once all have stopped.
void parallel_for(std::size_t count, std::size_t workers, const std::function<void(std::size_t)>& job);

} // namespace dlenv
