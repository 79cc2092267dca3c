#pragma once

#include "core/file.h"

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

// The two places the module graph is written: each module's dlenv_module() call in
// src/<module>/CMakeLists.txt, and the module table of docs/DESIGN.md.

// A module's direct dependencies, by module name (no dlenv_ prefix).
using ModuleGraph = std::map<std::string, std::set<std::string>>;

// What one src/<module>/CMakeLists.txt declares with dlenv_module(NAME ... DEPS ...).
struct ModuleDeclaration {
    std::string name; // NAME; empty when the file has no dlenv_module() call
    std::set<std::string> modules; // DEPS of the form dlenv_<module>, prefix removed
    std::vector<std::string> others; // DEPS that are neither dlenv_<module> nor NAMESPACE::target
};

inline ModuleDeclaration read_module_declaration(const std::filesystem::path& cmake_lists)
{
    static const std::regex comment("#[^\n]*");
    std::string text = std::regex_replace(dlenv::read_file(cmake_lists), comment, "");
    ModuleDeclaration out;
    std::size_t open = text.find("dlenv_module(");
    if (open == std::string::npos)
        return out;
    open += std::string("dlenv_module(").size();
    std::istringstream arguments(text.substr(open, text.find(')', open) - open));
    arguments >> out.name;
    std::string section;
    for (std::string word; arguments >> word;) {
        if (word == "SOURCES" || word == "DEPS" || word == "PRIVATE_DEPS")
            section = word;
        else if (section != "DEPS")
            continue;
        else if (word.starts_with("dlenv_"))
            out.modules.insert(word.substr(std::string("dlenv_").size()));
        else if (word.find("::") == std::string::npos)
            out.others.push_back(word);
    }
    return out;
}

// One row of the module table: a module and the modules it depends on.
struct ModuleRow {
    std::string module;
    std::set<std::string> depends_on;
};

// The rows, in order, of the table of `design` whose header is "| module | owns | depends
// on |": the module of each row (the `name` or `name/` in its first cell) and the modules
// named in backquotes in its third cell ("—" for none). Empty when there is no such table.
inline std::vector<ModuleRow> read_module_table(const std::filesystem::path& design)
{
    static const std::regex header(R"(^\|\s*module\s*\|\s*owns\s*\|\s*depends on\s*\|\s*$)");
    static const std::regex name("`([a-z_]+)/?`");
    std::vector<ModuleRow> out;
    std::istringstream lines(dlenv::read_file(design));
    std::string line;
    while (std::getline(lines, line) && !std::regex_match(line, header)) { }
    std::getline(lines, line); // the |---| row
    while (std::getline(lines, line) && line.starts_with("|")) {
        std::vector<std::string> cells;
        std::istringstream row(line.substr(1));
        for (std::string cell; std::getline(row, cell, '|');)
            cells.push_back(cell);
        std::smatch module;
        if (cells.size() < 3 || !std::regex_search(cells[0], module, name))
            continue;
        ModuleRow& entry = out.emplace_back(ModuleRow { module[1], {} });
        for (std::sregex_iterator it(cells[2].begin(), cells[2].end(), name), end; it != end; ++it)
            entry.depends_on.insert((*it)[1]);
    }
    return out;
}
