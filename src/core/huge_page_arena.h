#pragma once

#include <atomic>
#include <cstddef>

namespace dlenv {

// Memory handed out front to back and never reused, from one reservation on transparent
// huge pages where the kernel gives them: for a short-lived process's many small objects,
// whose first writes then fault once per 2 MiB instead of once per 4 KiB page. Where the
// kernel gives no huge pages it is ordinary memory. Safe to allocate from on any thread.
class HugePageArena {
public:
    static constexpr std::size_t huge_page = std::size_t { 2 } << 20;

    // `capacity` bytes rounded up to whole huge pages, reserved and not yet committed; an
    // arena that allocates nothing when the reservation fails.
    explicit HugePageArena(std::size_t capacity) noexcept;
    HugePageArena(const HugePageArena&) = delete;
    HugePageArena& operator=(const HugePageArena&) = delete;
    ~HugePageArena();

    // `size` bytes (at least one) aligned for any object operator new makes; null once the
    // arena cannot hold them.
    void* allocate(std::size_t size) noexcept;
    bool owns(const void* p) const noexcept;
    std::size_t capacity() const noexcept { return m_capacity; }

private:
    void* m_reservation = nullptr;
    std::size_t m_reservation_size = 0;
    char* m_begin = nullptr; // the first huge-page boundary in the reservation
    std::size_t m_capacity = 0;
    std::atomic<std::size_t> m_used { 0 };
};

} // namespace dlenv
