#include "core/pep440.h"

#include "core/error.h"
#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

namespace dlenv {
namespace {

// A cursor over the lower-cased input; every `take_*` consumes only on success.
class Scanner {
public:
    explicit Scanner(std::string_view text)
        : m_text(text)
    {
    }

    bool done() const { return m_pos == m_text.size(); }
    // A number too large for 64 bits was taken: the text is refused rather than read
    // as the wrapped value, which would equal some other version.
    bool overflowed() const { return m_overflowed; }
    char peek() const { return done() ? '\0' : m_text[m_pos]; }

    bool take(std::string_view word)
    {
        if (m_text.substr(m_pos, word.size()) != word)
            return false;
        m_pos += word.size();
        return true;
    }
    bool take_separator()
    {
        if (peek() == '.' || peek() == '-' || peek() == '_') {
            ++m_pos;
            return true;
        }
        return false;
    }
    std::optional<std::uint64_t> take_number()
    {
        std::size_t start = m_pos;
        std::uint64_t value = 0;
        while (!done() && std::isdigit(static_cast<unsigned char>(peek()))) {
            auto digit = static_cast<std::uint64_t>(peek() - '0');
            if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
                m_overflowed = true;
            value = value * 10 + digit;
            ++m_pos;
        }
        if (m_pos == start)
            return std::nullopt;
        return value;
    }
    std::size_t position() const { return m_pos; }
    void rewind(std::size_t pos) { m_pos = pos; }
    std::string rest() const { return std::string(m_text.substr(m_pos)); }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
    bool m_overflowed = false;
};

std::optional<Pep440Version::PreKind> take_pre_kind(Scanner& s)
{
    using K = Pep440Version::PreKind;
    // Longest spellings first, so "alpha" is not read as "a" + garbage.
    static const std::pair<std::string_view, K> spellings[] = {
        { "preview", K::rc },
        { "alpha", K::alpha },
        { "beta", K::beta },
        { "pre", K::rc },
        { "rc", K::rc },
        { "a", K::alpha },
        { "b", K::beta },
        { "c", K::rc },
    };
    for (const auto& [word, kind] : spellings)
        if (s.take(word))
            return kind;
    return std::nullopt;
}

int compare_local(const std::vector<Pep440Version::LocalSegment>& a, const std::vector<Pep440Version::LocalSegment>& b)
{
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        bool a_num = std::holds_alternative<std::uint64_t>(a[i]);
        bool b_num = std::holds_alternative<std::uint64_t>(b[i]);
        if (a_num != b_num)
            return a_num ? 1 : -1; // numeric segments sort after alphanumeric ones
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    }
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

// PEP 440's sort keys for the suffixes, as integers: a dev-only release sorts before
// every pre-release of the same release, a missing pre-release after all of them.
int pre_rank(const Pep440Version& v)
{
    if (!v.pre() && !v.post() && v.dev())
        return -1;
    return v.pre() ? 0 : 1;
}

} // namespace

std::optional<Pep440Version> Pep440Version::try_parse(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    const std::string folded = ascii_lowercase(text);
    Scanner s(folded);
    Pep440Version v;
    s.take("v");

    std::size_t start = s.position();
    if (auto n = s.take_number(); n && s.take("!"))
        v.m_epoch = *n;
    else
        s.rewind(start);

    while (true) {
        auto n = s.take_number();
        if (!n)
            return std::nullopt;
        v.m_release.push_back(*n);
        // A dot continues the release only when a number follows: "1.0.post1" is a post-release.
        std::size_t dot = s.position();
        if (!s.take("."))
            break;
        if (!std::isdigit(static_cast<unsigned char>(s.peek()))) {
            s.rewind(dot);
            break;
        }
    }

    std::size_t before_pre = s.position();
    s.take_separator();
    if (auto kind = take_pre_kind(s)) {
        s.take_separator();
        v.m_pre = Pre { *kind, s.take_number().value_or(0) };
    } else {
        s.rewind(before_pre);
    }

    std::size_t before_post = s.position();
    if (s.take("-")) {
        if (auto n = s.take_number())
            v.m_post = *n;
        else
            s.rewind(before_post);
    }
    if (!v.m_post) {
        s.take_separator();
        if (s.take("post") || s.take("rev") || s.take("r")) {
            s.take_separator();
            v.m_post = s.take_number().value_or(0);
        } else {
            s.rewind(before_post);
        }
    }

    std::size_t before_dev = s.position();
    s.take_separator();
    if (s.take("dev")) {
        s.take_separator();
        v.m_dev = s.take_number().value_or(0);
    } else {
        s.rewind(before_dev);
    }

    if (s.take("+")) {
        std::string label = s.rest();
        if (label.empty())
            return std::nullopt;
        std::size_t pos = 0;
        while (pos <= label.size()) {
            std::size_t end = label.find_first_of(".-_", pos);
            std::string piece = label.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
            if (piece.empty()
                || !std::all_of(piece.begin(), piece.end(), [](unsigned char c) { return std::isalnum(c); }))
                return std::nullopt;
            if (all_ascii_digits(piece)) { // not empty: refused above
                std::uint64_t number = 0;
                auto [last, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), number);
                if (ec != std::errc())
                    return std::nullopt;
                v.m_local.emplace_back(number);
            } else
                v.m_local.emplace_back(piece);
            if (end == std::string::npos)
                break;
            pos = end + 1;
        }
        s.rewind(s.position() + label.size());
    }
    if (!s.done() || s.overflowed())
        return std::nullopt;
    return v;
}

