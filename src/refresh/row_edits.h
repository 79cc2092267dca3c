#pragma once

// The edits a refresh makes to each matrix file, one family per file: torch_rows.cpp,
// toolkit_rows.cpp, pypi_rows.cpp. Each reads what was published, adds rows or extends
// them in the documents, and records the change in the proposal.

#include "matrix/matrix.h"
#include "refresh/proposal.h"
#include "refresh/published.h"

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace dlenv::refresh {

// The matrix files as JSON documents that keep their keys' order, so a rewritten file
// differs from the original only where rows were added (documents.cpp).
class Documents {
public:
    // `files` have loaded as a matrix, so they parse and are within JsonReader's bounds.
    explicit Documents(const std::map<std::string, std::string>& files);

    // The document of `name`, marked changed.
    nlohmann::ordered_json& edit(const std::string& name);
    // Adds a source to the document's `sources` table unless it holds `key`; returns `key`.
    std::string cite(const std::string& name, const std::string& key, const std::string& title, const std::string& url);
    // The files whose text changed, written as the originals are (2-space indent, ASCII,
    // the same trailing newline).
    std::map<std::string, std::string> changed() const;

private:
    std::map<std::string, std::string> m_original;
    std::map<std::string, nlohmann::ordered_json> m_docs;
    std::set<std::string> m_changed;
};

// A key of a `sources` table as the hand-written ones read: `prefix`, then `name` upper-cased
// with '-' and '.' as '_' (PYPI_TENSORFLOW, PT_WHL_META_2_9_CU126).
std::string source_key(std::string_view prefix, std::string_view name);

void add_torch(Documents& docs, const matrix::Matrix& matrix, const Published& published, Proposal& proposal);
void add_toolkits(Documents& docs, const Published& published, Proposal& proposal);
void add_tensorflow(Documents& docs, const matrix::Matrix& matrix, const Published& published, Proposal& proposal);
// jax releases of the matrix's rows that PyPI has no jaxlib of, as rows of jax_alone_releases
// with the newest jaxlib before each.
void add_jax_alone(Documents& docs, const matrix::Matrix& matrix, const Published& published, Proposal& proposal);
// Published jax, jaxlib and cuDNN releases newer than every row, which need hand rows.
void report_unlisted(const matrix::Matrix& matrix, const Published& published, Proposal& proposal);

} // namespace dlenv::refresh
