// The dlenv executable's operator new and delete: its first 16 MiB of C++ allocations come
// from a HugePageArena, the rest from malloc.
//
// `dlenv check` and `dlenv lock` decode the built-in matrices into about 1 MiB of small
// objects. On malloc's 4 KiB pages each first write is a page fault, and under a hypervisor
// a fault costs 10-25 us: some 300 of them were a third of the command's time (bench/README).
//
// Memory freed inside the arena is not reused: a command's first 16 MiB stay allocated
// until it exits, as a compiler's do; later allocations are malloc's and freed as usual.
// operator new(size_t) and operator delete, unsized and sized, are replaced: the standard
// library's array and nothrow forms call these, and its aligned forms use aligned_alloc and
// free on their own. Sanitized builds leave this file out, so that every allocation is checked.

#include "core/huge_page_arena.h"

#include <cstdlib>
#include <new>

namespace {

dlenv::HugePageArena& arena()
{
    // built on first use (static initialisers allocate before main) and never destroyed:
    // objects in it are deleted until the process ends
    alignas(dlenv::HugePageArena) static unsigned char storage[sizeof(dlenv::HugePageArena)];
    static dlenv::HugePageArena* instance = new (storage) dlenv::HugePageArena(std::size_t { 16 } << 20);
    return *instance;
}

} // namespace

void* operator new(std::size_t size)
{
    if (void* p = arena().allocate(size))
        return p;
    for (;;) {
        if (void* p = std::malloc(size == 0 ? 1 : size))
            return p;
        std::new_handler handler = std::get_new_handler();
        if (!handler)
            throw std::bad_alloc();
        handler();
    }
}

void operator delete(void* p) noexcept
{
    if (!arena().owns(p))
        std::free(p);
}

void operator delete(void* p, std::size_t) noexcept
{
    operator delete(p);
}
