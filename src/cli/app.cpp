#include "cli/commands.h"

#include "cli/output.h"
#include "core/error.h"

#include <iostream>

namespace dlenv::cli {
namespace {

constexpr const char* k_exit_codes = R"(Exit codes:
  0  ok (warnings allowed)
  1  what was asked failed: a conflict, a failed verification
  2  bad usage or input: an unknown name or version, a malformed file
  3  something the environment must provide is missing: runtime, GPU, registry)";

int exit_code_for(ErrorCode code)
{
    switch (code) {
    case ErrorCode::invalid_input:
    case ErrorCode::not_found:
        return 2;
    case ErrorCode::environment:
    case ErrorCode::network:
    case ErrorCode::auth:
        return 3;
    case ErrorCode::conflict:
    case ErrorCode::verification_failed:
    case ErrorCode::io:
        return 1;
    }
    return 1;
}

} // namespace

int run(int argc, char** argv)
{
    CLI::App app { "dlenv: reproducible, verified deep-learning environments" };
    app.footer(k_exit_codes);
    app.require_subcommand(1);
    app.set_version_flag("--version", "dlenv " DLENV_VERSION);
    Options options;
    app.add_option(
           "--matrix", options.matrix_dir, "Read the compatibility matrices from DIR instead of the built-in ones")
        ->type_name("DIR");

    int exit_code = 0;
    for (Registrar registrar : { register_check, register_lock, register_export, register_profiles, register_fetch,
             register_build, register_images, register_history, register_rollback, register_gc, register_fsck,
             register_pull, register_push, register_doctor, register_verify, register_promote, register_advise,
             register_metrics, register_matrix, register_sbom, register_diff, register_fleet_status })
        registrar(app, options, exit_code);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? 0 : 2;
    } catch (const Error& e) {
        print_error(e, options.json);
        return exit_code_for(e.code());
    } catch (const std::exception& e) {
        // A bug, or input no check foresaw: say so rather than abort.
        print_error(Error(ErrorCode::io, std::string("unexpected failure: ") + e.what(),
                        "please report this with the command that caused it"),
            options.json);
        return 1;
    }
    return exit_code;
}

} // namespace dlenv::cli
