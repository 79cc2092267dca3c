// The module graph, written once: each module's DEPS in src/<module>/CMakeLists.txt. The
// build gives a module the headers of itself and what it links only; these tests hold the
// includes, docs/DESIGN.md's module table and the C libraries' seams to those DEPS.
#include "support/module_graph.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace {

// A C library's header prefix, and the only source files that may include it; the list
// of docs/DESIGN.md's "C libraries".
const std::map<std::string, std::set<std::string>> k_seams = {
    { "nettle/", { "core/sha256.cpp" } },
    { "dlfcn.h", { "core/shared_library.cpp" } },
    { "curl/", { "http/libcurl.h" } },
    { "archive", { "core/libarchive.h" } },
    { "libdeflate", { "oci/gzip_stream.cpp", "oci/layer_stream.cpp" } },
    { "isa-l/", { "oci/gzip_members.cpp" } },
    { "zstd", { "oci/zstd_stream.cpp" } },
    { "yaml-cpp/", { "verify/cdi_yaml.cpp" } },
};

const fs::path k_src = fs::path(DLENV_SOURCE_DIR) / "src";

std::string listed(const std::set<std::string>& names)
{
    if (names.empty())
        return "nothing";
    std::string out;
    for (const std::string& name : names)
        out += (out.empty() ? "" : ", ") + name;
    return out;
}

std::set<std::string> minus(const std::set<std::string>& a, const std::set<std::string>& b)
{
    std::set<std::string> out;
    for (const std::string& name : a)
        if (b.count(name) == 0)
            out.insert(name);
    return out;
}

// Every folder of src/ with a CMakeLists.txt is a module; src/main.cpp only forwards to cli.
ModuleGraph declared_graph()
{
    ModuleGraph graph;
    for (const auto& entry : fs::directory_iterator(k_src)) {
        fs::path cmake_lists = entry.path() / "CMakeLists.txt";
        if (!entry.is_directory() || !fs::exists(cmake_lists))
            continue;
        std::string module = entry.path().filename().string();
        ModuleDeclaration declaration = read_module_declaration(cmake_lists);
        INFO("src/" << module << "/CMakeLists.txt");
        CHECK(declaration.name == module);
        for (const std::string& other : declaration.others)
            FAIL_CHECK("DEPS name " << other << ", which is neither dlenv_<module> nor an imported target"
                                    << " (put plain libraries in PRIVATE_DEPS)");
        graph[module] = declaration.modules;
    }
    return graph;
}

struct Include {
    std::string header; // as written between the quotes or angle brackets
    std::string line;
};

std::vector<Include> includes_of(const fs::path& file)
{
    static const std::regex include(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
    std::vector<Include> out;
    std::istringstream lines(dlenv::read_file(file));
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (std::regex_search(line, m, include))
            out.push_back({ m[1], line });
    }
    return out;
}

// A statement that parses JSON, the ways dlenv can (core/json_reader.h, nlohmann), and
// names a lock: a lockfile, its text, its path.
bool parses_lock_json(const std::string& statement)
{
    static const std::regex parse(R"(JsonReader::parse_\w*document\w*\s*\(|json::parse\s*\()");
    static const std::regex lock("lock", std::regex::icase);
    return std::regex_search(statement, parse) && std::regex_search(statement, lock);
}

std::vector<std::string> statements_of(const fs::path& file)
{
    std::vector<std::string> out;
    std::istringstream source(dlenv::read_file(file));
    for (std::string statement; std::getline(source, statement, ';');)
        out.push_back(statement);
    return out;
}

// The .h and .cpp files of src/<module>/, relative to src/.
std::vector<fs::path> sources_of(const std::string& module)
{
    std::vector<fs::path> out;
    for (const auto& entry : fs::recursive_directory_iterator(k_src / module))
        if (entry.is_regular_file() && (entry.path().extension() == ".h" || entry.path().extension() == ".cpp"))
            out.push_back(fs::relative(entry.path(), k_src));
    return out;
}

// A path of dependencies from `module` back to a module already on `path`, if there is one.
bool find_cycle(const ModuleGraph& graph, const std::string& module, std::vector<std::string>& path,
    std::set<std::string>& finished)
{
    if (finished.count(module))
        return false;
    path.push_back(module);
    for (const std::string& dependency : graph.at(module)) {
        if (std::find(path.begin(), path.end(), dependency) != path.end()) {
            path.push_back(dependency);
            return true;
        }
        if (graph.count(dependency) && find_cycle(graph, dependency, path, finished))
            return true;
    }
    path.pop_back();
    finished.insert(module);
    return false;
}

} // namespace

TEST_CASE("each module's DEPS name modules that exist, and the modules form no cycle", "[dependencies]")
{
    ModuleGraph graph = declared_graph();
    CHECK(graph.size() > 10);
    std::set<std::string> finished;
    for (const auto& [module, dependencies] : graph) {
        for (const std::string& dependency : dependencies)
            if (graph.count(dependency) == 0)
                FAIL_CHECK("src/" << module << "/CMakeLists.txt: DEPS name dlenv_" << dependency
                                  << ", but there is no src/" << dependency << "/CMakeLists.txt");
        std::vector<std::string> path;
        if (find_cycle(graph, module, path, finished)) {
            std::string cycle;
            for (const std::string& step : path)
                cycle += (cycle.empty() ? "" : " -> ") + step;
            FAIL_CHECK("the modules' DEPS form a cycle: " << cycle);
        }
    }
}

