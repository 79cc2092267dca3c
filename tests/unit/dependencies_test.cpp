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
