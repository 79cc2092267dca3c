#pragma once

#include "deb/version.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::deb {

// One relation of a Depends-like field (Debian Policy §7.1): "libc6 (>= 2.34)",
// "python3:any".
struct Relation {
    enum class Op { any, earlier, earlier_equal, equal, later_equal, later }; // <<, <=, =, >=, >>

    std::string name;
    std::string arch; // the qualifier without its colon ("any", "native", "amd64"); "" when none
    Op op = Op::any;
    std::optional<DebVersion> version; // set unless op is any

    bool admits(const DebVersion& candidate) const;
    std::string text() const; // "libc6 (>= 2.34)", as Debian writes it
};

// "a | b": any one of them satisfies the group.
using Alternatives = std::vector<Relation>;

// Whether `name` is a Debian package name (Policy §5.6.1): [a-z0-9][a-z0-9+.-]+.
bool is_package_name(std::string_view name);

// Parses a Depends, Pre-Depends or Provides field: groups separated by ',', alternatives
// by '|'. Architecture and build-profile restrictions ("[amd64]", "<!nocheck>") belong
// to source packages and are refused here; which architecture qualifiers can be met is
// the resolver's to judge.
// Throws Error(invalid_input) "WHERE: why" naming the relation.
std::vector<Alternatives> parse_relations(std::string_view field, const std::string& where);

// "python3 (>= 3.11~)" -> the name, "any" for "python3:any".
std::string qualified(const Relation& relation);

} // namespace dlenv::deb