Pep440Version Pep440Version::parse(std::string_view text)
{
    if (auto v = try_parse(text))
        return *v;
    throw Error(ErrorCode::invalid_input, "'" + std::string(text) + "' is not a PEP 440 version",
        "write it as 2.1.2, 2.1.2+cu118 or 2.2.0rc1");
}

std::string Pep440Version::base_str() const
{
    std::string out = m_epoch ? std::to_string(m_epoch) + "!" : "";
    for (std::size_t i = 0; i < m_release.size(); ++i)
        out += (i ? "." : "") + std::to_string(m_release[i]);
    return out;
}

std::string Pep440Version::public_str() const
{
    std::string out = base_str();
    if (m_pre) {
        static const char* names[] = { "a", "b", "rc" };
        out += names[static_cast<int>(m_pre->kind)] + std::to_string(m_pre->number);
    }
    if (m_post)
        out += ".post" + std::to_string(*m_post);
    if (m_dev)
        out += ".dev" + std::to_string(*m_dev);
    return out;
}

std::string Pep440Version::local_str() const
{
    std::string out;
    for (const auto& segment : m_local) {
        if (!out.empty())
            out += ".";
        out += std::holds_alternative<std::uint64_t>(segment) ? std::to_string(std::get<std::uint64_t>(segment))
                                                              : std::get<std::string>(segment);
    }
    return out;
}

std::string Pep440Version::str() const
{
    return m_local.empty() ? public_str() : public_str() + "+" + local_str();
}

Pep440Version Pep440Version::without_local() const
{
    Pep440Version copy = *this;
    copy.m_local.clear();
    return copy;
}

std::strong_ordering operator<=>(const Pep440Version& a, const Pep440Version& b)
{
    if (a.m_epoch != b.m_epoch)
        return a.m_epoch <=> b.m_epoch;
    for (std::size_t i = 0; i < std::max(a.m_release.size(), b.m_release.size()); ++i) {
        std::uint64_t x = i < a.m_release.size() ? a.m_release[i] : 0;
        std::uint64_t y = i < b.m_release.size() ? b.m_release[i] : 0;
        if (x != y)
            return x <=> y;
    }
    if (auto c = pre_rank(a) <=> pre_rank(b); c != 0)
        return c;
    if (a.m_pre && b.m_pre && a.m_pre != b.m_pre)
        return *a.m_pre <=> *b.m_pre;
    // A missing post-release sorts first; a missing dev-release sorts last.
    if (a.m_post != b.m_post)
        return !a.m_post ? std::strong_ordering::less
            : !b.m_post  ? std::strong_ordering::greater
                         : *a.m_post <=> *b.m_post;
    if (a.m_dev != b.m_dev)
        return !a.m_dev ? std::strong_ordering::greater : !b.m_dev ? std::strong_ordering::less : *a.m_dev <=> *b.m_dev;
    int local = compare_local(a.m_local, b.m_local);
    return local == 0 ? std::strong_ordering::equal
        : local < 0   ? std::strong_ordering::less
                      : std::strong_ordering::greater;
}

} // namespace dlenv
