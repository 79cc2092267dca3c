#include "pypi/index.h"

#include "pypi/name.h"

namespace dlenv::pypi {

IndexSet::IndexSet(std::shared_ptr<Index> default_index)
    : m_default(std::move(default_index))
{
}

void IndexSet::assign(const std::string& project, std::shared_ptr<Index> index)
{
    if (project.ends_with('*'))
        m_prefixes[normalize_name(project.substr(0, project.size() - 1))] = std::move(index);
    else
        m_assigned[normalize_name(project)] = std::move(index);
}

Index& IndexSet::for_project(const std::string& project) const
{
    std::string name = normalize_name(project);
    if (auto it = m_assigned.find(name); it != m_assigned.end())
        return *it->second;
    Index* longest = m_default.get();
    std::size_t longest_size = 0;
    for (const auto& [prefix, index] : m_prefixes)
        if (name.starts_with(prefix) && prefix.size() >= longest_size) {
            longest = index.get();
            longest_size = prefix.size();
        }
    return *longest;
}

} // namespace dlenv::pypi
