#pragma once

#include "lock/lock_diff.h"
#include "workflow/diff_side.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace dlenv::workflow {

// A layer position (1 = the lowest) whose blob differs between two images, or that only
// one of them has.
struct LayerChange {
    std::size_t position = 0;
    std::optional<LayerFacts> before;
    std::optional<LayerFacts> after;
};

struct SizeChange {
    std::int64_t before = 0;
    std::int64_t after = 0;
};

// What changed between two sides: the locks they are or carry, and, when both are
// images, what only images know; a section that did not change is empty.
struct SideDiff {
    lock::LockDiff lock;
    std::vector<lock::FieldChange> image; // the image digest, the base it was built on, the layer count
    std::optional<SizeChange> bytes; // the layers' bytes
    std::vector<LayerChange> layers; // by position
    std::vector<lock::FieldChange> verifications; // each tier's outcome: "passed", "failed", "not run"

    bool empty() const;
    std::size_t size() const; // the number of changes in every section
};

// What changed from `before` to `after`. A lock against an image compares the locks only:
// an image built from the lock is equal to it.
SideDiff diff_sides(const DiffSide& before, const DiffSide& after);

} // namespace dlenv::workflow
