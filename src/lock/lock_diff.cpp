#include "lock/lock_diff.h"

#include <cstdio>
#include <map>

namespace dlenv::lock {
namespace {

using Text = std::optional<std::string>;

void compare(std::vector<FieldChange>& out, const std::string& field, const Text& before, const Text& after)
{
    if (before != after)
        out.push_back({ field, before, after });
}

template <typename Version> Text text_of(const std::optional<Version>& version)
{
    return version ? Text(version->text()) : std::nullopt;
}

std::string joined(const std::vector<ComputeCapability>& capabilities)
{
    std::string out;
    for (const auto& capability : capabilities)
        out += (out.empty() ? "" : " ") + capability.text();
    return out;
}

// Fields both sides name by key, compared key by key in key order.
void compare_keyed(
    std::vector<FieldChange>& out, const std::map<std::string, Text>& before, const std::map<std::string, Text>& after)
{
    std::map<std::string, std::pair<Text, Text>> both;
    for (const auto& [key, value] : before)
        both[key].first = value;
    for (const auto& [key, value] : after)
        both[key].second = value;
    for (const auto& [key, values] : both)
        compare(out, key, values.first, values.second);
}

std::map<std::string, Text> companions_of(const LockedStack& stack)
{
    std::map<std::string, Text> out;
    for (const auto& companion : stack.companions)
        out[companion.name] = companion.version;
    return out;
}

// "0.4.31 [cuda12]" by name ("jax"), for each framework beside the stack's own.
std::map<std::string, Text> also_of(const LockedStack& stack)
{
    std::map<std::string, Text> out;
    for (const auto& framework : stack.also)
        out[framework.name] = framework.version + (framework.extra.empty() ? "" : " [" + framework.extra + "]");
    return out;
}

std::vector<FieldChange> stack_changes(const LockedStack& a, const LockedStack& b)
{
    std::vector<FieldChange> out;
    compare(out, "framework", a.framework + " " + a.framework_version, b.framework + " " + b.framework_version);
    compare_keyed(out, companions_of(a), companions_of(b));
    compare_keyed(out, also_of(a), also_of(b));
    compare(out, "CUDA", a.cuda.text(), b.cuda.text());
    compare(out, "cuDNN", text_of(a.cudnn), text_of(b.cudnn));
    compare(out, "NCCL", text_of(a.nccl), text_of(b.nccl));
    compare(out, "Python", a.python.text(), b.python.text());
    compare(out, "arch list", joined(a.arch_list), joined(b.arch_list));
    compare(out, "PTX", joined(a.ptx), joined(b.ptx));
    return out;
}

template <typename Value> Text fact_of(const std::optional<BaseCarries>& carries, Value BaseCarries::*member)
{
    if (!carries || !(*carries.*member))
        return std::nullopt;
    const auto& fact = *(*carries.*member);
    return fact.value.text() + " (" + fact.origin + ")";
}

Text digest_of(const std::optional<Digest>& digest)
{
    return digest ? Text(digest->text()) : std::nullopt;
}

std::vector<FieldChange> base_changes(const BaseImageSection& a, const BaseImageSection& b)
{
    std::vector<FieldChange> out;
    compare(out, "reference", a.reference, b.reference);
    compare(out, "digest", digest_of(a.digest), digest_of(b.digest));
    compare(out, "manifest", digest_of(a.manifest), digest_of(b.manifest));
    compare(out, "platform", a.platform, b.platform);
    compare(out, "carries CUDA", fact_of(a.carries, &BaseCarries::cuda), fact_of(b.carries, &BaseCarries::cuda));
    compare(out, "carries cuDNN", fact_of(a.carries, &BaseCarries::cudnn), fact_of(b.carries, &BaseCarries::cudnn));
    compare(out, "carries NCCL", fact_of(a.carries, &BaseCarries::nccl), fact_of(b.carries, &BaseCarries::nccl));
    compare(out, "carries Python", fact_of(a.carries, &BaseCarries::python), fact_of(b.carries, &BaseCarries::python));
    return out;
}

std::vector<FieldChange> driver_changes(const LockedStack& a, const LockedStack& b)
{
    std::vector<FieldChange> out;
    compare(out, "toolkit minimum", a.toolkit_driver.text(), b.toolkit_driver.text());
    compare(out, "minor-version minimum", text_of(a.minor_version_driver), text_of(b.minor_version_driver));
    compare(out, "forward compatibility", a.forward_compat ? "yes" : "no", b.forward_compat ? "yes" : "no");
    return out;
}

std::map<std::string, Text> verdicts_of(const LockedStack& stack)
{
    std::map<std::string, Text> out;
    for (const auto& gpu : stack.gpus)
        out[gpu.name] = std::string(resolve::verdict_name(gpu.verdict));
    return out;
}

template <typename Package> std::map<std::string, PinnedVersion> pins_of(const std::vector<Package>& packages)
{
    std::map<std::string, PinnedVersion> out;
    for (const auto& package : packages)
        out[package.name] = { package.version, package.sha256 };
    return out;
}

std::vector<PackageChange> package_changes(
    const std::map<std::string, PinnedVersion>& a, const std::map<std::string, PinnedVersion>& b)
{
    std::map<std::string, PackageChange> both;
    for (const auto& [name, pin] : a)
        both[name] = { name, pin, std::nullopt };
    for (const auto& [name, pin] : b)
        both.try_emplace(name, PackageChange { name, std::nullopt, std::nullopt }).first->second.after = pin;
    std::vector<PackageChange> out;
    for (auto& [name, change] : both) {
        bool same = change.before && change.after && change.before->version == change.after->version
            && change.before->sha256 == change.after->sha256;
        if (!same)
            out.push_back(std::move(change));
    }
    return out;
}

std::map<std::string, Text> files_of(const ImageSection& image)
{
    std::map<std::string, Text> out;
    for (const auto& file : image.files) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", file.mode);
        out[file.target] = file.sha256.substr(0, 12) + " mode " + mode;
    }
    return out;
}

std::map<std::string, PinnedVersion> python_pins(const Lockfile& lock)
{
    return lock.packages() ? pins_of(*lock.packages()) : std::map<std::string, PinnedVersion> {};
}

std::map<std::string, PinnedVersion> system_pins(const Lockfile& lock)
{
    return lock.system_packages() ? pins_of(lock.system_packages()->packages) : std::map<std::string, PinnedVersion> {};
}

} // namespace

