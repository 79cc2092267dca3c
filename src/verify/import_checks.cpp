#include "verify/import_checks.h"

#include "core/json_reader.h"
#include "core/pep440.h"
#include "verify/dist_info.h"
#include "verify/static_checks.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace dlenv::verify {
namespace {

constexpr std::string_view k_result_prefix = "dlenv-import ";

// The current directory leaves sys.path first, so that a file beside the image's working
// directory cannot stand in for an installed module; the real stdout is kept for the
// results, since modules may print while they load.
constexpr const char* k_probe_source = R"(import importlib, json, sys, traceback
if sys.path and sys.path[0] == "":
    del sys.path[0]
out, sys.stdout = sys.stdout, sys.stderr
for name in sys.argv[1:]:
    result = {"module": name}
    try:
        version = getattr(importlib.import_module(name), "__version__", None)
        result["version"] = str(version) if isinstance(version, str) else None
    except BaseException as e:
        result["error"] = traceback.format_exception_only(type(e), e)[-1].strip()
    out.write("dlenv-import " + json.dumps(result) + "\n")
    out.flush()
)";

bool versions_agree(const std::string& reported, const std::string& pinned)
{
    auto a = Pep440Version::try_parse(reported);
    auto b = Pep440Version::try_parse(pinned);
    if (!a || !b)
        return reported == pinned;
    return *a == *b || ((a->local().empty() || b->local().empty()) && a->without_local() == b->without_local());
}

const ImportResult* result_of(const std::vector<ImportResult>& results, const std::string& module)
{
    auto found = std::find_if(results.begin(), results.end(), [&](const auto& r) { return r.module == module; });
    return found == results.end() ? nullptr : &*found;
}

std::string joined(const std::vector<std::string>& parts, const std::string& separator)
{
    std::string out;
    for (const auto& part : parts)
        out += (out.empty() ? "" : separator) + part;
    return out;
}

Finding judge_package(const ImportPlan& plan, const std::vector<ImportResult>& results, const std::string& unreported)
{
    const PromisedPackage& package = plan.package;
    std::string pinned = package.name + " " + package.version;
    if (plan.modules.empty())
        return { "package-import", Verdict::unknown, pinned + " installs no module to import" };
    std::vector<std::string> failures;
    for (const auto& module : plan.modules) {
        const ImportResult* result = result_of(results, module);
        if (!result)
            failures.push_back("import " + module + " did not report: " + unreported);
        else if (result->error)
            failures.push_back("import " + module + " failed: " + *result->error);
        else if (module == normalized_name(package.name) && result->version
            && !versions_agree(*result->version, package.version))
            failures.push_back(module + ".__version__ is " + *result->version + ", the lock pins " + package.version);
    }
    if (!failures.empty())
        return { "package-import", Verdict::fail, pinned + ": " + joined(failures, "; ") };
    return { "package-import", Verdict::ok, pinned + " imports (" + joined(plan.modules, ", ") + ")" };
}

Finding judge_framework(const std::string& module, const std::string& expected,
    const std::vector<ImportResult>& results, const std::string& unreported)
{
    const ImportResult* result = result_of(results, module);
    if (!result)
        return { "framework-import", Verdict::fail, "import " + module + " failed: " + unreported };
    if (result->error)
        return { "framework-import", Verdict::fail, "import " + module + " failed: " + *result->error };
    std::string version = result->version.value_or("no __version__");
    if (!result->version || !versions_agree(version, expected))
        return { "framework-import", Verdict::fail,
            "import " + module + " gives version " + version + ", the lock pins " + expected };
    return { "framework-import", Verdict::ok, "import " + module + " works on the CPU and gives version " + version };
}

Finding framework_not_pinned(const Promises& promises)
{
    return { "framework-import", Verdict::unknown,
        "the lock pins no " + promises.framework_name + " package, so the image does not install it" };
}

// The framework the lock pins, then those beside it: each is imported on its own.
std::vector<std::string> imported_frameworks(const Promises& promises)
{
    std::vector<std::string> out;
    if (promises.framework)
        out.push_back(*promises.framework);
    out.insert(out.end(), promises.also.begin(), promises.also.end());
    return out;
}

} // namespace

const char* const k_import_probe = k_probe_source;

std::vector<ImportPlan> plan_imports(const std::filesystem::path& rootfs, const std::vector<PromisedPackage>& packages)
{
    std::vector<std::string> sites = site_dirs(rootfs);
    std::vector<ImportPlan> plans;
    for (const auto& package : packages) {
        auto dist_info = find_dist_info(rootfs, sites, package.name);
        plans.push_back({ package,
            dist_info ? dist_info_modules(rootfs, *dist_info)
                      : std::vector<std::string> { normalized_name(package.name) } });
    }
    return plans;
}

std::vector<ImportResult> read_import_results(const std::string& output)
{
    std::vector<ImportResult> results;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
        if (!line.starts_with(k_result_prefix))
            continue;
        nlohmann::json json = JsonReader::parse_document_or_null(std::string_view(line).substr(k_result_prefix.size()));
        if (!json.is_object() || !json.contains("module") || !json["module"].is_string())
            continue;
        ImportResult result { json["module"].get<std::string>(), std::nullopt, std::nullopt };
        if (json.contains("version") && json["version"].is_string())
            result.version = json["version"].get<std::string>();
        if (json.contains("error") && json["error"].is_string())
            result.error = json["error"].get<std::string>();
        results.push_back(std::move(result));
    }
    return results;
}

void judge_imports(const std::vector<ImportPlan>& plans, const std::vector<ImportResult>& results,
    const std::string& unreported, const Promises& promises, std::vector<Finding>& findings)
{
    for (const auto& plan : plans)
        findings.push_back(judge_package(plan, results, unreported));
    if (!promises.framework)
        findings.push_back(framework_not_pinned(promises));
    for (const auto& module : imported_frameworks(promises)) {
        std::string expected;
        for (const auto& package : promises.packages)
            if (package.name == module)
                expected = package.version;
        findings.push_back(judge_framework(module, expected, results, unreported));
    }
}

void check_package_imports(const ContainerContext& context, const Promises& promises, std::vector<Finding>& findings)
{
    if (promises.packages.empty()) {
        judge_imports({}, {}, {}, promises, findings);
        return;
    }
    auto python = find_program(context.rootfs, context.process.env, "python3");
    if (!python) {
        findings.push_back({ "python-present", Verdict::fail,
            "the lock pins " + std::to_string(promises.packages.size())
                + " packages but the image has no python3 in its PATH (" + program_search_path(context.process.env)
                + ")" });
        if (!promises.framework)
            findings.push_back(framework_not_pinned(promises));
        findings.insert(findings.end(), imported_frameworks(promises).size(),
            Finding { "framework-import", Verdict::unknown, "the image has no python3" });
        return;
    }
    findings.push_back({ "python-present", Verdict::ok, "python3 is " + *python });
    std::vector<ImportPlan> plans = plan_imports(context.rootfs, promises.packages);
    std::vector<std::string> args { *python, "-c", k_import_probe };
    std::set<std::string> modules;
    for (const auto& plan : plans)
        modules.insert(plan.modules.begin(), plan.modules.end());
    for (const auto& module : imported_frameworks(promises))
        modules.insert(module);
    args.insert(args.end(), modules.begin(), modules.end());
    ContainerRun run = run_container(context.runtime, spec_for(context, std::move(args)), context.rootfs,
        context.work_dir / "imports", context.timeout_seconds, true);
    judge_imports(
        plans, read_import_results(run.output), describe_failure(run, context.timeout_seconds), promises, findings);
}

} // namespace dlenv::verify
