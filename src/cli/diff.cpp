#include "cli/commands.h"

#include "cli/output.h"
#include "core/file.h"
#include "lock/lock_diff.h"

#include <iostream>
#include <memory>
#include <sstream>

namespace dlenv::cli {
namespace {

struct DiffArgs {
    std::string before;
    std::string after;
};

// A table cell: a pipe would end the cell, so it is escaped.
std::string cell(const std::optional<std::string>& text)
{
    if (!text)
        return "(none)";
    std::string out;
    for (char c : *text)
        out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

std::optional<std::string> pin_cell(const std::optional<lock::PinnedVersion>& pin, bool with_sha256)
{
    if (!pin)
        return std::nullopt;
    return with_sha256 ? pin->version + " `" + pin->sha256.substr(0, 12) + "`" : pin->version;
}

std::string summary(const lock::LockDiff& diff, const DiffArgs& args)
{
    std::string counts;
    auto count = [&](const char* title, std::size_t n) {
        if (n != 0)
            counts += (counts.empty() ? "" : ", ") + std::string(title) + " " + std::to_string(n);
    };
    count("stack", diff.stack.size());
    count("base image", diff.base_image.size());
    count("Python packages", diff.packages.size());
    count("system packages", diff.system_packages.size());
    count("driver floors", diff.driver.size());
    count("GPU verdicts", diff.gpus.size());
    std::size_t n = diff.size();
    return "**`" + args.before + "` → `" + args.after + "`: " + std::to_string(n) + (n == 1 ? " change" : " changes")
        + "** (" + counts + ")\n";
}

void print_fields(std::ostream& out, const char* title, const std::vector<lock::FieldChange>& changes)
{
    if (changes.empty())
        return;
    out << "\n### " << title << "\n\n| | before | after |\n|---|---|---|\n";
    for (const auto& change : changes)
        out << "| " << cell(change.field) << " | " << cell(change.before) << " | " << cell(change.after) << " |\n";
}

void print_packages(std::ostream& out, const char* title, const std::vector<lock::PackageChange>& changes)
{
    if (changes.empty())
        return;
    out << "\n### " << title << "\n\n| package | change | before | after |\n|---|---|---|---|\n";
    for (const auto& change : changes) {
        bool sha256 = change.kind() == lock::PackageChangeKind::sha256;
        out << "| " << cell(change.name) << " | " << lock::package_change_name(change.kind()) << " | "
            << cell(pin_cell(change.before, sha256)) << " | " << cell(pin_cell(change.after, sha256)) << " |\n";
    }
}

// Markdown for a pull-request comment: the summary line, then a table per changed section,
// in the order a reviewer reads them: what the image is, what it holds, who can run it.
std::string markdown(const lock::LockDiff& diff, const DiffArgs& args)
{
    if (diff.empty())
        return "No changes: `" + args.before + "` and `" + args.after + "` lock the same stack, base image, "
            + "packages, driver floors and GPU verdicts.\n";
    std::ostringstream out;
    out << summary(diff, args);
    print_fields(out, "Stack", diff.stack);
    print_fields(out, "Base image", diff.base_image);
    print_packages(out, "Python packages", diff.packages);
    print_packages(out, "System packages", diff.system_packages);
    print_fields(out, "Driver floors", diff.driver);
    print_fields(out, "GPU verdicts", diff.gpus);
    return out.str();
}

nlohmann::json text_json(const std::optional<std::string>& text)
{
    return text ? nlohmann::json(*text) : nullptr;
}

nlohmann::json fields_json(const std::vector<lock::FieldChange>& changes)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& change : changes)
        rows.push_back({ { "field", change.field }, { "before", text_json(change.before) },
            { "after", text_json(change.after) } });
    return rows;
}

nlohmann::json pin_json(const std::optional<lock::PinnedVersion>& pin)
{
    return pin ? nlohmann::json { { "version", pin->version }, { "sha256", pin->sha256 } } : nlohmann::json(nullptr);
}

nlohmann::json packages_json(const std::vector<lock::PackageChange>& changes)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& change : changes)
        rows.push_back({ { "name", change.name }, { "change", lock::package_change_name(change.kind()) },
            { "before", pin_json(change.before) }, { "after", pin_json(change.after) } });
    return rows;
}

nlohmann::json diff_json(const lock::LockDiff& diff, const DiffArgs& args)
{
    return { { "before", args.before }, { "after", args.after }, { "equal", diff.empty() }, { "changes", diff.size() },
        { "stack", fields_json(diff.stack) }, { "base_image", fields_json(diff.base_image) },
        { "packages", packages_json(diff.packages) }, { "system_packages", packages_json(diff.system_packages) },
        { "driver", fields_json(diff.driver) }, { "gpus", fields_json(diff.gpus) } };
}

int run_diff(const DiffArgs& args, const Options& options)
{
    lock::Lockfile before = lock::Lockfile::parse(args.before, read_file(args.before));
    lock::Lockfile after = lock::Lockfile::parse(args.after, read_file(args.after));
    lock::LockDiff diff = lock::diff_locks(before, after);
    if (options.json)
        print_json(diff_json(diff, args));
    else
        std::cout << markdown(diff, args);
    return diff.empty() ? 0 : 1;
}

} // namespace

void register_diff(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<DiffArgs>();
    auto* cmd = app.add_subcommand("diff",
        "What changed between two locks, as markdown for a pull-request comment: the stack, the base image, the "
        "packages, the driver floors and each GPU's verdict (exit 1 when they differ)");
    cmd->add_option("before", args->before, "The lock before the change")->required();
    cmd->add_option("after", args->after, "The lock after it")->required();
    cmd->add_flag("--json", options.json, "Print the changes as JSON");
    cmd->callback([args, &options, &exit_code] { exit_code = run_diff(*args, options); });
}

} // namespace dlenv::cli
