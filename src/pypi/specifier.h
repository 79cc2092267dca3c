#pragma once

#include "core/pep440.h"

#include <string>
#include <string_view>
#include <vector>

namespace dlenv::pypi {

// One PEP 440 version clause: "==2.1.*", "~=1.4.2", ">=2.0,!=2.0.1" is two of them.
// Local labels follow PEP 440: "==2.1.2" matches "2.1.2+cu118", "==2.1.2+cu118" matches
// only that build, and ordered comparisons ignore the candidate's label. `parse`
// throws Error(invalid_input) naming the clause.
class Specifier {
public:
    enum class Op { equal, not_equal, less, less_equal, greater, greater_equal, compatible, arbitrary };

    static Specifier parse(std::string_view text);

    Op op() const { return m_op; }
    bool wildcard() const { return m_wildcard; }
    const Pep440Version& version() const { return m_version; } // not meaningful for ===
    std::string str() const; // "==2.1.*", normalised spacing

    // Whether `v` satisfies the clause, pre-releases aside (SpecifierSet decides those).
    bool contains(const Pep440Version& v) const;
    // True when the clause names a pre-release in an inclusive way ("==2.2.0rc1",
    // ">=2.2.0a1"): PEP 440 then lets pre-releases match.
    bool names_prerelease() const;

private:
    Op m_op = Op::equal;
    bool m_wildcard = false;
    Pep440Version m_version;
    std::string m_text; // the version as written, for ===
};

// A comma-separated list of clauses that must all hold; empty means any version.
class SpecifierSet {
public:
    static SpecifierSet parse(std::string_view text);

    const std::vector<Specifier>& clauses() const { return m_clauses; }
    bool empty() const { return m_clauses.empty(); }
    std::string str() const; // clauses joined by ","

    // PEP 440's rule: a pre- or dev-release matches only when `prereleases` is set or a
    // clause names a pre-release; otherwise every clause decides.
    bool contains(const Pep440Version& v, bool prereleases = false) const;
    // The versions this set admits, in the given order. Pre-releases are admitted as
    // `contains` says, and also when no final release matches (pip's fallback).
    std::vector<Pep440Version> filter(const std::vector<Pep440Version>& versions, bool prereleases = false) const;

    void add(const SpecifierSet& other);

private:
    std::vector<Specifier> m_clauses;
};

} // namespace dlenv::pypi
