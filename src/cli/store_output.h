#pragma once

#include "cli/commands.h"
#include "store/records.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace dlenv::cli {

// Adds --store DIR and --json to a command that works on the store.
void add_store_options(CLI::App* command, Options& options);
// The store --store, DLENV_STORE or ./.dlenv names.
std::filesystem::path store_dir(const Options& options);

// True when progress lines should be printed: stderr is a terminal and --json is off.
bool shows_progress(const Options& options);

nlohmann::json moves_json(const store::HistoryEntry& entry);
// "latest sha256:ab12… -> sha256:cd34…", one per moved tag; "no tag moved" when none did.
std::string describe_moves(const store::HistoryEntry& entry);

} // namespace dlenv::cli
