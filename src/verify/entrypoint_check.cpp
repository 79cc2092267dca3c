#include "verify/static_checks.h"

#include "core/error.h"
#include "core/file.h"
#include "rootfs/lookup.h"

#include <fcntl.h>
#include <unistd.h>

#include <sstream>

namespace dlenv::verify {
namespace {

constexpr std::string_view k_default_path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// The first line of a file when it starts with "#!": the interpreter and its argument.
std::vector<std::string> shebang(const std::filesystem::path& file)
{
    UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
    char buffer[256];
    ssize_t got = fd.get() < 0 ? -1 : ::read(fd.get(), buffer, sizeof(buffer));
    if (got < 2 || buffer[0] != '#' || buffer[1] != '!')
        return {};
    std::string line(buffer + 2, static_cast<std::size_t>(got) - 2);
    std::istringstream words(line.substr(0, line.find('\n')));
    std::vector<std::string> out;
    for (std::string word; words >> word;)
        out.push_back(word);
    return out;
}

} // namespace

std::string program_search_path(const std::vector<std::string>& env)
{
    return env_value(env, "PATH").value_or(std::string(k_default_path));
}

std::optional<std::string> find_program(
    const std::filesystem::path& rootfs, const std::vector<std::string>& env, const std::string& program)
{
    std::error_code ec;
    auto is_file = [&](const std::string& path) {
        auto host = rootfs::lookup(rootfs, path);
        return host && std::filesystem::is_regular_file(*host, ec);
    };
    if (program.find('/') != std::string::npos)
        return is_file(program) ? std::optional(program) : std::nullopt;
    std::istringstream dirs(program_search_path(env));
    for (std::string dir; std::getline(dirs, dir, ':');)
        if (!dir.empty() && is_file(dir + "/" + program))
            return dir + "/" + program;
    return std::nullopt;
}

std::optional<std::string> check_entrypoint(
    const LibrarySearch& search, const ImageProcess& process, std::vector<Finding>& findings)
{
    if (process.args.empty()) {
        findings.push_back({ "entrypoint", Verdict::fail, "the image config has neither Entrypoint nor Cmd" });
        return std::nullopt;
    }
    std::string program = process.args.front();
    auto path = find_program(search.root, process.env, program);
    // A script runs through its #! interpreter; `#!/usr/bin/env NAME` through NAME.
    for (int depth = 0; path && depth < 4; ++depth) {
        std::vector<std::string> interpreter = shebang(*rootfs::lookup(search.root, *path));
        if (interpreter.empty())
            break;
        program = interpreter[0].ends_with("/env") && interpreter.size() > 1 ? interpreter[1] : interpreter[0];
        path = find_program(search.root, process.env, program);
    }
    if (!path) {
        findings.push_back(
            { "entrypoint", Verdict::fail, program + " (the entrypoint's program) is not in the image" });
        return std::nullopt;
    }
    Closure closure;
    try {
        closure = resolve_closure(search, *path);
    } catch (const Error& e) {
        findings.push_back({ "entrypoint", Verdict::fail, e.message() });
        return std::nullopt;
    }
    for (const auto& missing : closure.missing)
        findings.push_back({ "entrypoint-closure", Verdict::fail,
            *path + ": " + missing.name + ", needed by " + missing.needed_by + ", is not in the image" });
    if (closure.missing.empty())
        findings.push_back({ "entrypoint-closure", Verdict::ok,
            *path + " and its " + std::to_string(closure.loaded.size() - 1)
                + " dependencies resolve inside the image" });
    return path;
}

} // namespace dlenv::verify
