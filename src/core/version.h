#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv {

// Dot-separated numeric versions. Each kind is its own type, so a CUDA version can
// never be compared with a driver version by accident. `parse` validates and throws
// Error(invalid_input) naming the kind and an example; `text()` returns the input as
// written (drivers keep their leading zeros: 450.80.02).
template <typename Kind> class NumericVersion {
public:
    static NumericVersion parse(std::string_view text);
    static std::optional<NumericVersion> try_parse(std::string_view text);

    const std::string& text() const { return m_text; }
    const std::vector<std::uint32_t>& parts() const { return m_parts; }
    std::uint32_t major() const { return m_parts[0]; }
    std::uint32_t minor() const { return m_parts.size() > 1 ? m_parts[1] : 0; }

    // True when every part this version has equals the same part of `other`:
    // "2.1" is a prefix of "2.1.2"; "2.1" is not a prefix of "2.10".
    bool is_prefix_of(const NumericVersion& other) const;

    // The first `parts` parts, written without leading zeros: 12.2.2 -> 12.2.
    NumericVersion truncated(std::size_t parts) const;

    // Compares on as many parts as `bound` has: 3.11.8 against 3.11 is equal.
    std::strong_ordering compare_truncated(const NumericVersion& bound) const;

    // Missing trailing parts count as zero: 11.8 == 11.8.0.
    friend std::strong_ordering operator<=>(const NumericVersion& a, const NumericVersion& b)
    {
        return compare_parts(a.m_parts, b.m_parts);
    }
    friend bool operator==(const NumericVersion& a, const NumericVersion& b)
    {
        return compare_parts(a.m_parts, b.m_parts) == 0;
    }

private:
    static std::strong_ordering compare_parts(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b);

    std::string m_text;
    std::vector<std::uint32_t> m_parts;
};

struct CudaKind {
    static constexpr std::string_view name = "CUDA version";
    static constexpr std::string_view example = "11.8 or 12.2.2";
    static constexpr std::size_t min_parts = 2, max_parts = 3;
};
struct DriverKind {
    static constexpr std::string_view name = "driver version";
    static constexpr std::string_view example = "535.104.05";
    static constexpr std::size_t min_parts = 2, max_parts = 4;
};
struct CudnnKind {
    static constexpr std::string_view name = "cuDNN version";
    static constexpr std::string_view example = "8.9 or 8.9.2.26";
    static constexpr std::size_t min_parts = 1, max_parts = 4;
};
struct PythonKind {
    static constexpr std::string_view name = "Python version";
    static constexpr std::string_view example = "3.10";
    static constexpr std::size_t min_parts = 2, max_parts = 3;
};
struct NcclKind {
    static constexpr std::string_view name = "NCCL version";
    static constexpr std::string_view example = "2.18.1";
    static constexpr std::size_t min_parts = 2, max_parts = 4;
};

using CudaVersion = NumericVersion<CudaKind>;
using DriverVersion = NumericVersion<DriverKind>;
using CudnnVersion = NumericVersion<CudnnKind>;
using PythonVersion = NumericVersion<PythonKind>;
using NcclVersion = NumericVersion<NcclKind>;

// An inclusive range; either end may be open. The upper end is compared on as many
// parts as it has, so a Python range up to 3.11 contains 3.11.8.
template <typename Version> struct VersionRange {
    std::optional<Version> min;
    std::optional<Version> max;

    bool contains(const Version& v) const;
    std::string describe() const; // "3.8-3.11", ">=12.1", "<=9.99", "any"
};

using CudaRange = VersionRange<CudaVersion>;
using CudnnRange = VersionRange<CudnnVersion>;
using PythonRange = VersionRange<PythonVersion>;
using NcclRange = VersionRange<NcclVersion>;

// A GPU compute capability, "8.9". Parses "8.9", "sm_89", "sm_90a", "sm_120".
class ComputeCapability {
public:
    static ComputeCapability parse(std::string_view text);
    static std::optional<ComputeCapability> try_parse(std::string_view text);
    ComputeCapability(std::uint32_t major, std::uint32_t minor)
        : m_major(major)
        , m_minor(minor)
    {
    }

    std::uint32_t major() const { return m_major; }
    std::uint32_t minor() const { return m_minor; }
    std::string text() const; // "8.9"
    std::string sm_name() const; // "sm_89"

    friend auto operator<=>(const ComputeCapability&, const ComputeCapability&) = default;

private:
    std::uint32_t m_major;
    std::uint32_t m_minor;
};

} // namespace dlenv
