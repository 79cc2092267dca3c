#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::deb {

// One field of a control stanza: "Depends: libc6 (>= 2.34)". A multi-line value keeps its
// continuation lines as written ("first\n second\n ."); a single-line one is trimmed.
struct ControlField {
    std::string name;
    std::string value;
};

// One stanza (paragraph) of a control file, with where it starts and its exact bytes.
struct Stanza {
    std::vector<ControlField> fields;
    std::string text; // the stanza's lines as read, each ending in '\n'
    std::size_t line = 0; // of its first field, from 1

    // A field by name, case-insensitively as Debian Policy §5.1 has it; nullopt when absent.
    std::optional<std::string> find(std::string_view name) const;
};

// Bounds on what a parser of outside input accepts.
struct ControlLimits {
    std::size_t max_stanzas = 200000; // Debian's main has about 65,000 packages per architecture
    std::size_t max_fields = 200; // per stanza
    std::size_t max_value = 1 << 20; // bytes of one field's value
};

// Parses the RFC 822-like control format of Debian Policy §5.1 (dpkg status, Packages,
// Release, a .deb's control file): "Name: value" fields, continuation lines that start with
// a space or tab, stanzas separated by empty lines (or lines of only spaces and tabs).
// Throws Error(invalid_input) "FILE:LINE: why" for a line that is neither, a continuation
// with no field before it, a field twice in one stanza, a field name that is not
// printable ASCII, or a bound passed.
std::vector<Stanza> parse_control(const std::string& file, std::string_view text, const ControlLimits& limits = {});

// The one stanza of a control file that must hold exactly one (a .deb's control).
Stanza parse_single_stanza(const std::string& file, std::string_view text);

} // namespace dlenv::deb
