#include "pypi/marker.h"

#include "core/error.h"
#include "core/pep440.h"
#include "pypi/name.h"
#include "pypi/specifier.h"

#include <array>
#include <cctype>
#include <vector>

namespace dlenv::pypi {

struct Marker::Node {
    enum class Kind { all, any, compare };
    Kind kind = Kind::compare;
    std::vector<std::shared_ptr<const Node>> children; // all, any
    // compare: each side is a variable name or, when quoted, a literal.
    std::string left, op, right;
    bool left_quoted = false, right_quoted = false;
};

namespace {

const std::array<std::string_view, 13> k_variables = {
    "extra",
    "implementation_name",
    "implementation_version",
    "os_name",
    "platform_machine",
    "platform_python_implementation",
    "platform_release",
    "platform_system",
    "platform_version",
    "python_full_version",
    "python_version",
    "sys_platform",
    "os.name",
};

class Parser {
public:
    explicit Parser(std::string_view text)
        : m_text(text)
    {
    }

    std::shared_ptr<const Marker::Node> parse()
    {
        auto root = parse_or();
        skip_space();
        if (m_pos != m_text.size())
            fail("unexpected '" + std::string(m_text.substr(m_pos)) + "'");
        return root;
    }

private:
    using NodePtr = std::shared_ptr<const Marker::Node>;

    [[noreturn]] void fail(const std::string& why) const
    {
        throw Error(ErrorCode::invalid_input, "marker '" + std::string(m_text) + "': " + why,
            "write markers as PEP 508 does: python_version >= \"3.8\" and sys_platform == \"linux\"");
    }
    void skip_space()
    {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }
    bool take_word(std::string_view word)
    {
        skip_space();
        if (m_text.substr(m_pos, word.size()) != word)
            return false;
        std::size_t end = m_pos + word.size();
        if (end < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[end])) || m_text[end] == '_'))
            return false;
        m_pos = end;
        return true;
    }
    NodePtr join(Marker::Node::Kind kind, std::vector<NodePtr> children)
    {
        if (children.size() == 1)
            return children.front();
        auto node = std::make_shared<Marker::Node>();
        node->kind = kind;
        node->children = std::move(children);
        return node;
    }
    NodePtr parse_or()
    {
        std::vector<NodePtr> children { parse_and() };
        while (take_word("or"))
            children.push_back(parse_and());
        return join(Marker::Node::Kind::any, std::move(children));
    }
    NodePtr parse_and()
    {
        std::vector<NodePtr> children { parse_atom() };
        while (take_word("and"))
            children.push_back(parse_atom());
        return join(Marker::Node::Kind::all, std::move(children));
    }
    NodePtr parse_atom()
    {
        skip_space();
        if (m_pos < m_text.size() && m_text[m_pos] == '(') {
            ++m_pos;
            auto inner = parse_or();
            skip_space();
            if (m_pos >= m_text.size() || m_text[m_pos] != ')')
                fail("a '(' is not closed");
            ++m_pos;
            return inner;
        }
        auto node = std::make_shared<Marker::Node>();
        node->left_quoted = parse_value(node->left);
        node->op = parse_op();
        node->right_quoted = parse_value(node->right);
        if (node->left_quoted == node->right_quoted)
            fail("'" + node->left + " " + node->op + " " + node->right
                + "' must compare a variable with a quoted string");
        return node;
    }
    // Returns true for a quoted literal, false for a variable.
    bool parse_value(std::string& out)
    {
        skip_space();
        if (m_pos < m_text.size() && (m_text[m_pos] == '"' || m_text[m_pos] == '\'')) {
            char quote = m_text[m_pos];
            std::size_t end = m_text.find(quote, m_pos + 1);
            if (end == std::string_view::npos)
                fail("a string is not closed");
            out = std::string(m_text.substr(m_pos + 1, end - m_pos - 1));
            m_pos = end + 1;
            return true;
        }
        for (std::string_view variable : k_variables)
            if (take_word(variable)) {
                out = variable == "os.name" ? "os_name" : std::string(variable);
                return false;
            }
        fail("expected a marker variable or a quoted string at '" + std::string(m_text.substr(m_pos)) + "'");
    }
    std::string parse_op()
    {
        skip_space();
        if (take_word("in"))
            return "in";
        if (take_word("not")) {
            if (!take_word("in"))
                fail("'not' must be followed by 'in'");
            return "not in";
        }
        for (std::string_view op : { "===", "==", "!=", "~=", "<=", ">=", "<", ">" })
            if (m_text.substr(m_pos, op.size()) == op) {
                m_pos += op.size();
                return std::string(op);
            }
        fail("expected a comparison operator at '" + std::string(m_text.substr(m_pos)) + "'");
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

bool compare(const Marker::Node& node, const MarkerEnvironment& env, std::string_view extra, std::string_view text)
{
    auto value = [&](const std::string& side, bool quoted) -> std::string {
        if (quoted)
            return side;
        if (side == "extra")
            return std::string(extra);
        return env.at(side);
    };
    std::string left = value(node.left, node.left_quoted);
    std::string right = value(node.right, node.right_quoted);
    bool is_extra = (!node.left_quoted && node.left == "extra") || (!node.right_quoted && node.right == "extra");
    if (is_extra) {
        left = normalize_name(left);
        right = normalize_name(right);
    }
    if (node.op == "in")
        return right.find(left) != std::string::npos;
    if (node.op == "not in")
        return right.find(left) == std::string::npos;
    if (node.op != "===" && !is_extra) {
        auto version = Pep440Version::try_parse(left);
        auto bound = Pep440Version::try_parse(right.ends_with(".*") ? right.substr(0, right.size() - 2) : right);
        if (version && bound)
            return SpecifierSet::parse(node.op + right).contains(*version, true);
    }
    if (node.op == "==" || node.op == "===")
        return left == right;
    if (node.op == "!=")
        return left != right;
    throw Error(ErrorCode::invalid_input,
        "marker '" + std::string(text) + "': '" + left + "' " + node.op + " '" + right
            + "' compares strings that are not versions",
        "compare non-version values with == or !=");
}

bool evaluate_node(
    const Marker::Node& node, const MarkerEnvironment& env, std::string_view extra, std::string_view text)
{
    switch (node.kind) {
    case Marker::Node::Kind::all:
        for (const auto& child : node.children)
            if (!evaluate_node(*child, env, extra, text))
                return false;
        return true;
    case Marker::Node::Kind::any:
        for (const auto& child : node.children)
            if (evaluate_node(*child, env, extra, text))
                return true;
        return false;
    case Marker::Node::Kind::compare:
        return compare(node, env, extra, text);
    }
    return false;
}

bool mentions(const Marker::Node& node)
{
    if (node.kind == Marker::Node::Kind::compare)
        return (!node.left_quoted && node.left == "extra") || (!node.right_quoted && node.right == "extra");
    for (const auto& child : node.children)
        if (mentions(*child))
            return true;
    return false;
}

} // namespace

Marker Marker::parse(std::string_view text)
{
    Marker marker;
    marker.m_root = Parser(text).parse();
    std::size_t begin = text.find_first_not_of(" \t");
    std::size_t end = text.find_last_not_of(" \t");
    marker.m_text = std::string(text.substr(begin, end - begin + 1));
    return marker;
}

bool Marker::evaluate(const MarkerEnvironment& env, std::string_view extra) const
{
    return evaluate_node(*m_root, env, extra, m_text);
}

bool Marker::mentions_extra() const
{
    return mentions(*m_root);
}

} // namespace dlenv::pypi
