#include "core/huge_page_arena.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

using namespace dlenv;

namespace {

std::uintptr_t address(const void* p)
{
    return reinterpret_cast<std::uintptr_t>(p);
}

} // namespace

TEST_CASE("an arena hands out aligned, distinct blocks front to back until it is full", "[core]")
{
    HugePageArena arena(1); // rounded up to one huge page
    REQUIRE(arena.capacity() == HugePageArena::huge_page);

    void* first = arena.allocate(1);
    void* empty = arena.allocate(0); // a block of its own all the same
    void* third = arena.allocate(100);
    REQUIRE(first);
    CHECK(address(first) % HugePageArena::huge_page == 0); // starts on a huge-page boundary
    CHECK(address(empty) == address(first) + 16);
    CHECK(address(third) == address(empty) + 16);
    CHECK(arena.owns(first));
    CHECK(arena.owns(static_cast<char*>(third) + 99));
    int outside = 0;
    CHECK_FALSE(arena.owns(&outside));
    CHECK_FALSE(arena.owns(nullptr));

    // what no longer fits is refused, and so is more than the arena could ever hold
    CHECK_FALSE(arena.allocate(SIZE_MAX));
    CHECK_FALSE(arena.allocate(HugePageArena::huge_page));
    void* last = arena.allocate(HugePageArena::huge_page - 144); // all that is left after 16 + 16 + 112
    REQUIRE(last);
    CHECK(address(last) == address(first) + 144);
    CHECK_FALSE(arena.allocate(1));
    CHECK_FALSE(arena.owns(static_cast<char*>(first) + HugePageArena::huge_page));
}

TEST_CASE("threads allocating from one arena get blocks that do not overlap", "[core]")
{
    HugePageArena arena(HugePageArena::huge_page);
    constexpr int threads = 4;
    constexpr int per_thread = 1000;
    std::vector<std::vector<std::uintptr_t>> blocks(threads);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
        workers.emplace_back([&, t] {
            for (int i = 0; i < per_thread; ++i)
                blocks[t].push_back(address(arena.allocate(48)));
        });
    for (auto& worker : workers)
        worker.join();
    std::vector<std::uintptr_t> all;
    for (const auto& some : blocks)
        all.insert(all.end(), some.begin(), some.end());
    std::sort(all.begin(), all.end());
    REQUIRE(all.front() != 0);
    CHECK(all.back() - all.front() == (threads * per_thread - 1) * 48);
    CHECK(std::adjacent_find(all.begin(), all.end(), [](auto a, auto b) { return b - a != 48; }) == all.end());
}
