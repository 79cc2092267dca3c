#pragma once

#include "verify/container_checks.h"
#include "verify/promises.h"
#include "verify/report.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::verify {

// A pinned distribution and the modules it gives `import` in the image (dist_info_modules
// of its installed dist-info; its normalised name when it has none, so that a package
// the image lacks fails to import).
struct ImportPlan {
    PromisedPackage package;
    std::vector<std::string> modules;
};

// One module's import, as the probe in the container reported it.
struct ImportResult {
    std::string module;
    std::optional<std::string> version; // its __version__, when that is a string
    std::optional<std::string> error; // the exception's last line: "ModuleNotFoundError: No module named 'x'"
};

// The plan for each pinned package, in the lock's order, looked up in the image's site
// directories (site-packages and dist-packages alike).
std::vector<ImportPlan> plan_imports(const std::filesystem::path& rootfs, const std::vector<PromisedPackage>& packages);

// The Python program that imports the modules named by its arguments, each on its own,
// and prints a line "dlenv-import {JSON}" for each as it finishes: {"module", "version"}
// or {"module", "error"}. Python 3.6+, standard library only; what the modules print
// goes to standard error.
extern const char* const k_import_probe;

// The results in the probe's output; lines that are not its own are ignored.
std::vector<ImportResult> read_import_results(const std::string& output);

// Findings from the results: `package-import` for each plan (pass naming the modules;
// fail with each failed module's exception, or `unreported` for a module with no result,
// or the version its __version__ gives when the module named as the package gives one
// that is not the pin's; skip when the package has no module), and `framework-import`
// for `promises.framework` and for each of `promises.also`. Versions agree when equal as PEP 440 versions, or when only
// one has a local label and the rest is equal (torch's 2.1.2+cu118 and 2.1.2).
void judge_imports(const std::vector<ImportPlan>& plans, const std::vector<ImportResult>& results,
    const std::string& unreported, const Promises& promises, std::vector<Finding>& findings);

// Runs the probe on every planned module and the framework with the image's python3, in
// one container run on the CPU, and judges the results. When the lock pins packages,
// `python-present` says whether the image's PATH has python3; without it that fails,
// nothing is imported and `framework-import` is skipped. A lock that pins no packages
// gets only the `framework-import` skip.
void check_package_imports(const ContainerContext& context, const Promises& promises, std::vector<Finding>& findings);

} // namespace dlenv::verify
