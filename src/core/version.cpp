#include "core/version.h"

#include "core/error.h"

#include <charconv>

namespace dlenv {
namespace {

std::optional<std::vector<std::uint32_t>> split_numbers(std::string_view text)
{
    std::vector<std::uint32_t> parts;
    while (true) {
        std::size_t dot = text.find('.');
        std::string_view piece = text.substr(0, dot);
        std::uint32_t value = 0;
        auto [end, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), value);
        if (piece.empty() || ec != std::errc() || end != piece.data() + piece.size())
            return std::nullopt;
        parts.push_back(value);
        if (dot == std::string_view::npos)
            return parts;
        text.remove_prefix(dot + 1);
    }
}

} // namespace

template <typename Kind> std::optional<NumericVersion<Kind>> NumericVersion<Kind>::try_parse(std::string_view text)
{
    auto parts = split_numbers(text);
    if (!parts || parts->size() < Kind::min_parts || parts->size() > Kind::max_parts)
        return std::nullopt;
    NumericVersion v;
    v.m_text = std::string(text);
    v.m_parts = std::move(*parts);
    return v;
}

template <typename Kind> NumericVersion<Kind> NumericVersion<Kind>::parse(std::string_view text)
{
    if (auto v = try_parse(text))
        return *v;
    throw Error(ErrorCode::invalid_input, "'" + std::string(text) + "' is not a " + std::string(Kind::name),
        "write it as " + std::string(Kind::example));
}

template <typename Kind> bool NumericVersion<Kind>::is_prefix_of(const NumericVersion& other) const
{
    if (m_parts.size() > other.m_parts.size())
        return false;
    for (std::size_t i = 0; i < m_parts.size(); ++i)
        if (m_parts[i] != other.m_parts[i])
            return false;
    return true;
}

template <typename Kind> NumericVersion<Kind> NumericVersion<Kind>::truncated(std::size_t parts) const
{
    NumericVersion v;
    v.m_parts.assign(m_parts.begin(), m_parts.begin() + std::min(parts, m_parts.size()));
    for (auto part : v.m_parts)
        v.m_text += (v.m_text.empty() ? "" : ".") + std::to_string(part);
    return v;
}

template <typename Kind> std::strong_ordering NumericVersion<Kind>::compare_truncated(const NumericVersion& bound) const
{
    std::vector<std::uint32_t> head(m_parts.begin(), m_parts.begin() + std::min(m_parts.size(), bound.m_parts.size()));
    return compare_parts(head, bound.m_parts);
}

template <typename Kind>
std::strong_ordering NumericVersion<Kind>::compare_parts(
    const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b)
{
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        std::uint32_t x = i < a.size() ? a[i] : 0;
        std::uint32_t y = i < b.size() ? b[i] : 0;
        if (x != y)
            return x <=> y;
    }
    return std::strong_ordering::equal;
}

template <typename Version> bool VersionRange<Version>::contains(const Version& v) const
{
    if (min && v < *min)
        return false;
    return !max || v.compare_truncated(*max) <= 0;
}

template <typename Version> std::string VersionRange<Version>::describe() const
{
    if (min && max)
        return min->text() == max->text() ? min->text() : min->text() + "-" + max->text();
    if (min)
        return ">=" + min->text();
    if (max)
        return "<=" + max->text();
    return "any";
}

template class NumericVersion<CudaKind>;
template class NumericVersion<DriverKind>;
template class NumericVersion<CudnnKind>;
template class NumericVersion<PythonKind>;
template class NumericVersion<NcclKind>;
template struct VersionRange<CudaVersion>;
template struct VersionRange<CudnnVersion>;
template struct VersionRange<PythonVersion>;
template struct VersionRange<NcclVersion>;

std::optional<ComputeCapability> ComputeCapability::try_parse(std::string_view text)
{
    std::string_view digits = text;
    if (digits.starts_with("sm_") || digits.starts_with("SM_")) {
        digits.remove_prefix(3);
        if (!digits.empty() && (digits.back() == 'a' || digits.back() == 'f'))
            digits.remove_suffix(1);
        if (digits.size() < 2)
            return std::nullopt;
        std::string dotted = std::string(digits.substr(0, digits.size() - 1)) + "." + digits.back();
        return try_parse(dotted);
    }
    auto parts = split_numbers(digits);
    if (!parts || parts->size() != 2 || (*parts)[1] > 9 || (*parts)[0] == 0)
        return std::nullopt;
    return ComputeCapability((*parts)[0], (*parts)[1]);
}

ComputeCapability ComputeCapability::parse(std::string_view text)
{
    if (auto cc = try_parse(text))
        return *cc;
    throw Error(ErrorCode::invalid_input, "'" + std::string(text) + "' is not a compute capability",
        "write it as 8.9 or sm_89");
}

std::string ComputeCapability::text() const
{
    return std::to_string(m_major) + "." + std::to_string(m_minor);
}

std::string ComputeCapability::sm_name() const
{
    return "sm_" + std::to_string(m_major) + std::to_string(m_minor);
}

} // namespace dlenv
