#include "cli/diff_summary.h"

#include <algorithm>
#include <array>
#include <vector>

namespace dlenv::cli {
namespace {

const std::string k_arrow = " → ";

std::string or_none(const std::optional<std::string>& text)
{
    return text ? *text : "none";
}

std::string counted(std::size_t n, const std::string& one, const std::string& many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "torch 2.5.0 → 2.5.1" when the framework stays, "torch 2.5.1 → jax 0.4.30" when not.
std::string framework_phrase(const lock::LockDiff& diff, const lock::LockedStack& after)
{
    auto change = std::find_if(diff.stack.begin(), diff.stack.end(),
        [](const lock::FieldChange& field) { return field.field == "framework"; });
    if (change == diff.stack.end())
        return after.framework + " " + after.framework_version + " unchanged";
    std::string before = or_none(change->before);
    std::string now = or_none(change->after);
    std::string name = after.framework + " ";
    if (before.starts_with(name) && now.starts_with(name))
        return name + before.substr(name.size()) + k_arrow + now.substr(name.size());
    return before + k_arrow + now;
}

// CUDA, cuDNN, NCCL and Python with their versions; the arch list and PTX as changed.
void stack_phrases(std::vector<std::string>& out, const lock::LockDiff& diff)
{
    const std::array<std::string, 4> versions { "CUDA", "cuDNN", "NCCL", "Python" };
    for (const auto& change : diff.stack) {
        if (std::find(versions.begin(), versions.end(), change.field) != versions.end())
            out.push_back(change.field + " " + or_none(change.before) + k_arrow + or_none(change.after));
        else if (change.field == "arch list" || change.field == "PTX")
            out.push_back(change.field + " changed");
    }
}

std::string base_phrase(const lock::LockDiff& diff)
{
    auto changed = [&](const char* field) {
        return std::any_of(diff.base_image.begin(), diff.base_image.end(),
            [&](const lock::FieldChange& change) { return change.field == field; });
    };
    if (diff.base_image.empty())
        return "base unchanged";
    if (changed("reference"))
        return "base changed";
    if (changed("digest") || changed("manifest"))
        return "base digest changed";
    return "what the base carries changed";
}

void driver_and_gpu_phrases(std::vector<std::string>& out, const lock::LockDiff& diff)
{
    if (!diff.driver.empty()) {
        const lock::FieldChange& first = diff.driver.front();
        out.push_back(first.field == "toolkit minimum"
                ? "driver floor " + or_none(first.before) + k_arrow + or_none(first.after)
                : "driver floors changed");
    }
    if (!diff.gpus.empty())
        out.push_back(counted(diff.gpus.size(), "GPU verdict", "GPU verdicts") + " changed");
}

void image_phrases(std::vector<std::string>& out, const workflow::SideDiff& diff, const workflow::DiffSide& after)
{
    if (!diff.layers.empty() && after.image)
        out.push_back(std::to_string(diff.layers.size()) + " of " + std::to_string(after.image->layers.size())
            + " layers changed");
    for (const auto& change : diff.verifications)
        out.push_back(change.field + " " + or_none(change.before) + k_arrow + or_none(change.after));
}

} // namespace

std::string diff_summary(const workflow::SideDiff& diff, const workflow::DiffSide& after)
{
    const lock::LockDiff& changes = diff.lock;
    std::vector<std::string> phrases { framework_phrase(changes, after.lock.stack()) };
    stack_phrases(phrases, changes);
    phrases.push_back(changes.packages.empty() ? "packages unchanged"
                                               : counted(changes.packages.size(), "package", "packages") + " changed");
    if (!changes.system_packages.empty())
        phrases.push_back(counted(changes.system_packages.size(), "system package", "system packages") + " changed");
    if (!changes.files.empty())
        phrases.push_back(counted(changes.files.size(), "file", "files") + " changed");
    phrases.push_back(base_phrase(changes));
    driver_and_gpu_phrases(phrases, changes);
    image_phrases(phrases, diff, after);
    std::string out;
    for (const auto& phrase : phrases)
        out += (out.empty() ? "" : ", ") + phrase;
    return out;
}

} // namespace dlenv::cli
