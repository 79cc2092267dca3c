#include "core/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace dlenv {

void parallel_for(std::size_t count, std::size_t workers, const std::function<void(std::size_t)>& job)
{
    std::atomic<std::size_t> next { 0 };
    std::atomic<bool> failed { false };
    std::exception_ptr first;
    std::mutex first_mutex;
    auto work = [&] {
        for (std::size_t i; !failed && (i = next++) < count;) {
            try {
                job(i);
            } catch (...) {
                std::lock_guard lock(first_mutex);
                if (!first)
                    first = std::current_exception();
                failed = true;
            }
        }
    };
    std::vector<std::thread> threads;
    for (std::size_t t = 1; t < std::min(workers, count); ++t)
        threads.emplace_back(work);
    work();
    for (auto& thread : threads)
        thread.join();
    if (first)
        std::rethrow_exception(first);
}

} // namespace dlenv
