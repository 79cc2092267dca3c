#include "pypi/wheel_name.h"

#include "core/error.h"
#include "pypi/name.h"

#include <cctype>

namespace dlenv::pypi {
namespace {

std::vector<std::string> split(std::string_view text, char separator)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (true) {
        std::size_t end = text.find(separator, start);
        out.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            return out;
        start = end + 1;
    }
}

} // namespace

WheelName WheelName::parse(std::string_view filename)
{
    auto fail = [&](const std::string& why) {
        return Error(ErrorCode::invalid_input, "wheel file name '" + std::string(filename) + "': " + why,
            "wheel files are named NAME-VERSION(-BUILD)-PYTHON-ABI-PLATFORM.whl (PEP 427)");
    };
    if (!filename.ends_with(".whl"))
        throw fail("it does not end in .whl");
    std::vector<std::string> parts = split(filename.substr(0, filename.size() - 4), '-');
    if (parts.size() != 5 && parts.size() != 6)
        throw fail("it has " + std::to_string(parts.size()) + " dash-separated parts, not 5 or 6");
    for (const auto& part : parts)
        if (part.empty())
            throw fail("it has an empty part");
    WheelName w;
    w.distribution = parts[0];
    if (!is_valid_name(w.distribution))
        throw fail("'" + w.distribution + "' is not a valid project name");
    auto version = Pep440Version::try_parse(parts[1]);
    if (!version)
        throw fail("'" + parts[1] + "' is not a PEP 440 version");
    w.version = *version;
    if (parts.size() == 6) {
        const std::string& build = parts[2];
        std::size_t digits = 0;
        while (digits < build.size() && std::isdigit(static_cast<unsigned char>(build[digits])))
            ++digits;
        if (digits == 0 || digits > 18)
            throw fail("build tag '" + build + "' does not start with a number");
        w.build = BuildTag { std::stoull(build.substr(0, digits)), build.substr(digits) };
    }
    std::size_t first_tag = parts.size() - 3;
    for (const auto& python : split(parts[first_tag], '.'))
        for (const auto& abi : split(parts[first_tag + 1], '.'))
            for (const auto& platform : split(parts[first_tag + 2], '.'))
                w.tags.push_back({ python, abi, platform });
    return w;
}

std::string WheelName::key() const
{
    return normalize_name(distribution);
}

} // namespace dlenv::pypi
