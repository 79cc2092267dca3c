#include "deb/version.h"

#include "core/error.h"

#include <algorithm>

namespace dlenv::deb {
namespace {

bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// The weight dpkg gives a non-digit character: '~' sorts before the end of the string,
// the end before letters, letters before everything else.
int order(char c)
{
    if (is_digit(c))
        return 0;
    if (is_alpha(c))
        return c;
    if (c == '~')
        return -1;
    if (c != 0)
        return c + 256;
    return 0;
}

[[noreturn]] void refuse(const std::string& where, std::string_view text, const std::string& why)
{
    throw Error(ErrorCode::invalid_input, where + ": '" + std::string(text) + "' is not a Debian version: " + why,
        "Debian Policy 5.6.12 gives the form [epoch:]upstream_version[-debian_revision]");
}

bool allowed(std::string_view part, std::string_view extra)
{
    for (char c : part)
        if (!is_digit(c) && !is_alpha(c) && c != '.' && c != '+' && c != '~' && extra.find(c) == std::string_view::npos)
            return false;
    return true;
}

} // namespace

int compare_version_part(std::string_view a, std::string_view b)
{
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        int first_diff = 0;
        while ((i < a.size() && !is_digit(a[i])) || (j < b.size() && !is_digit(b[j]))) {
            int ac = order(i < a.size() ? a[i] : 0);
            int bc = order(j < b.size() ? b[j] : 0);
            if (ac != bc)
                return ac - bc;
            ++i;
            ++j;
        }
        while (i < a.size() && a[i] == '0')
            ++i;
        while (j < b.size() && b[j] == '0')
            ++j;
        while (i < a.size() && is_digit(a[i]) && j < b.size() && is_digit(b[j])) {
            if (!first_diff)
                first_diff = a[i] - b[j];
            ++i;
            ++j;
        }
        if (i < a.size() && is_digit(a[i]))
            return 1;
        if (j < b.size() && is_digit(b[j]))
            return -1;
        if (first_diff)
            return first_diff;
    }
    return 0;
}

DebVersion DebVersion::parse(std::string_view text, const std::string& where)
{
    DebVersion version;
    version.m_text = std::string(text);
    if (text.empty())
        refuse(where, text, "it is empty");
    if (text.size() > 256)
        refuse(where, text.substr(0, 64), "it is longer than 256 characters");
    std::string_view rest = text;
    std::size_t colon = rest.find(':');
    if (colon != std::string_view::npos) {
        std::string_view epoch = rest.substr(0, colon);
        if (epoch.empty() || epoch.size() > 9 || !std::all_of(epoch.begin(), epoch.end(), is_digit))
            refuse(where, text, "the epoch is not a number");
        version.m_epoch = std::stoul(std::string(epoch));
        rest = rest.substr(colon + 1);
    }
    std::size_t dash = rest.rfind('-');
    std::string_view upstream = dash == std::string_view::npos ? rest : rest.substr(0, dash);
    if (dash != std::string_view::npos) {
        std::string_view revision = rest.substr(dash + 1);
        if (revision.empty() || !allowed(revision, ""))
            refuse(where, text, "the revision holds characters other than [A-Za-z0-9.+~]");
        version.m_revision = std::string(revision);
    }
    if (upstream.empty() || !is_digit(upstream.front()))
        refuse(where, text, "the upstream version does not start with a digit");
    std::string extra; // a '-' only before a revision, a ':' only after an epoch
    if (dash != std::string_view::npos)
        extra += '-';
    if (colon != std::string_view::npos)
        extra += ':';
    if (!allowed(upstream, extra))
        refuse(where, text, "the upstream version holds a character it may not");
    version.m_upstream = std::string(upstream);
    return version;
}

std::strong_ordering DebVersion::operator<=>(const DebVersion& other) const
{
    if (m_epoch != other.m_epoch)
        return m_epoch <=> other.m_epoch;
    if (int c = compare_version_part(m_upstream, other.m_upstream))
        return c <=> 0;
    return compare_version_part(m_revision, other.m_revision) <=> 0;
}

} // namespace dlenv::deb
