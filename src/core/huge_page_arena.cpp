#include "core/huge_page_arena.h"

#include <cstdint>

#include <sys/mman.h>

namespace dlenv {

namespace {

// The smallest multiple of `multiple` at or above `value`.
constexpr std::size_t round_up(std::size_t value, std::size_t multiple) noexcept
{
    return (value + multiple - 1) / multiple * multiple;
}

} // namespace

HugePageArena::HugePageArena(std::size_t capacity) noexcept
{
    capacity = round_up(capacity, huge_page);
    // one huge page more than asked, to start on a huge-page boundary inside it
    const std::size_t size = capacity + huge_page;
    void* reservation = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (reservation == MAP_FAILED)
        return;
    m_reservation = reservation;
    m_reservation_size = size;
    const auto start = reinterpret_cast<std::uintptr_t>(reservation);
    m_begin = reinterpret_cast<char*>(round_up(start, huge_page));
    m_capacity = capacity;
    madvise(m_begin, m_capacity, MADV_HUGEPAGE); // a hint: without it the pages are small ones
}

HugePageArena::~HugePageArena()
{
    if (m_reservation)
        munmap(m_reservation, m_reservation_size);
}

void* HugePageArena::allocate(std::size_t size) noexcept
{
    constexpr std::size_t align = __STDCPP_DEFAULT_NEW_ALIGNMENT__;
    if (size > m_capacity)
        return nullptr;
    const std::size_t rounded = size == 0 ? align : round_up(size, align);
    // a block that does not fit takes nothing: a smaller one may still
    std::size_t at = m_used.load(std::memory_order_relaxed);
    do {
        if (rounded > m_capacity - at)
            return nullptr;
    } while (!m_used.compare_exchange_weak(at, at + rounded, std::memory_order_relaxed));
    return m_begin + at;
}

bool HugePageArena::owns(const void* p) const noexcept
{
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    const auto begin = reinterpret_cast<std::uintptr_t>(m_begin);
    return m_begin && address >= begin && address - begin < m_capacity;
}

} // namespace dlenv
