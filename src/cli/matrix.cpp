#include "cli/commands.h"

#include "cli/matrix_option.h"
#include "cli/output.h"
#include "core/error.h"
#include "core/file.h"
#include "refresh/proposal.h"

#include <filesystem>
#include <iostream>

namespace dlenv::cli {
namespace {

namespace fs = std::filesystem;

struct RefreshArgs {
    std::string out;
    std::string source_url;
};

// The refreshed files go into `dir`, created when absent; a path in it that is there and no
// regular file is refused rather than followed.
void write_matrix_dir(const fs::path& dir, const std::map<std::string, std::string>& files)
{
    if (fs::exists(fs::symlink_status(dir)) && !fs::is_directory(fs::symlink_status(dir)))
        throw Error(ErrorCode::invalid_input, "--out " + dir.string() + ": not a directory",
            "name a new or existing directory for the refreshed matrices");
    fs::create_directories(dir);
    // Every path is checked before any is written, so a refusal leaves the directory as it was.
    for (const auto& [name, text] : files) {
        fs::path path = dir / name;
        auto status = fs::symlink_status(path);
        if (fs::exists(status) && !fs::is_regular_file(status))
            throw Error(ErrorCode::invalid_input, path.string() + ": exists and is no regular file",
                "remove it, or name another --out directory");
    }
    for (const auto& [name, text] : files)
        write_file_atomic(dir / name, text);
}

void print_proposal(const refresh::Proposal& proposal, const std::string& out)
{
    std::string file;
    for (const auto& change : proposal.changes) {
        if (change.file != file)
            std::cout << (file = change.file) << ":\n";
        std::cout << "  " << (change.added ? "+ " : "~ ") << change.key << ": " << change.summary << "\n";
        if (!change.hand_facts.empty()) {
            std::string facts;
            for (const auto& fact : change.hand_facts)
                facts += (facts.empty() ? "" : ", ") + fact;
            std::cout << "      needs a hand row: " << facts << "\n";
        }
    }
    if (!proposal.hand_rows.empty())
        std::cout << "needs a hand row:\n";
    for (const auto& line : proposal.hand_rows)
        std::cout << "  ! " << line << "\n";
    if (proposal.empty())
        std::cout << "the matrices hold everything the vendors publish\n";
    else
        std::cout << proposal.changes.size() << (proposal.changes.size() == 1 ? " change" : " changes") << " proposed, "
                  << proposal.hand_rows.size() << " hand " << (proposal.hand_rows.size() == 1 ? "row" : "rows")
                  << " needed; the refreshed matrices are in " << out << " (use them with --matrix " << out << ")\n";
}

void register_refresh(CLI::App& group, Options& options, int& exit_code)
{
    auto args = std::make_shared<RefreshArgs>();
    auto* cmd = group.add_subcommand("refresh",
        "Read what the vendors publish (the PyTorch wheel index, PyPI, NVIDIA's redistrib manifests) and "
        "propose the rows the matrices lack; exits 1 when it proposes any");
    cmd->add_option("--out", args->out, "Write the refreshed matrices into DIR (usable with --matrix DIR)")
        ->type_name("DIR")
        ->required();
    cmd->add_option("--source-url", args->source_url,
           "Read every vendor page under BASE instead (BASE/whl/torch/, BASE/pypi/NAME/json, "
           "BASE/compute/cuda/redist/): a replica of their layout")
        ->type_name("BASE");
    cmd->add_flag("--json", options.json, "Print the proposal as JSON");
    cmd->callback([args, &options, &exit_code] {
        const auto& loaded = load_matrix(options);
        auto files = matrix::matrix_files(options.matrix_dir);
        refresh::Upstream upstream
            = args->source_url.empty() ? refresh::Upstream {} : refresh::Upstream::under(args->source_url);
        refresh::Proposal proposal = refresh::propose(files, loaded, refresh::read_published(loaded, upstream));
        write_matrix_dir(args->out, proposal.files);
        if (options.json)
            print_json(proposal.to_json());
        else
            print_proposal(proposal, args->out);
        exit_code = proposal.empty() ? 0 : 1;
    });
}

} // namespace

void register_matrix(CLI::App& app, Options& options, int& exit_code)
{
    auto* cmd = app.add_subcommand("matrix", "Keep the compatibility matrices current");
    cmd->require_subcommand(1);
    register_refresh(*cmd, options, exit_code);
}

} // namespace dlenv::cli
