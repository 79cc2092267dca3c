#pragma once

#include <filesystem>
#include <string>
#include <unistd.h>

namespace dlenv::testing {

// A fresh directory under the system temp dir, removed with everything in it at the
// end of the test.
class TempDir {
public:
    explicit TempDir(const std::string& name)
        : m_path(std::filesystem::temp_directory_path() /
                 ("dlenv-test-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(s_count++)))
    {
        std::filesystem::remove_all(m_path);
        std::filesystem::create_directories(m_path);
    }
    ~TempDir() { std::filesystem::remove_all(m_path); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path operator/(const std::string& child) const { return m_path / child; }

private:
    static inline int s_count = 0;
    std::filesystem::path m_path;
};

} // namespace dlenv::testing
