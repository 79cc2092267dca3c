#include "advise/units.h"

#include <cmath>
#include <cstdio>

namespace dlenv::advise {
namespace {

std::string printed(const char* format, double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

} // namespace

std::string count_text(double count)
{
    if (count >= 1e12)
        return factor_text(count / 1e12) + "T";
    if (count >= 1e9)
        return factor_text(count / 1e9) + "B";
    if (count >= 1e6)
        return printed("%.1f", count / 1e6) + "M";
    return printed("%.0f", count);
}

std::string gb_text(double bytes)
{
    return printed("%.2f", bytes / k_gb);
}

std::string factor_text(double value)
{
    return printed("%.6g", value);
}

} // namespace dlenv::advise
