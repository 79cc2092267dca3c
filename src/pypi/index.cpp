#include "pypi/index.h"

#include "pypi/name.h"

namespace dlenv::pypi {

IndexSet::IndexSet(std::shared_ptr<Index> default_index)
    : m_default(std::move(default_index))
{
}

void IndexSet::assign(const std::string& project, std::shared_ptr<Index> index)
{
    m_assigned[normalize_name(project)] = std::move(index);
}

Index& IndexSet::for_project(const std::string& project) const
{
    auto it = m_assigned.find(normalize_name(project));
    return it == m_assigned.end() ? *m_default : *it->second;
}

} // namespace dlenv::pypi
