#include "resolve/python_runtime.h"

#include "core/error.h"

namespace dlenv::resolve {
namespace {

std::string builds_listed(const matrix::Matrix& matrix)
{
    std::string out;
    for (const auto& build : matrix.python_runtimes())
        out += (out.empty() ? "" : ", ") + build.python.text();
    return out.empty() ? "none" : out;
}

} // namespace

std::optional<PythonRuntimePin> pin_python_runtime(const matrix::Matrix& matrix, const Profile& profile)
{
    const std::optional<PythonRuntimeSource>& source = profile.packages.python_runtime;
    if (!source)
        return std::nullopt;
    if (!source->standalone)
        return PythonRuntimePin { source->url, source->sha256, "", "" };
    const std::string& machine = profile.packages.machine;
    const matrix::PythonRuntimeBuild* build = matrix.python_runtime(*source->standalone);
    const matrix::PythonRuntimeArchive* archive = nullptr;
    if (build)
        if (auto it = build->archives.find(machine); it != build->archives.end())
            archive = &it->second;
    if (!archive)
        throw Error(ErrorCode::conflict,
            profile.file + ": packages.python_runtime: the matrix has no python-build-standalone build of CPython "
                + source->standalone->text() + " for " + machine + " (it has " + builds_listed(matrix) + ")",
            "add the build to profiles/compat/python_runtimes.json, or name the archive: "
            "\"python_runtime\": {\"url\": ..., \"sha256\": ...}");
    return PythonRuntimePin { archive->url, archive->sha256, build->python.text(), build->release };
}

} // namespace dlenv::resolve
