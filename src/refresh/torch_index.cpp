#include "refresh/torch_index.h"

#include "core/error.h"
#include "core/text.h"
#include "matrix/facts.h"
#include "pypi/wheel_name.h"

#include <algorithm>

namespace dlenv::refresh {
namespace {

constexpr std::size_t k_max_files = 200000;

// "cp312" with ABI "cp312" -> 3.12; free-threaded ("cp313t") and other ABIs: none.
std::optional<PythonVersion> cpython(const pypi::Tag& tag)
{
    if (!tag.python.starts_with("cp3") || tag.abi != tag.python || !all_ascii_digits(tag.python.substr(3)))
        return std::nullopt;
    return PythonVersion::parse("3." + tag.python.substr(3));
}

template <typename T> void add_sorted(std::vector<T>& items, const T& item)
{
    auto at = std::lower_bound(items.begin(), items.end(), item);
    if (at == items.end() || !(*at == item))
        items.insert(at, item);
}

// The newer of two wheels to read METADATA from: the one for the newer Python.
bool newer_python(const pypi::WheelName& a, const pypi::WheelName& b)
{
    auto python
        = [](const pypi::WheelName& w) { return cpython(w.tags.front()).value_or(PythonVersion::parse("3.0")); };
    return python(b) < python(a);
}

} // namespace

std::string release_line(const Pep440Version& version)
{
    std::string text = version.public_str();
    auto first = text.find('.');
    auto second = first == std::string::npos ? first : text.find('.', first + 1);
    return text.substr(0, second);
}

std::vector<PublishedTorchLine> read_torch_index(pypi::Index& index)
{
    std::vector<pypi::DistributionFile> files = index.files("torch");
    if (files.size() > k_max_files)
        throw Error(ErrorCode::invalid_input,
            index.name() + "torch/: lists " + std::to_string(files.size()) + " files, more than "
                + std::to_string(k_max_files),
            "this is not PyTorch's wheel index; check the source URL");
    std::map<std::string, PublishedTorchLine> lines;
    std::map<std::string, pypi::WheelName> chosen; // line/tag -> the wheel metadata_wheel holds
    for (const auto& file : files) {
        pypi::WheelName wheel = [&] {
            try {
                return pypi::WheelName::parse(file.filename);
            } catch (const Error& e) {
                throw e.with_context(index.name() + "torch/: file " + file.url);
            }
        }();
        if (wheel.key() != "torch" || wheel.version.is_prerelease())
            continue;
        std::string line = release_line(wheel.version);
        PublishedTorchLine& published = lines[line];
        published.line = line;
        add_sorted(published.versions, wheel.version.without_local());
        bool linux_x86_64 = std::any_of(wheel.tags.begin(), wheel.tags.end(),
            [](const pypi::Tag& t) { return t.platform.ends_with("linux_x86_64"); });
        if (!linux_x86_64)
            continue;
        for (const auto& tag : wheel.tags)
            if (auto python = cpython(tag))
                add_sorted(published.pythons, *python);
        std::string tag = wheel.version.local_str();
        auto cuda = matrix::variant_cuda(tag);
        if (!cuda)
            continue;
        auto [variant, added] = published.variants.try_emplace(tag, PublishedTorchVariant { tag, *cuda, {}, {}, {} });
        std::string key = line + "/" + tag;
        if (file.metadata_file && (!chosen.contains(key) || newer_python(wheel, chosen.at(key)))) {
            chosen.insert_or_assign(key, wheel);
            variant->second.metadata_wheel = file;
        }
    }
    std::vector<PublishedTorchLine> out;
    for (auto& [line, published] : lines)
        out.push_back(std::move(published));
    return out;
}

std::map<std::string, std::string> nvidia_pins(const pypi::Metadata& metadata)
{
    std::map<std::string, std::string> pins;
    for (const auto& requirement : metadata.requires_dist) {
        const auto& clauses = requirement.specifiers.clauses();
        if (!requirement.key().starts_with("nvidia-") || clauses.size() != 1
            || clauses.front().op() != pypi::Specifier::Op::equal || clauses.front().wildcard())
            continue;
        pins[requirement.key()] = clauses.front().version().str();
    }
    return pins;
}

} // namespace dlenv::refresh
