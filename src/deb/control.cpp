#include "deb/control.h"

#include "core/error.h"
#include "core/text.h"

namespace dlenv::deb {
namespace {

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

bool blank(std::string_view line)
{
    return trim(line).empty();
}

// Field names are US-ASCII printable characters but ':' and space, not starting with '#' or '-'.
bool valid_name(std::string_view name)
{
    if (name.empty() || name.front() == '#' || name.front() == '-')
        return false;
    for (char c : name)
        if (c <= 32 || c >= 127 || c == ':')
            return false;
    return true;
}

class Parser {
public:
    Parser(const std::string& file, const ControlLimits& limits)
        : m_file(file)
        , m_limits(limits)
    {
    }

    void line(std::string_view line, std::size_t number)
    {
        if (blank(line)) {
            finish();
            return;
        }
        if (line.front() == ' ' || line.front() == '\t') {
            if (!m_open)
                fail(number, "a continuation line with no field before it");
            ControlField& field = m_current.fields.back();
            field.value += "\n" + std::string(line.back() == '\r' ? line.substr(0, line.size() - 1) : line);
            check_value(field, number);
        } else
            add_field(line, number);
        m_current.text += std::string(line) + "\n";
    }

    std::vector<Stanza> finish_all()
    {
        finish();
        return std::move(m_stanzas);
    }

private:
    void add_field(std::string_view line, std::size_t number)
    {
        std::size_t colon = line.find(':');
        if (colon == std::string_view::npos)
            fail(number, "expected \"Field: value\" or a continuation line starting with a space");
        std::string_view name = line.substr(0, colon);
        if (!valid_name(name))
            fail(number, "'" + std::string(name.substr(0, 64)) + "' is not a field name");
        if (!m_open) {
            if (m_stanzas.size() >= m_limits.max_stanzas)
                fail(number, "more than " + std::to_string(m_limits.max_stanzas) + " stanzas");
            m_current = Stanza();
            m_current.line = number;
            m_open = true;
        }
        for (const auto& field : m_current.fields)
            if (equal_ignoring_case(field.name, name))
                fail(number, "field " + std::string(name) + " twice in one stanza");
        if (m_current.fields.size() >= m_limits.max_fields)
            fail(number, "more than " + std::to_string(m_limits.max_fields) + " fields in one stanza");
        m_current.fields.push_back({ std::string(name), std::string(trim(line.substr(colon + 1))) });
        check_value(m_current.fields.back(), number);
    }

    void check_value(const ControlField& field, std::size_t number) const
    {
        if (field.value.size() > m_limits.max_value)
            fail(number, "field " + field.name + " is longer than " + std::to_string(m_limits.max_value) + " bytes");
    }

    void finish()
    {
        if (m_open)
            m_stanzas.push_back(std::move(m_current));
        m_open = false;
    }

    [[noreturn]] void fail(std::size_t number, const std::string& why) const
    {
        throw Error(ErrorCode::invalid_input, m_file + ":" + std::to_string(number) + ": " + why);
    }

    const std::string& m_file;
    const ControlLimits& m_limits;
    std::vector<Stanza> m_stanzas;
    Stanza m_current;
    bool m_open = false; // m_current holds a field
};

} // namespace

std::optional<std::string> Stanza::find(std::string_view name) const
{
    for (const auto& field : fields)
        if (equal_ignoring_case(field.name, name))
            return field.value;
    return std::nullopt;
}

std::vector<Stanza> parse_control(const std::string& file, std::string_view text, const ControlLimits& limits)
{
    Parser parser(file, limits);
    std::size_t number = 0;
    while (!text.empty()) {
        std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        parser.line(line, ++number);
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    }
    return parser.finish_all();
}

Stanza parse_single_stanza(const std::string& file, std::string_view text)
{
    std::vector<Stanza> stanzas = parse_control(file, text, { 1, 200, 1 << 20 });
    if (stanzas.size() != 1)
        throw Error(ErrorCode::invalid_input, file + ": expected one stanza, found none");
    return stanzas.front();
}

} // namespace dlenv::deb
