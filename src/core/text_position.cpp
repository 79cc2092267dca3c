#include "core/text_position.h"

namespace dlenv {

std::string text_position(std::string_view text, std::size_t byte)
{
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i + 1 < byte && i < text.size(); ++i, ++column)
        if (text[i] == '\n')
            line++, column = 0;
    return std::to_string(line) + ":" + std::to_string(column);
}

} // namespace dlenv
