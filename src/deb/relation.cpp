#include "deb/relation.h"

#include "core/error.h"
#include "core/text.h"

namespace dlenv::deb {
namespace {

std::vector<std::string_view> split(std::string_view text, char separator)
{
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            return parts;
        start = end + 1;
    }
}

struct OpSpelling {
    std::string_view text;
    Relation::Op op;
};

// Longest first, so "<=" is not read as "<"; dpkg still reads the obsolete "<" and ">"
// as <= and >=.
constexpr OpSpelling k_ops[] = { { "<<", Relation::Op::earlier }, { "<=", Relation::Op::earlier_equal },
    { ">>", Relation::Op::later }, { ">=", Relation::Op::later_equal }, { "=", Relation::Op::equal },
    { "<", Relation::Op::earlier_equal }, { ">", Relation::Op::later_equal } };

std::string_view spelling(Relation::Op op)
{
    for (const auto& [text, each] : k_ops)
        if (each == op)
            return text;
    return "";
}

Relation parse_relation(std::string_view text, const std::string& where)
{
    auto fail = [&](const std::string& why) -> Error {
        return Error(ErrorCode::invalid_input, where + ": '" + std::string(text) + "': " + why);
    };
    if (text.find('[') != std::string_view::npos || text.find('<') < text.find('('))
        throw fail("architecture and build-profile restrictions are for source packages");
    Relation relation;
    std::size_t paren = text.find('(');
    std::string_view name = trim_whitespace(text.substr(0, paren));
    if (std::size_t colon = name.find(':'); colon != std::string_view::npos) {
        relation.arch = std::string(name.substr(colon + 1));
        name = name.substr(0, colon);
        if (relation.arch.empty()
            || relation.arch.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
            throw fail("the qualifier :" + relation.arch + " is no architecture");
    }
    if (!is_package_name(name))
        throw fail("not a package name");
    relation.name = std::string(name);
    if (paren == std::string_view::npos)
        return relation;
    if (text.back() != ')' || text.find(')') != text.size() - 1)
        throw fail("expected a version relation in parentheses at its end");
    std::string_view inside = trim_whitespace(text.substr(paren + 1, text.size() - paren - 2));
    for (const auto& [spelled, op] : k_ops) {
        if (!inside.starts_with(spelled))
            continue;
        relation.op = op;
        relation.version = DebVersion::parse(trim_whitespace(inside.substr(spelled.size())), where);
        return relation;
    }
    throw fail("expected one of << <= = >= >> before the version");
}

} // namespace

bool is_package_name(std::string_view name)
{
    if (name.size() < 2 || name.size() > 128)
        return false;
    auto lower_or_digit = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (!lower_or_digit(name.front()))
        return false;
    for (char c : name)
        if (!lower_or_digit(c) && c != '+' && c != '-' && c != '.')
            return false;
    return true;
}

bool Relation::admits(const DebVersion& candidate) const
{
    if (op == Op::any)
        return true;
    auto order = candidate <=> *version;
    switch (op) {
    case Op::earlier:
        return order < 0;
    case Op::earlier_equal:
        return order <= 0;
    case Op::equal:
        return order == 0;
    case Op::later_equal:
        return order >= 0;
    case Op::later:
        return order > 0;
    case Op::any:
        break;
    }
    return true;
}

std::string Relation::text() const
{
    std::string out = qualified(*this);
    if (version)
        out += " (" + std::string(spelling(op)) + " " + version->text() + ")";
    return out;
}

std::string qualified(const Relation& relation)
{
    return relation.arch.empty() ? relation.name : relation.name + ":" + relation.arch;
}

std::vector<Alternatives> parse_relations(std::string_view field, const std::string& where)
{
    std::vector<Alternatives> groups;
    std::string_view text = trim_whitespace(field);
    if (text.empty())
        return groups;
    for (std::string_view group : split(text, ',')) {
        Alternatives alternatives;
        for (std::string_view one : split(group, '|')) {
            one = trim_whitespace(one);
            if (one.empty())
                throw Error(ErrorCode::invalid_input,
                    where + ": an empty relation in '" + std::string(trim_whitespace(group)) + "'");
            alternatives.push_back(parse_relation(one, where));
        }
        groups.push_back(std::move(alternatives));
    }
    return groups;
}

} // namespace dlenv::deb