PackageChangeKind PackageChange::kind() const
{
    if (!before)
        return PackageChangeKind::added;
    if (!after)
        return PackageChangeKind::removed;
    return before->version != after->version ? PackageChangeKind::version : PackageChangeKind::sha256;
}

std::string_view package_change_name(PackageChangeKind kind)
{
    switch (kind) {
    case PackageChangeKind::added:
        return "added";
    case PackageChangeKind::removed:
        return "removed";
    case PackageChangeKind::version:
        return "version";
    case PackageChangeKind::sha256:
        return "sha256";
    }
    return "sha256";
}

std::size_t LockDiff::size() const
{
    return stack.size() + base_image.size() + packages.size() + system_packages.size() + files.size() + driver.size()
        + gpus.size();
}

bool LockDiff::empty() const
{
    return size() == 0;
}

LockDiff diff_locks(const Lockfile& before, const Lockfile& after)
{
    LockDiff diff;
    diff.stack = stack_changes(before.stack(), after.stack());
    diff.base_image = base_changes(before.base_image(), after.base_image());
    diff.packages = package_changes(python_pins(before), python_pins(after));
    diff.system_packages = package_changes(system_pins(before), system_pins(after));
    compare_keyed(diff.files, files_of(before.image()), files_of(after.image()));
    diff.driver = driver_changes(before.stack(), after.stack());
    compare_keyed(diff.gpus, verdicts_of(before.stack()), verdicts_of(after.stack()));
    return diff;
}

} // namespace dlenv::lock
