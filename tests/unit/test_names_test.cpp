// ctest runs each unit test by handing its name to the binary as a filter
// (catch_discover_tests): a name that begins with '-' is read as an option, and one with
// ';' becomes two ctest entries that each match no test and pass without running it.
#include "core/file.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

TEST_CASE("every unit test has a name ctest can hand back to it", "[tests]")
{
    static const std::regex test_case(R"re(TEST_CASE\(\s*"((?:[^"\\]|\\.)*)")re");
    std::size_t names = 0;
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(DLENV_SOURCE_DIR) / "tests" / "unit")) {
        if (!entry.is_regular_file() || entry.path().extension() != ".cpp")
            continue;
        std::istringstream lines(dlenv::read_file(entry.path()));
        std::size_t number = 0;
        for (std::string line; std::getline(lines, line);) {
            ++number;
            std::smatch m;
            if (!std::regex_search(line, m, test_case))
                continue;
            ++names;
            std::string name = m[1];
            INFO(fs::relative(entry.path(), DLENV_SOURCE_DIR).string() << ":" << number << ": \"" << name << "\"");
            CHECK_FALSE(name.starts_with("-"));
            CHECK(name.find(';') == std::string::npos);
        }
    }
    CHECK(names > 300);
}
