#include "registry/credential_helper.h"

#include "core/error.h"
#include "core/json_reader.h"
#include "core/subprocess.h"
#include "registry/secret_field.h"

#include <nlohmann/json.hpp>

#include <regex>

namespace dlenv::registry {
namespace {

// What docker-credential-helpers' helpers print when they hold nothing for a server.
constexpr std::string_view k_not_found = "credentials not found";

std::string server_address(const std::string& registry)
{
    return registry == "docker.io" ? "https://index.docker.io/v1/" : registry;
}

// The helper's own words on a failure, one line of them: its errors name the store, not
// the secret.
std::string first_line(const std::string& out)
{
    std::string line = out.substr(0, out.find('\n'));
    return line.size() > 200 ? line.substr(0, 200) + "..." : line;
}

} // namespace

std::optional<Credentials> ask_credential_helper(
    const std::string& name, const std::string& registry, const std::string& configured_by)
{
    static const std::regex helper_name("[A-Za-z0-9][A-Za-z0-9._-]*");
    if (!std::regex_match(name, helper_name))
        throw Error(ErrorCode::invalid_input, configured_by + ": not the name of a credential helper",
            "name the helper without its docker-credential- prefix, like \"pass\" or \"ecr-login\"");
    std::string program = "docker-credential-" + name;
    std::optional<ProcessResult> answer = run_process({ program, "get" }, server_address(registry));
    if (!answer)
        throw Error(ErrorCode::environment, program + " (" + configured_by + ") cannot be run",
            "install " + program + " in PATH, or remove the field from the Docker config");
    if (answer->exit_code != 0) {
        if (answer->out.find(k_not_found) != std::string::npos)
            return std::nullopt;
        throw Error(ErrorCode::environment,
            program + " get for " + registry + " failed (exit " + std::to_string(answer->exit_code)
                + "): " + first_line(answer->out),
            "log in again with `docker login " + registry + "`");
    }
    std::string source = program + " (" + configured_by + ")";
    nlohmann::json document = JsonReader::parse_secret_document(source, answer->out);
    SecretField reply(source, document, "");
    std::optional<std::string> username = reply.string("Username");
    std::optional<std::string> secret = reply.string("Secret");
    if (!username || !secret)
        reply.fail("expected a Username and a Secret", "log in again with `docker login " + registry + "`");
    // docker-credential-pass answers a server it holds nothing for with both empty.
    if (username->empty() && secret->empty())
        return std::nullopt;
    if (username->empty())
        reply.fail("a Secret without a Username", "log in again with `docker login " + registry + "`");
    if (*username == "<token>")
        throw Error(ErrorCode::environment,
            program + " holds an identity token for " + registry + ", which dlenv does not log in with",
            "log in with a user name and password or token, or set DLENV_REGISTRY_AUTH=USER:PASSWORD");
    return Credentials { *username, *secret, source };
}

} // namespace dlenv::registry
