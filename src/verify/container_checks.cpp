#include "verify/container_checks.h"

#include "core/error.h"
#include "core/file.h"
#include "rootfs/dlenv_files.h"
#include "rootfs/lookup.h"
#include "verify/static_checks.h"

#include <unistd.h>

#include <charconv>
#include <sstream>

namespace dlenv::verify {
namespace {

constexpr std::string_view k_started = "dlenv-started";
constexpr std::string_view k_kit_read = "dlenv-kit-readable";

std::optional<std::uint32_t> number(const std::string& text)
{
    std::uint32_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty() ? std::optional(value) : std::nullopt;
}

// Field `field` (0-based) of the line of an /etc/passwd-style file whose first field is `name`.
std::optional<std::uint32_t> lookup(
    const std::filesystem::path& rootfs, const std::string& file, const std::string& name, std::size_t field)
{
    auto host = rootfs::lookup(rootfs, file);
    if (!host)
        return std::nullopt;
    std::istringstream lines(read_file(*host));
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::string> fields;
        std::istringstream parts(line);
        for (std::string part; std::getline(parts, part, ':');)
            fields.push_back(part);
        if (fields.size() > field && fields[0] == name)
            return number(fields[field]);
    }
    return std::nullopt;
}

std::uint32_t resolve_id(
    const std::filesystem::path& rootfs, const std::string& text, const std::string& file, std::size_t field)
{
    if (auto id = number(text))
        return *id;
    if (auto id = lookup(rootfs, file, text, field))
        return *id;
    throw Error(ErrorCode::invalid_input, "the image's user \"" + text + "\" is not in its " + file,
        "set config.User to a number or a user the image defines");
}

bool has_line(const std::string& output, std::string_view line)
{
    std::istringstream lines(output);
    for (std::string each; std::getline(lines, each);)
        if (each == line)
            return true;
    return false;
}

// The last line of the output, for a message: what the runtime or the shell said.
std::string last_line(const std::string& output)
{
    std::string trimmed = output.substr(0, output.find_last_not_of('\n') + 1);
    std::size_t newline = trimmed.rfind('\n');
    return newline == std::string::npos ? trimmed : trimmed.substr(newline + 1);
}

} // namespace

std::string describe_failure(const ContainerRun& run, int timeout_seconds)
{
    if (run.timed_out)
        return "did not finish within " + std::to_string(timeout_seconds) + " s";
    std::string said = last_line(run.errors.empty() ? run.output : run.errors);
    return "exit status " + std::to_string(run.exit_code) + (said.empty() ? std::string() : ": " + said);
}

ContainerSpec spec_for(const ContainerContext& context, std::vector<std::string> args)
{
    ContainerSpec spec;
    spec.args = std::move(args);
    spec.env = context.process.env;
    spec.cwd = context.process.cwd;
    const std::string& user = context.process.user;
    if (!user.empty()) {
        std::size_t colon = user.find(':');
        spec.uid = resolve_id(context.rootfs, user.substr(0, colon), "/etc/passwd", 2);
        spec.gid = colon != std::string::npos ? resolve_id(context.rootfs, user.substr(colon + 1), "/etc/group", 2)
            : number(user)                    ? 0
                                              : resolve_id(context.rootfs, user, "/etc/passwd", 3);
    }
    spec.user_namespace = ::geteuid() != 0;
    spec.host_uid = ::geteuid();
    spec.host_gid = ::getegid();
    return spec;
}

void check_container_start(const ContainerContext& context, const std::optional<std::string>& shell,
    std::vector<Finding>& findings, std::vector<Figure>& figures)
{
    if (!shell) {
        findings.push_back({ "container-start", Verdict::unknown, "the image has no entrypoint program to start" });
        return;
    }
    // Built-ins only, so that the check needs nothing but the shell itself.
    const std::string lock_file(rootfs::k_lock_file);
    std::string script
        = "echo " + std::string(k_started) + "; read -r line < " + lock_file + " && echo " + std::string(k_kit_read);
    ContainerRun run = run_container(context.runtime, spec_for(context, { *shell, "-c", script }), context.rootfs,
        context.work_dir / "start", context.timeout_seconds);
    figures.push_back({ "container_start_seconds", run.seconds, "s", static_cast<double>(context.timeout_seconds) });
    if (!has_line(run.output, k_started)) {
        findings.push_back({ "container-start", Verdict::fail,
            *shell + " did not start under " + context.runtime.name + ": "
                + describe_failure(run, context.timeout_seconds) });
        findings.push_back({ "kit-readable", Verdict::unknown, "the container did not start" });
        return;
    }
    findings.push_back({ "container-start", Verdict::ok, *shell + " starts under " + context.runtime.name });
    if (has_line(run.output, k_kit_read))
        findings.push_back({ "kit-readable", Verdict::ok, lock_file + " is readable in the container" });
    else
        findings.push_back({ "kit-readable", Verdict::fail,
            lock_file + " is not readable in the container: " + describe_failure(run, context.timeout_seconds) });
}

} // namespace dlenv::verify
