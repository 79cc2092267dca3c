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
    http::ClientOptions options;
    options.ca_file = http::ca_file_from_environment();
    return std::make_shared<pypi::SimpleIndex>(url, options);
}

} // namespace

PackageSources wheelhouse_sources(const std::filesystem::path& directory)
{
    std::string url = std::string(k_file_scheme) + std::filesystem::absolute(directory).lexically_normal().string();
    return {{{"wheelhouse", url}}, {}, "wheelhouse"};
}

std::vector<LockedPackage> lock_packages(const pypi::ResolveRequest& request, const PackageSources& sources)
{
    std::map<std::string, std::shared_ptr<pypi::Index>> by_name;
    std::map<std::string, std::string> name_of; // Index::name() -> the sources' name for it
    for (const auto& [name, url] : sources.indexes) {
        by_name[name] = open_index(url);
        name_of.emplace(by_name[name]->name(), name);
    }
    pypi::IndexSet indexes(by_name.at(sources.default_index));
    for (const auto& [project, index] : sources.index_of)
        indexes.assign(project, by_name.at(index));

    std::vector<LockedPackage> locked;
    for (const auto& package : pypi::resolve(request, indexes))
        locked.push_back({package.name, package.version.str(), name_of.at(package.index), package.file.filename,
                          package.file.url, package.file.sha256, package.file.size, package.required_by});
    return locked;
}

} // namespace dlenv::lock
