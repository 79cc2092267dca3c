#include "pypi/wheelhouse.h"

#include "core/error.h"
#include "core/file.h"
#include "core/sha256.h"
#include "pypi/wheel_name.h"

#include <algorithm>
#include <system_error>

namespace dlenv::pypi {

namespace fs = std::filesystem;

WheelhouseIndex::WheelhouseIndex(const fs::path& directory)
    : m_directory(fs::absolute(directory).lexically_normal())
    , m_name(m_directory.string())
{
    std::error_code ec;
    fs::directory_iterator it(m_directory, ec);
    if (ec)
        throw Error(ec == std::errc::no_such_file_or_directory ? ErrorCode::not_found : ErrorCode::io,
            "list wheelhouse " + m_name + ": " + ec.message(), "pass a directory of .whl files");
    for (const auto& entry : it) {
        std::string filename = entry.path().filename().string();
        if (!filename.ends_with(".whl") || !entry.is_regular_file())
            continue;
        m_wheels[WheelName::parse(filename).key()].push_back(filename);
    }
    for (auto& [project, names] : m_wheels)
        std::sort(names.begin(), names.end());
}

std::vector<DistributionFile> WheelhouseIndex::files(const std::string& project)
{
    auto known = m_files.find(project);
    if (known != m_files.end())
        return known->second;
    std::vector<DistributionFile> out;
    auto it = m_wheels.find(project);
    if (it != m_wheels.end())
        for (const auto& filename : it->second) {
            fs::path path = m_directory / filename;
            DistributionFile file;
            file.project = project;
            file.filename = filename;
            file.url = "file://" + path.string();
            file.sha256 = sha256_file_hex(path);
            file.size = static_cast<std::int64_t>(fs::file_size(path));
            out.push_back(std::move(file));
        }
    m_files[project] = out;
    return out;
}

Metadata WheelhouseIndex::metadata(const DistributionFile& file)
{
    try {
        return read_wheel_metadata(m_directory / file.filename);
    } catch (const Error& e) {
        throw e.with_context("wheelhouse " + m_name);
    }
}

} // namespace dlenv::pypi
