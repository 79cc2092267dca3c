#pragma once

#include "pypi/index.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace dlenv::pypi {

// A directory of wheel files used as an index, for locking without a network. The
// directory is listed once, at construction; files that are not wheels are ignored and a
// `.whl` whose name does not parse is refused (Error(invalid_input) naming it). Each
// project's sha256 and sizes are computed on its first `files` call, its metadata read
// from the wheel's `*.dist-info/METADATA`. URLs are `file://` + the absolute path.
class WheelhouseIndex : public Index {
public:
    explicit WheelhouseIndex(const std::filesystem::path& directory);

    const std::string& name() const override { return m_name; }
    std::vector<DistributionFile> files(const std::string& project) override;
    Metadata metadata(const DistributionFile& file) override;

private:
    std::filesystem::path m_directory;
    std::string m_name;
    std::map<std::string, std::vector<std::string>> m_wheels; // project -> file names, sorted
    std::map<std::string, std::vector<DistributionFile>> m_files; // project -> described files
};

} // namespace dlenv::pypi
