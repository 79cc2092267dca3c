#pragma once

#include "pypi/metadata.h"
#include "pypi/specifier.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::pypi {

// One file an index lists for a project, as the index describes it.
struct DistributionFile {
    std::string project; // normalised name
    std::string filename; // "torch-2.1.2+cu118-cp311-cp311-manylinux_2_17_x86_64.whl"
    std::string url; // where to get it: https://..., or file:///... for a wheelhouse
    std::string sha256; // hex; every file dlenv locks has one
    std::optional<std::int64_t> size;
    std::optional<SpecifierSet> requires_python; // when the index states it
    bool yanked = false; // PEP 592: chosen only when a requirement pins it with ==
    // PEP 658: the index serves the wheel's METADATA at `url` + ".metadata", with this
    // sha256 when it states one (empty otherwise).
    bool metadata_file = false;
    std::string metadata_sha256;
};

// A package index: the files of a project and the metadata of a file. Implementations
// are a local wheelhouse, and the PEP 691 JSON and PEP 503 HTML simple APIs. Calls may
// cache; they are not thread-safe. Errors are dlenv::Error with the index's name in
// their context.
class Index {
public:
    virtual ~Index() = default;

    // How the lock names the index: the wheelhouse's directory or the simple API's URL.
    virtual const std::string& name() const = 0;
    // The files of `project` (a normalised name); empty when the index does not know it.
    virtual std::vector<DistributionFile> files(const std::string& project) = 0;
    // The core metadata of `file`, one of this index's files.
    virtual Metadata metadata(const DistributionFile& file) = 0;
};

// Which index each project comes from: an explicit entry per project, else the
// default. Never "the first index that has the name": a project assigned to a private
// index cannot be shadowed by a public one with the same name (dependency confusion).
// Holds the indexes it is given, by shared ownership.
class IndexSet {
public:
    explicit IndexSet(std::shared_ptr<Index> default_index);

    // Assigns `project` (any spelling) to `index`; "nvidia-*" assigns every project whose
    // normalised name starts with "nvidia-".
    void assign(const std::string& project, std::shared_ptr<Index> index);
    // The index of `project`: its own assignment, else the longest prefix that matches
    // it, else the default.
    Index& for_project(const std::string& project) const;

private:
    std::shared_ptr<Index> m_default;
    std::map<std::string, std::shared_ptr<Index>> m_assigned; // normalised name -> index
    std::map<std::string, std::shared_ptr<Index>> m_prefixes; // normalised prefix -> index
};

} // namespace dlenv::pypi
