// The module table of DESIGN.md, enforced: a module includes only the modules below it,
// and each C library is included by the one file that wraps it.
#include "core/file.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace {

const std::map<std::string, std::set<std::string>> k_allowed = {
    {"core", {}},
    {"matrix", {"core"}},
    {"resolve", {"core", "matrix"}},
    {"pypi", {"core", "http"}},
    {"lock", {"core", "matrix", "resolve", "pypi", "http"}},
    {"host", {"core"}},
    {"oci", {"core"}},
    {"http", {"core"}},
    {"store", {"core", "oci"}},
    {"registry", {"core", "oci", "http"}},
    {"image", {"core", "matrix", "resolve", "pypi", "lock", "http", "oci", "store", "registry"}},
    {"verify", {"core", "matrix", "resolve", "lock", "host", "oci", "store"}},
    {"workflow", {"core", "matrix", "resolve", "lock", "host", "oci", "store", "registry"}},
    {"cli", {"core", "matrix", "resolve", "pypi", "lock", "host", "http", "oci", "store", "registry", "image", "verify",
             "workflow"}},
};

// A C library's header prefix, and the only source files that may include it.
const std::map<std::string, std::set<std::string>> k_seams = {
    {"openssl/", {"core/sha256.cpp"}},
    {"dlfcn.h", {"host/gpu_probe.cpp"}},
    {"curl/", {"http/client.cpp"}},
    {"archive", {"oci/tar_writer.cpp", "oci/tar_reader.cpp", "pypi/wheel_archive.cpp"}},
    {"libdeflate", {"oci/gzip_stream.cpp", "oci/layer_stream.cpp"}},
    {"zstd", {"oci/zstd_stream.cpp"}},
};

std::vector<std::pair<std::string, std::string>> includes_of(const fs::path& file)
{
    static const std::regex include(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
    std::vector<std::pair<std::string, std::string>> out;
    std::istringstream lines(dlenv::read_file(file));
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (std::regex_search(line, m, include))
            out.emplace_back(m[1], line);
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

} // namespace

TEST_CASE("modules include only the modules below them, and C libraries only through their seam", "[dependencies]")
{
    fs::path src = fs::path(DLENV_SOURCE_DIR) / "src";
    std::size_t files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(src)) {
        if (!entry.is_regular_file() || (entry.path().extension() != ".h" && entry.path().extension() != ".cpp"))
            continue;
        fs::path relative = fs::relative(entry.path(), src);
        if (relative.begin() == relative.end() || std::next(relative.begin()) == relative.end())
            continue; // main.cpp only forwards to cli
        std::string module = relative.begin()->string();
        REQUIRE(k_allowed.count(module) == 1);
        ++files;
        for (const auto& [header, line] : includes_of(entry.path())) {
            INFO(relative.string() << ": " << line);
            std::string target = header.substr(0, header.find('/'));
            if (header.find('/') != std::string::npos && k_allowed.count(target))
                CHECK((target == module || k_allowed.at(module).count(target) == 1));
            for (const auto& [prefix, seams] : k_seams)
                if (header.starts_with(prefix))
                    CHECK(seams.count(relative.string()) == 1);
        }
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