TEST_CASE("docs/DESIGN.md's module table lists every module with the dependencies its DEPS name", "[dependencies]")
{
    ModuleGraph declared = declared_graph();
    std::vector<ModuleRow> rows = read_module_table(fs::path(DLENV_SOURCE_DIR) / "docs" / "DESIGN.md");
    REQUIRE_FALSE(rows.empty()); // docs/DESIGN.md has a table headed "| module | owns | depends on |"
    ModuleGraph table;
    for (const ModuleRow& row : rows) {
        for (const std::string& dependency : row.depends_on)
            if (table.count(dependency) == 0)
                FAIL_CHECK("docs/DESIGN.md's module table: the row of " << row.module << " names " << dependency
                                                                        << ", which has no row above it");
        if (!table.emplace(row.module, row.depends_on).second)
            FAIL_CHECK("docs/DESIGN.md's module table has two rows for " << row.module);
        if (declared.count(row.module) == 0)
            FAIL_CHECK("docs/DESIGN.md's module table has a row for " << row.module << ", but there is no src/"
                                                                      << row.module << "/CMakeLists.txt");
    }
    for (const auto& [module, dependencies] : declared) {
        if (table.count(module) == 0) {
            FAIL_CHECK("module " << module << " (src/" << module
                                 << "/CMakeLists.txt) has no row in docs/DESIGN.md's module table");
            continue;
        }
        std::set<std::string> undocumented = minus(dependencies, table.at(module));
        std::set<std::string> undeclared = minus(table.at(module), dependencies);
        if (!undocumented.empty() || !undeclared.empty())
            FAIL_CHECK("module " << module << ": its DEPS name " << listed(dependencies) << ", docs/DESIGN.md says "
                                 << listed(table.at(module)) << " (only in DEPS: " << listed(undocumented)
                                 << "; only in docs/DESIGN.md: " << listed(undeclared) << ")");
    }
}

TEST_CASE("a module includes only its own headers and those of its DEPS, and some header of each of its DEPS",
    "[dependencies]")
{
    ModuleGraph graph = declared_graph();
    for (const auto& [module, dependencies] : graph) {
        std::set<std::string> included;
        for (const fs::path& file : sources_of(module))
            for (const Include& include : includes_of(k_src / file)) {
                std::size_t slash = include.header.find('/');
                std::string target = include.header.substr(0, slash);
                if (slash == std::string::npos || graph.count(target) == 0 || target == module)
                    continue;
                included.insert(target);
                if (dependencies.count(target) == 0)
                    FAIL_CHECK("src/" << file.string() << ": " << include.line << ": " << target
                                      << " is not in the DEPS of " << module << " (src/" << module
                                      << "/CMakeLists.txt)");
            }
        for (const std::string& unused : minus(dependencies, included))
            FAIL_CHECK("src/" << module << "/CMakeLists.txt: DEPS name dlenv_" << unused << ", but no file of src/"
                              << module << " includes " << unused << "/");
    }
}

TEST_CASE("each C library is included only by the files that wrap it", "[dependencies]")
{
    std::size_t files = 0;
    for (const auto& module : declared_graph())
        for (const fs::path& file : sources_of(module.first)) {
            ++files;
            for (const Include& include : includes_of(k_src / file))
                for (const auto& [prefix, seams] : k_seams)
                    if (include.header.starts_with(prefix) && seams.count(file.string()) == 0)
                        FAIL_CHECK("src/" << file.string() << ": " << include.line << ": only " << listed(seams)
                                          << " may include " << prefix);
        }
    CHECK(files > 20);
}

TEST_CASE("only the lock module reads a lock through its JSON", "[dependencies]")
{
    CHECK(parses_lock_json("auto json = JsonReader::parse_document(path, lockfile.text())"));
    CHECK(parses_lock_json("nlohmann::json j = nlohmann::json::parse(read_file(k_kit_lock))"));
    CHECK_FALSE(parses_lock_json("nlohmann::json config = JsonReader::parse_document_or_null(blob)"));

    fs::path src = fs::path(DLENV_SOURCE_DIR) / "src";
    std::size_t lock_headers = 0;
    for (const auto& entry : fs::recursive_directory_iterator(src)) {
        if (!entry.is_regular_file() || (entry.path().extension() != ".h" && entry.path().extension() != ".cpp"))
            continue;
        std::string relative = fs::relative(entry.path(), src).generic_string();
        bool in_lock = relative.starts_with("lock/");
        for (const auto& [header, line] : includes_of(entry.path())) {
            INFO(relative << ": " << line);
            // the sections' JSON is the lock module's own
            CHECK((in_lock || header != "lock/section_json.h"));
            // so are JSON types: a module reads the lock as its typed sections
            if (in_lock && entry.path().extension() == ".h" && relative != "lock/section_json.h") {
                CHECK_FALSE(header.starts_with("nlohmann/"));
                CHECK(header != "core/json_reader.h");
            }
        }
        if (in_lock) {
            lock_headers += entry.path().extension() == ".h";
            continue;
        }
        for (const auto& statement : statements_of(entry.path())) {
            INFO(relative << ": parses a lock's JSON: " << statement);
            CHECK_FALSE(parses_lock_json(statement));
        }
    }
    CHECK(lock_headers > 5);
}
