#include "cli/human_size.h"

#include <cstdio>
#include <iterator>

namespace dlenv::cli {

std::string human_size(std::int64_t bytes)
{
    const char* units[] = { "B", "kB", "MB", "GB", "TB" };
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (value >= 1000 && unit + 1 < std::size(units)) {
        value /= 1000;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
    return text;
}

} // namespace dlenv::cli
