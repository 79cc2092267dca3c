#include "cli/diff_markdown.h"

#include "cli/diff_summary.h"
#include "cli/human_size.h"

#include <sstream>

namespace dlenv::cli {
namespace {

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

std::optional<std::string> layer_cell(const std::optional<workflow::LayerFacts>& layer)
{
    if (!layer)
        return std::nullopt;
    std::string out = "`" + layer->digest.short_text() + "` " + human_size(layer->size);
    return layer->created_by.empty() ? out : out + ", " + layer->created_by;
}

// Exact as well, since two sizes a few bytes apart read the same.
std::string size_cell(std::int64_t bytes)
{
    return human_size(bytes) + " (" + std::to_string(bytes) + " B)";
}

std::string counts(const workflow::SideDiff& diff)
{
    std::string out;
    auto count = [&](const char* title, std::size_t n) {
        if (n != 0)
            out += (out.empty() ? "" : ", ") + std::string(title) + " " + std::to_string(n);
    };
    count("stack", diff.lock.stack.size());
    count("base image", diff.lock.base_image.size());
    count("Python packages", diff.lock.packages.size());
    count("system packages", diff.lock.system_packages.size());
    count("files", diff.lock.files.size());
    count("driver floors", diff.lock.driver.size());
    count("GPU verdicts", diff.lock.gpus.size());
    count("image", diff.image.size() + (diff.bytes ? 1 : 0));
    count("layers", diff.layers.size());
    count("verifications", diff.verifications.size());
    return out;
}

void print_side(std::ostream& out, const workflow::DiffSide& side)
{
    if (!side.image)
        return;
    const workflow::ImageFacts& image = *side.image;
    out << "- `" << side.shown << "`: image `" << image.digest.text() << "`, " << image.layers.size() << " layers, "
        << human_size(image.size());
    std::string separator = "; ";
    for (const auto& [tier, outcome] : image.verifications) {
        out << separator << tier << " " << workflow::tier_outcome_name(outcome);
        separator = ", ";
    }
    out << "\n";
}

void print_fields(std::ostream& out, const char* title, const std::vector<lock::FieldChange>& changes,
    const std::optional<workflow::SizeChange>& bytes = std::nullopt)
{
    if (changes.empty() && !bytes)
        return;
    out << "\n### " << title << "\n\n| | before | after |\n|---|---|---|\n";
    for (const auto& change : changes)
        out << "| " << cell(change.field) << " | " << cell(change.before) << " | " << cell(change.after) << " |\n";
    if (bytes)
        out << "| size | " << size_cell(bytes->before) << " | " << size_cell(bytes->after) << " |\n";
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

void print_layers(std::ostream& out, const std::vector<workflow::LayerChange>& changes)
{
    if (changes.empty())
        return;
    out << "\n### Layers\n\n| layer | before | after |\n|---|---|---|\n";
    for (const auto& change : changes)
        out << "| " << change.position << " | " << cell(layer_cell(change.before)) << " | "
            << cell(layer_cell(change.after)) << " |\n";
}

} // namespace

std::string diff_markdown(
    const workflow::SideDiff& diff, const workflow::DiffSide& before, const workflow::DiffSide& after)
{
    std::ostringstream out;
    if (diff.empty()) {
        out << "No changes: `" << before.shown << "` and `" << after.shown
            << "` lock the same stack, base image, packages, files, driver floors and GPU verdicts.\n";
        print_side(out, before);
        print_side(out, after);
        return out.str();
    }
    std::size_t n = diff.size();
    out << "**" << diff_summary(diff, after) << "**\n\n`" << before.shown << "` → `" << after.shown << "`: " << n
        << (n == 1 ? " change" : " changes") << " (" << counts(diff) << ")\n";
    print_side(out, before);
    print_side(out, after);
    print_fields(out, "Stack", diff.lock.stack);
    print_fields(out, "Base image", diff.lock.base_image);
    print_packages(out, "Python packages", diff.lock.packages);
    print_packages(out, "System packages", diff.lock.system_packages);
    print_fields(out, "Files", diff.lock.files);
    print_fields(out, "Driver floors", diff.lock.driver);
    print_fields(out, "GPU verdicts", diff.lock.gpus);
    print_fields(out, "Image", diff.image, diff.bytes);
    print_layers(out, diff.layers);
    print_fields(out, "Verifications", diff.verifications);
    return out.str();
}

} // namespace dlenv::cli
