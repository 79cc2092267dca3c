#include "cli/rows_output.h"

namespace dlenv::cli {

void print_rows(const std::vector<resolve::RowUsed>& rows, std::ostream& out)
{
    out << "rows used (" << rows.size() << "):\n";
    for (const auto& row : rows) {
        out << "  " << row.file << " " << row.key << " (" << matrix::to_string(row.provenance.confidence) << ")\n";
        for (const auto& [name, value] : row.facts)
            out << "    " << name << ": " << value << "\n";
        for (const auto& source : row.provenance.sources)
            out << "    source " << source->key << ": " << source->title
                << (source->url.empty() ? "" : " <" + source->url + ">") << "\n";
        if (!row.provenance.note.empty())
            out << "    note: " << row.provenance.note << "\n";
    }
}

} // namespace dlenv::cli
