#include "pypi/requirement.h"

#include "core/error.h"
#include "pypi/name.h"

#include <algorithm>
#include <cctype>

namespace dlenv::pypi {
namespace {

Error bad_requirement(std::string_view text, const std::string& why, std::string hint = {})
{
    if (hint.empty())
        hint = "write it as PEP 508 does: torch==2.1.2, requests[socks]>=2.31; python_version >= \"3.8\"";
    return Error(ErrorCode::invalid_input, "requirement '" + std::string(text) + "': " + why, std::move(hint));
}

std::string_view trim(std::string_view text)
{
    std::size_t begin = text.find_first_not_of(" \t");
    if (begin == std::string_view::npos)
        return {};
    return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
}

bool is_name_char(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
}

} // namespace

Requirement Requirement::parse(std::string_view text)
{
    Requirement r;
    std::string_view rest = trim(text);
    std::size_t semicolon = rest.find(';');
    std::string_view head = trim(rest.substr(0, semicolon));

    std::size_t name_end = 0;
    while (name_end < head.size() && is_name_char(head[name_end]))
        ++name_end;
    r.name = std::string(head.substr(0, name_end));
    if (!is_valid_name(r.name))
        throw bad_requirement(
            text, r.name.empty() ? "it starts with no project name" : "'" + r.name + "' is not a valid project name");
    head = trim(head.substr(name_end));

    if (head.starts_with("[")) {
        std::size_t close = head.find(']');
        if (close == std::string_view::npos)
            throw bad_requirement(text, "the list of extras is not closed");
        std::string_view list = head.substr(1, close - 1);
        while (!trim(list).empty()) {
            std::size_t comma = list.find(',');
            std::string extra(trim(list.substr(0, comma)));
            if (!is_valid_name(extra))
                throw bad_requirement(text, "'" + extra + "' is not a valid extra name");
            r.extras.push_back(normalize_name(extra));
            list = comma == std::string_view::npos ? std::string_view {} : list.substr(comma + 1);
        }
        std::sort(r.extras.begin(), r.extras.end());
        r.extras.erase(std::unique(r.extras.begin(), r.extras.end()), r.extras.end());
        head = trim(head.substr(close + 1));
    }

    if (head.starts_with("@"))
        throw bad_requirement(text,
            "it names a URL ('" + std::string(trim(head.substr(1))) + "'), not versions from an index",
            "dlenv pins packages from indexes by sha256: put the wheel in a wheelhouse or index and require it by "
            "version");
    if (head.starts_with("(")) {
        if (!head.ends_with(")"))
            throw bad_requirement(text, "a '(' is not closed");
        head = trim(head.substr(1, head.size() - 2));
    }
    if (!head.empty()) {
        try {
            r.specifiers = SpecifierSet::parse(head);
        } catch (const Error& e) {
            throw bad_requirement(text, e.message());
        }
    }
    if (semicolon != std::string_view::npos) {
        std::string_view marker = trim(rest.substr(semicolon + 1));
        if (marker.empty())
            throw bad_requirement(text, "';' is followed by no marker");
        try {
            r.marker = Marker::parse(marker);
        } catch (const Error& e) {
            throw bad_requirement(text, e.message());
        }
    }
    return r;
}

std::string Requirement::key() const
{
    return normalize_name(name);
}

bool Requirement::applies(const MarkerEnvironment& env, std::string_view extra) const
{
    return !marker || marker->evaluate(env, extra);
}

std::string Requirement::str() const
{
    std::string out = name;
    if (!extras.empty()) {
        out += "[";
        for (std::size_t i = 0; i < extras.size(); ++i)
            out += (i ? "," : "") + extras[i];
        out += "]";
    }
    out += specifiers.str();
    if (marker)
        out += "; " + marker->str();
    return out;
}

} // namespace dlenv::pypi
