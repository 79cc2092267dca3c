#pragma once

#include "pypi/target.h"

#include <compare>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::pypi {

// A PEP 425 compatibility tag: cp311-cp311-manylinux_2_17_x86_64.
struct Tag {
    std::string python;
    std::string abi;
    std::string platform;

    std::string str() const { return python + "-" + abi + "-" + platform; }
    friend auto operator<=>(const Tag&, const Tag&) = default;
};

// The platform tags a wheel may carry for `target`, best first: manylinux_2_X for the
// target's glibc down to the oldest the architecture has (2.5 on x86_64, 2.17 on
// aarch64), each followed by its legacy alias (manylinux2014 = 2.17, manylinux2010 =
// 2.12, manylinux1 = 2.5, the last two on x86_64 only), then `linux_<arch>`, as pip
// admits it: PyTorch's CUDA builds on download.pytorch.org carry only that tag
// (torch-2.1.2+cu118-cp310-cp310-linux_x86_64.whl), so an index serving them is trusted
// for the target it is assigned.
std::vector<std::string> platform_tags(const Target& target);

// Every tag CPython on `target` accepts, in the order pip prefers them (packaging's
// sys_tags): cpXY-cpXY, cpXY-abi3, cpXY-none on each platform; abi3 of older minors;
// pyXY/py3/py3Z-none on each platform; cpXY-none-any; pyXY/py3/py3Z-none-any.
std::vector<Tag> supported_tags(const Target& target);

// The rank of each supported tag (0 is best), to pick the best wheel of a release.
class TagRanking {
public:
    explicit TagRanking(const Target& target);
    // The best rank among `tags`, or nullopt when none is supported.
    std::optional<std::size_t> rank(const std::vector<Tag>& tags) const;

private:
    std::map<Tag, std::size_t> m_rank;
};

} // namespace dlenv::pypi
