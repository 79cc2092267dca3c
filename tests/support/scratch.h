#pragma once

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

// A fresh directory for one test, removed with all under it afterwards, and a shell
// that runs scripts inside it (GNU tar, gzip, zstd, python3 make the test data).
class Scratch {
public:
    Scratch()
    {
        static std::atomic<int> count = 0;
        m_dir = std::filesystem::temp_directory_path()
            / ("dlenv-oci-test-" + std::to_string(::getpid()) + "-" + std::to_string(count++));
        std::filesystem::remove_all(m_dir);
        std::filesystem::create_directories(m_dir);
    }
    ~Scratch()
    {
        // Layers may leave read-only directories behind.
        std::string command = "chmod -R u+w '" + m_dir.string() + "'";
        if (std::system(command.c_str()) == 0)
            std::filesystem::remove_all(m_dir);
    }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;

    const std::filesystem::path& dir() const { return m_dir; }
    std::filesystem::path operator/(const std::string& name) const { return m_dir / name; }

    // Runs `script` with `sh -e` in the directory; the test fails when it fails.
    void sh(const std::string& script) const
    {
        std::string command = "set -e; cd '" + m_dir.string() + "'\n" + script;
        int status = std::system(command.c_str());
        INFO(script);
        REQUIRE(status == 0);
    }

private:
    std::filesystem::path m_dir;
};
