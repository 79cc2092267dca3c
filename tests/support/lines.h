#pragma once

#include <sstream>
#include <string>
#include <vector>

// The lines of `text`, without their newlines, to compare whole outputs at once.
inline std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}
