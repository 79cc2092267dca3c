#include "refresh/proposal.h"

#include "core/error.h"
#include "refresh/row_edits.h"

#include <algorithm>

namespace dlenv::refresh {

nlohmann::json Proposal::to_json() const
{
    nlohmann::json out = { { "changes", nlohmann::json::array() }, { "hand_rows", hand_rows } };
    for (const auto& c : changes)
        out["changes"].push_back({ { "file", c.file }, { "key", c.key }, { "change", c.added ? "added" : "extended" },
            { "summary", c.summary }, { "hand_facts", c.hand_facts } });
    return out;
}

Proposal propose(
    const std::map<std::string, std::string>& files, const matrix::Matrix& matrix, const Published& published)
{
    Proposal proposal;
    proposal.files = files;
    Documents docs(files);
    add_torch(docs, matrix, published, proposal);
    add_toolkits(docs, published, proposal);
    add_tensorflow(docs, matrix, published, proposal);
    add_jax_alone(docs, matrix, published, proposal);
    report_unlisted(matrix, published, proposal);
    for (const auto& [name, text] : docs.changed())
        proposal.files[name] = text;
    matrix::Matrix::load(proposal.files, "refreshed matrix");
    return proposal;
}

} // namespace dlenv::refresh
