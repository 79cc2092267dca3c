#include "pypi/specifier.h"

#include "core/error.h"
#include "core/text.h"

#include <algorithm>

namespace dlenv::pypi {
namespace {

Error bad_clause(std::string_view text, const std::string& why)
{
    return Error(ErrorCode::invalid_input, "'" + std::string(text) + "' is not a PEP 440 version specifier: " + why,
        "write it as ==2.1.2, >=1.0,<2, ~=1.4.2 or ==2.1.*");
}

// "==2.1.*" matches when the candidate's public release starts with 2.1 (zero-padded),
// so 2.1.0rc1, 2.1.5 and 2.1.post1 match and 2.10 does not.
bool prefix_matches(const Pep440Version& prefix, const Pep440Version& v)
{
    if (prefix.epoch() != v.epoch())
        return false;
    const auto& want = prefix.release();
    const auto& have = v.release();
    for (std::size_t i = 0; i < want.size(); ++i)
        if ((i < have.size() ? have[i] : 0) != want[i])
            return false;
    return true;
}

bool same_release(const Pep440Version& a, const Pep440Version& b)
{
    return prefix_matches(a.without_local(), b) && prefix_matches(b.without_local(), a);
}

} // namespace

Specifier Specifier::parse(std::string_view text)
{
    static const std::pair<std::string_view, Op> ops[] = {
        { "===", Op::arbitrary },
        { "==", Op::equal },
        { "!=", Op::not_equal },
        { "~=", Op::compatible },
        { "<=", Op::less_equal },
        { ">=", Op::greater_equal },
        { "<", Op::less },
        { ">", Op::greater },
    };
    std::string_view clause = trim_whitespace(text);
    Specifier s;
    auto op = std::find_if(std::begin(ops), std::end(ops), [&](const auto& o) { return clause.starts_with(o.first); });
    if (op == std::end(ops))
        throw bad_clause(text, "it starts with no operator");
    s.m_op = op->second;
    std::string_view version = trim_whitespace(clause.substr(op->first.size()));
    if (version.empty())
        throw bad_clause(text, "it names no version");
    s.m_text = std::string(version);
    if (s.m_op == Op::arbitrary)
        return s;
    if (version.ends_with(".*")) {
        if (s.m_op != Op::equal && s.m_op != Op::not_equal)
            throw bad_clause(text, "only == and != take a trailing .*");
        s.m_wildcard = true;
        version.remove_suffix(2);
    }
    auto parsed = Pep440Version::try_parse(version);
    if (!parsed)
        throw bad_clause(text, "'" + std::string(version) + "' is not a PEP 440 version");
    s.m_version = *parsed;
    if (s.m_wildcard && (!s.m_version.local().empty() || s.m_version.pre() || s.m_version.post() || s.m_version.dev()))
        throw bad_clause(text, "a wildcard follows release numbers only");
    if (!s.m_version.local().empty() && s.m_op != Op::equal && s.m_op != Op::not_equal)
        throw bad_clause(text, "only == and != take a local label");
    if (s.m_op == Op::compatible && s.m_version.release().size() < 2)
        throw bad_clause(text, "~= needs at least two release numbers");
    return s;
}

std::string Specifier::str() const
{
    static const char* names[] = { "==", "!=", "<", "<=", ">", ">=", "~=", "===" };
    std::string op = names[static_cast<int>(m_op)];
    if (m_op == Op::arbitrary)
        return op + m_text;
    return op + m_version.str() + (m_wildcard ? ".*" : "");
}

bool Specifier::contains(const Pep440Version& v) const
{
    const Pep440Version& spec = m_version;
    Pep440Version candidate = v.without_local();
    switch (m_op) {
    case Op::arbitrary:
        return ascii_lowercase(v.str()) == ascii_lowercase(m_text); // compares the text, not the version
    case Op::equal:
    case Op::not_equal: {
        bool equal = m_wildcard ? prefix_matches(spec, v) : (spec.local().empty() ? candidate == spec : v == spec);
        return (m_op == Op::equal) == equal;
    }
    case Op::less_equal:
        return candidate <= spec;
    case Op::greater_equal:
        return candidate >= spec;
    case Op::less:
        // "<2.0" excludes 2.0rc1 unless the bound is itself a pre-release.
        return candidate < spec
            && (spec.is_prerelease() || !candidate.is_prerelease() || !same_release(spec, candidate));
    case Op::greater:
        // ">2.0" excludes 2.0.post1 unless the bound is itself a post-release, and 2.0+local.
        return candidate > spec && (spec.post() || !candidate.post() || !same_release(spec, candidate));
    case Op::compatible: {
        std::vector<std::uint64_t> release(spec.release().begin(), spec.release().end() - 1);
        std::string prefix = std::to_string(spec.epoch()) + "!";
        for (std::size_t i = 0; i < release.size(); ++i)
            prefix += (i ? "." : "") + std::to_string(release[i]);
        return candidate >= spec && prefix_matches(Pep440Version::parse(prefix), candidate);
    }
    }
    return false;
}

bool Specifier::names_prerelease() const
{
    if (m_op == Op::arbitrary) {
        auto version = Pep440Version::try_parse(m_text);
        return version && version->is_prerelease();
    }
    bool inclusive = m_op == Op::equal || m_op == Op::greater_equal || m_op == Op::less_equal || m_op == Op::compatible;
    return inclusive && !m_wildcard && m_version.is_prerelease();
}

SpecifierSet SpecifierSet::parse(std::string_view text)
{
    SpecifierSet set;
    std::string_view rest = trim_whitespace(text);
    if (rest.empty())
        return set;
    while (true) {
        std::size_t comma = rest.find(',');
        set.m_clauses.push_back(Specifier::parse(rest.substr(0, comma)));
        if (comma == std::string_view::npos)
            break;
        rest.remove_prefix(comma + 1);
    }
    return set;
}

std::string SpecifierSet::str() const
{
    std::string out;
    for (const auto& clause : m_clauses)
        out += (out.empty() ? "" : ",") + clause.str();
    return out;
}

bool SpecifierSet::contains(const Pep440Version& v, bool prereleases) const
{
    bool allow_pre = prereleases
        || std::any_of(m_clauses.begin(), m_clauses.end(), [](const Specifier& s) { return s.names_prerelease(); });
    if (v.is_prerelease() && !allow_pre)
        return false;
    return std::all_of(m_clauses.begin(), m_clauses.end(), [&](const Specifier& s) { return s.contains(v); });
}

std::vector<Pep440Version> SpecifierSet::filter(const std::vector<Pep440Version>& versions, bool prereleases) const
{
    std::vector<Pep440Version> out;
    for (const auto& v : versions)
        if (contains(v, prereleases))
            out.push_back(v);
    if (out.empty())
        for (const auto& v : versions)
            if (contains(v, true))
                out.push_back(v);
    return out;
}

void SpecifierSet::add(const SpecifierSet& other)
{
    m_clauses.insert(m_clauses.end(), other.m_clauses.begin(), other.m_clauses.end());
}

} // namespace dlenv::pypi
