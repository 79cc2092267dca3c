#include "lock/package_lock.h"

#include "pypi/simple_index.h"
#include "pypi/wheelhouse.h"

#include <memory>

namespace dlenv::lock {
namespace {

constexpr std::string_view k_file_scheme = "file://";

std::shared_ptr<pypi::Index> open_index(const std::string& url)
{
    if (url.starts_with(k_file_scheme))
        return std::make_shared<pypi::WheelhouseIndex>(url.substr(k_file_scheme.size()));
    return std::make_shared<pypi::SimpleIndex>(url);
}

// An index under the name the lock gives it, so two names served from one URL (a mirror
// of both) still tell which assignment a package came through; it reports each request.
class NamedIndex : public pypi::Index {
public:
    using Progress = std::function<void(const std::string&)>;

    NamedIndex(std::string name, std::shared_ptr<pypi::Index> index, Progress progress)
        : m_name(std::move(name))
        , m_index(std::move(index))
        , m_progress(std::move(progress))
    {
    }

    const std::string& name() const override { return m_name; }
    std::vector<pypi::DistributionFile> files(const std::string& project) override
    {
        report(project + " from " + m_name);
        return m_index->files(project);
    }
    pypi::Metadata metadata(const pypi::DistributionFile& file) override
    {
        report("metadata of " + file.filename + " from " + m_name);
        return m_index->metadata(file);
    }

private:
    void report(const std::string& what) const
    {
        if (m_progress)
            m_progress(what);
    }

    std::string m_name;
    std::shared_ptr<pypi::Index> m_index;
    Progress m_progress;
};

} // namespace

PackageSources wheelhouse_sources(const std::filesystem::path& directory)
{
    std::string url = std::string(k_file_scheme) + std::filesystem::absolute(directory).lexically_normal().string();
    return { { { "wheelhouse", url } }, {}, "wheelhouse" };
}

std::vector<LockedPackage> lock_packages(const pypi::ResolveRequest& request, const PackageSources& sources,
    const std::function<void(const std::string&)>& progress)
{
    std::map<std::string, std::shared_ptr<pypi::Index>> by_name;
    for (const auto& [name, url] : sources.indexes)
        by_name[name] = std::make_shared<NamedIndex>(name, open_index(url), progress);
    pypi::IndexSet indexes(by_name.at(sources.default_index));
    for (const auto& [project, index] : sources.index_of)
        indexes.assign(project, by_name.at(index));

    std::vector<LockedPackage> locked;
    for (const auto& package : pypi::resolve(request, indexes))
        locked.push_back({ package.name, package.version.str(), package.index, package.file.filename, package.file.url,
            package.file.sha256, package.file.size, package.required_by });
    return locked;
}

} // namespace dlenv::lock
