#include "registry/challenge.h"
#include "core/text.h"

namespace dlenv::registry {
namespace {

void skip_spaces(std::string_view& text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
}

// A quoted-string with its backslash escapes, or a token up to the next comma.
std::string take_value(std::string_view& text)
{
    std::string value;
    if (!text.empty() && text.front() == '"') {
        text.remove_prefix(1);
        while (!text.empty() && text.front() != '"') {
            if (text.front() == '\\' && text.size() > 1)
                text.remove_prefix(1);
            value += text.front();
            text.remove_prefix(1);
        }
        if (!text.empty())
            text.remove_prefix(1);
        return value;
    }
    std::size_t end = text.find(',');
    value = std::string(text.substr(0, end));
    while (!value.empty() && value.back() == ' ')
        value.pop_back();
    text.remove_prefix(end == std::string_view::npos ? text.size() : end);
    return value;
}

} // namespace

std::string Challenge::parameter(const std::string& name) const
{
    auto found = parameters.find(name);
    return found == parameters.end() ? "" : found->second;
}

std::optional<Challenge> parse_challenge(std::string_view header)
{
    skip_spaces(header);
    std::size_t end = header.find(' ');
    Challenge challenge { ascii_lowercase(header.substr(0, end)), {} };
    if (challenge.scheme.empty())
        return std::nullopt;
    header.remove_prefix(end == std::string_view::npos ? header.size() : end);
    while (!header.empty()) {
        skip_spaces(header);
        std::size_t equals = header.find('=');
        if (equals == std::string_view::npos)
            break;
        std::string name = ascii_lowercase(header.substr(0, equals));
        header.remove_prefix(equals + 1);
        challenge.parameters[name] = take_value(header);
        skip_spaces(header);
        if (header.empty() || header.front() != ',')
            break;
        header.remove_prefix(1);
    }
    return challenge;
}

} // namespace dlenv::registry
