#include "core/error.h"

namespace dlenv {

std::string_view to_string(ErrorCode code)
{
    switch (code) {
    case ErrorCode::invalid_input:
        return "invalid_input";
    case ErrorCode::conflict:
        return "conflict";
    case ErrorCode::not_found:
        return "not_found";
    case ErrorCode::io:
        return "io";
    case ErrorCode::network:
        return "network";
    case ErrorCode::auth:
        return "auth";
    case ErrorCode::verification_failed:
        return "verification_failed";
    case ErrorCode::environment:
        return "environment";
    }
    return "unknown";
}

Error::Error(ErrorCode code, std::string message, std::string hint)
    : std::runtime_error(message)
    , m_code(code)
    , m_message(std::move(message))
    , m_hint(std::move(hint))
{
}

Error Error::with_context(std::string context) const
{
    Error copy(m_code, m_message, m_hint);
    copy.m_context = m_context;
    copy.m_context.insert(copy.m_context.begin(), std::move(context));
    static_cast<std::runtime_error&>(copy) = std::runtime_error(render(copy.m_context, m_message));
    return copy;
}

std::string Error::render(const std::vector<std::string>& context, const std::string& message)
{
    std::string out;
    for (const auto& part : context) {
        out += part;
        out += ": ";
    }
    return out + message;
}

} // namespace dlenv
