#include "cli/store_output.h"

#include "store/store.h"

#include <unistd.h>

namespace dlenv::cli {
namespace {

std::string short_or_none(const std::optional<Digest>& digest)
{
    return digest ? digest->short_text() : "(none)";
}

nlohmann::json optional_text(const std::optional<Digest>& digest)
{
    return digest ? nlohmann::json(digest->text()) : nlohmann::json(nullptr);
}

} // namespace

void add_store_options(CLI::App* command, Options& options)
{
    command->add_option("--store", options.store_dir, "The store (default: $DLENV_STORE, else ./.dlenv)")
        ->type_name("DIR");
    command->add_flag("--json", options.json, "Print the result as JSON");
}

std::filesystem::path store_dir(const Options& options)
{
    return store::Store::locate(options.store_dir);
}

bool shows_progress(const Options& options)
{
    return !options.json && ::isatty(STDERR_FILENO);
}

nlohmann::json moves_json(const store::HistoryEntry& entry)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& move : entry.moved)
        out.push_back({ { "tag", move.tag }, { "from", optional_text(move.from) }, { "to", optional_text(move.to) } });
    return out;
}

std::string describe_moves(const store::HistoryEntry& entry)
{
    if (entry.moved.empty())
        return "no tag moved";
    std::string out;
    for (const auto& move : entry.moved)
        out += (out.empty() ? "" : ", ") + move.tag + " " + short_or_none(move.from) + " -> " + short_or_none(move.to);
    return out;
}

} // namespace dlenv::cli
