#include "pypi/entry_points.h"

#include "core/error.h"

#include <algorithm>
#include <map>
#include <regex>

namespace dlenv::pypi {
namespace {

std::string trim(std::string_view text)
{
    std::size_t begin = text.find_first_not_of(" \t\r");
    if (begin == std::string_view::npos)
        return {};
    return std::string(text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1));
}

// name -> "module:attribute", from the two script sections of an INI file.
std::map<std::string, std::string> script_sections(std::string_view text)
{
    std::map<std::string, std::string> out;
    bool in_scripts = false;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        std::string line = trim(text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
        pos = end == std::string_view::npos ? text.size() : end + 1;
        if (line.empty() || line.front() == '#' || line.front() == ';')
            continue;
        if (line.front() == '[') {
            in_scripts = line == "[console_scripts]" || line == "[gui_scripts]";
            continue;
        }
        std::size_t equals = line.find('=');
        if (in_scripts && equals != std::string::npos)
            out[trim(line.substr(0, equals))] = trim(line.substr(equals + 1));
        else if (in_scripts)
            out[line] = "";
    }
    return out;
}

} // namespace

std::vector<ScriptEntry> scripts_of_entry_points(
    std::string_view text, const PythonVersion& python, const std::string& source)
{
    std::map<std::string, std::string> entries = script_sections(text);
    const std::string major = std::to_string(python.major());
    const std::string minor = major + "." + std::to_string(python.minor());
    // pip renames its own and setuptools' scripts after the Python it installs for.
    auto versioned = [&](const std::string& name, const std::regex& others, std::vector<std::string> names) {
        auto it = entries.find(name);
        if (it == entries.end())
            return;
        std::string value = it->second;
        for (auto e = entries.begin(); e != entries.end();)
            e = std::regex_match(e->first, others) ? entries.erase(e) : std::next(e);
        for (const auto& n : names)
            entries[n] = value;
    };
    versioned("pip", std::regex(R"(pip(\d+(\.\d+)?)?)"), { "pip", "pip" + major, "pip" + minor });
    versioned("easy_install", std::regex(R"(easy_install(-\d+\.\d+)?)"), { "easy_install", "easy_install-" + minor });

    std::vector<ScriptEntry> out;
    for (const auto& [name, value] : entries) {
        // "module:attr [extra]": the extras only mattered to pkg_resources.
        std::string target = trim(value.substr(0, value.find('[')));
        std::size_t colon = target.find(':');
        if (name.empty() || colon == std::string::npos || colon == 0 || colon + 1 == target.size())
            throw Error(ErrorCode::invalid_input,
                source + ": entry point '" + name + " = " + value + "' is not 'name = module:attribute'",
                "the wheel is malformed: rebuild it");
        out.push_back({ name, trim(target.substr(0, colon)), trim(target.substr(colon + 1)) });
    }
    return out;
}

std::string script_text(const ScriptEntry& entry, const std::string& interpreter)
{
    std::string import_name = entry.attribute.substr(0, entry.attribute.find('.'));
    return "#!" + interpreter + "\n"
        + "# -*- coding: utf-8 -*-\n"
          "import re\n"
          "import sys\n"
          "from "
        + entry.module + " import " + import_name + "\n"
        + "if __name__ == '__main__':\n"
          "    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n"
          "    sys.exit("
        + entry.attribute + "())\n";
}

} // namespace dlenv::pypi
