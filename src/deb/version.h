#pragma once

#include <compare>
#include <string>
#include <string_view>

namespace dlenv::deb {

// A Debian package version, [epoch:]upstream[-revision], as Debian Policy §5.6.12 defines
// it, compared as dpkg compares it (dpkg's verrevcmp: letters before non-letters, '~'
// before everything, even the end). Comparable only with other Debian versions.
class DebVersion {
public:
    // Validates: an epoch of digits, an upstream part that starts with a digit and holds
    // only [A-Za-z0-9.+~-:] (':' only with an epoch, '-' only with a revision), a revision of
    // [A-Za-z0-9.+~]. Throws Error(invalid_input) naming `where` and the text.
    static DebVersion parse(std::string_view text, const std::string& where = "version");

    unsigned long epoch() const { return m_epoch; }
    const std::string& upstream() const { return m_upstream; }
    const std::string& revision() const { return m_revision; } // "" when the version has none
    const std::string& text() const { return m_text; } // as written

    // Equal versions can be spelled apart ("0:1.0" and "1.0"); they compare equal.
    std::strong_ordering operator<=>(const DebVersion& other) const;
    bool operator==(const DebVersion& other) const { return (*this <=> other) == 0; }

private:
    unsigned long m_epoch = 0;
    std::string m_upstream;
    std::string m_revision;
    std::string m_text;
};

// dpkg's verrevcmp on one part (upstream or revision): <0, 0, >0.
int compare_version_part(std::string_view a, std::string_view b);

} // namespace dlenv::deb
