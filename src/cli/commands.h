#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace dlenv::cli {

// What every command shares: where the matrices come from and how to print.
struct Options {
    std::string matrix_dir; // --matrix DIR; empty: the compiled-in matrices
    std::string store_dir; // --store DIR; empty: $DLENV_STORE, else ./.dlenv
    bool json = false; // --json
};

// Each command registers its subcommand and, when chosen, sets `exit_code`.
using Registrar = void (*)(CLI::App& app, Options& options, int& exit_code);

void register_advise(CLI::App& app, Options& options, int& exit_code); // advise.cpp
void register_check(CLI::App& app, Options& options, int& exit_code); // check.cpp
void register_lock(CLI::App& app, Options& options, int& exit_code); // lock.cpp
void register_profiles(CLI::App& app, Options& options, int& exit_code); // profiles.cpp
void register_fetch(CLI::App& app, Options& options, int& exit_code); // fetch.cpp
void register_build(CLI::App& app, Options& options, int& exit_code); // build.cpp
void register_images(CLI::App& app, Options& options, int& exit_code); // images.cpp
void register_history(CLI::App& app, Options& options, int& exit_code); // history.cpp
void register_rollback(CLI::App& app, Options& options, int& exit_code); // rollback.cpp
void register_gc(CLI::App& app, Options& options, int& exit_code); // gc.cpp
void register_fsck(CLI::App& app, Options& options, int& exit_code); // fsck.cpp
void register_pull(CLI::App& app, Options& options, int& exit_code); // pull.cpp
void register_push(CLI::App& app, Options& options, int& exit_code); // push.cpp
void register_doctor(CLI::App& app, Options& options, int& exit_code); // doctor.cpp
void register_verify(CLI::App& app, Options& options, int& exit_code); // verify.cpp
void register_promote(CLI::App& app, Options& options, int& exit_code); // promote.cpp
void register_export(CLI::App& app, Options& options, int& exit_code); // export.cpp
void register_metrics(CLI::App& app, Options& options, int& exit_code); // metrics.cpp
void register_matrix(CLI::App& app, Options& options, int& exit_code); // matrix.cpp
void register_sbom(CLI::App& app, Options& options, int& exit_code); // sbom.cpp
void register_diff(CLI::App& app, Options& options, int& exit_code); // diff.cpp
void register_fleet_status(CLI::App& app, Options& options, int& exit_code); // fleet_status.cpp

// Parses argv, runs the chosen command, prints errors; returns the process exit code.
int run(int argc, char** argv);

} // namespace dlenv::cli
