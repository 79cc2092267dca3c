#include "core/error.h"
#include "refresh/row_edits.h"

#include <algorithm>

namespace dlenv::refresh {
namespace {

using Json = nlohmann::ordered_json;

// The version the wheel pins of an nvidia-<component>-cuXY project, parsed as `Version`.
template <typename Version>
std::optional<Version> pinned(const PublishedTorchVariant& variant, std::string_view component)
{
    for (const auto& [project, version] : variant.pins) {
        // nvidia-cudnn-cu12, nvidia-nccl-cu11: the component, then the CUDA major.
        if (!project.starts_with("nvidia-" + std::string(component) + "-cu"))
            continue;
        auto parsed = Version::try_parse(version);
        if (!parsed)
            throw Error(ErrorCode::invalid_input,
                variant.pins_url + ": Requires-Dist " + project + "==" + version + ": not a " + std::string(component)
                    + " version",
                "this is not a torch wheel's METADATA; check the source URL");
        return parsed;
    }
    return std::nullopt;
}

template <typename Version> Json text_or_null(const std::optional<Version>& v)
{
    return v ? Json(v->text()) : Json(nullptr);
}

class TorchRows {
public:
    TorchRows(Documents& docs, const Published& published, Proposal& proposal)
        : m_docs(docs)
        , m_published(published)
        , m_proposal(proposal)
    {
    }

    void variant(Json& release, const PublishedTorchLine& line, const PublishedTorchVariant& variant)
    {
        std::vector<std::string> sources { index_source() };
        auto cudnn = pinned<CudnnVersion>(variant, "cudnn");
        auto nccl = pinned<NcclVersion>(variant, "nccl");
        std::vector<std::string> hand { "arch_list", "ptx", "pypi_default" };
        std::string read_from;
        if (variant.pins_url.empty()) {
            hand.insert(hand.begin(), { "cudnn", "nccl" });
            read_from = "no wheel of it has METADATA on the index";
        } else {
            sources.push_back(m_docs.cite("torch.json", source_key("PT_WHL_META_", line.line + "_" + variant.tag),
                "METADATA (PEP 658) of " + variant.metadata_wheel->filename + " on the PyTorch wheel index",
                variant.pins_url));
            read_from = "pins read from " + variant.metadata_wheel->filename + ".metadata";
        }
        release["variants"].push_back(Json { { "tag", variant.tag }, { "cuda", variant.cuda.text() },
            { "cuda_full", nullptr }, { "pypi_default", false }, { "cudnn", text_or_null(cudnn) },
            { "nccl", text_or_null(nccl) }, { "arch_list", nullptr }, { "ptx", nullptr },
            { "note",
                "Proposed by dlenv matrix refresh from the wheel index (" + read_from
                    + "). arch_list, ptx and "
                      "pypi_default are not derived: fill them from the release's build scripts." },
            { "source", sources }, { "confidence", "confirmed" } });
        m_proposal.changes.push_back(
            { "torch.json", "releases[line=" + line.line + "].variants[tag=" + variant.tag + "]", true,
                "CUDA " + variant.cuda.text() + ", cuDNN " + (cudnn ? cudnn->text() : "not known") + ", NCCL "
                    + (nccl ? nccl->text() : "not known") + " (" + read_from + ")",
                hand });
    }

    // The line's releases no row of it holds join its newest row.
    void versions(const std::vector<Json*>& line_rows, const PublishedTorchLine& line)
    {
        Json& release = *line_rows.front();
        std::vector<Pep440Version> known;
        for (const Json* row : line_rows)
            for (const auto& v : (*row)["versions"])
                known.push_back(Pep440Version::parse(v.get<std::string>()));
        std::vector<Pep440Version> have;
        for (const auto& v : release["versions"])
            have.push_back(Pep440Version::parse(v.get<std::string>()));
        std::vector<std::string> added;
        for (const auto& v : line.versions)
            if (std::find(known.begin(), known.end(), v) == known.end()) {
                known.push_back(v);
                have.push_back(v);
                added.push_back(v.public_str());
            }
        if (added.empty())
            return;
        std::sort(have.begin(), have.end());
        release["versions"] = Json::array();
        for (const auto& v : have)
            release["versions"].push_back(v.public_str());
        add_source(release);
        m_proposal.changes.push_back(
            { "torch.json", "releases[line=" + line.line + "].versions", false, "+ " + join(added), {} });
    }

    Json new_release(const PublishedTorchLine& line)
    {
        Json python = { { "min", nullptr }, { "max", nullptr }, { "experimental", Json::array() } };
        if (!line.pythons.empty())
            python = { { "min", line.pythons.front().text() }, { "max", line.pythons.back().text() },
                { "experimental", Json::array() } };
        Json versions = Json::array();
        for (const auto& v : line.versions)
            versions.push_back(v.public_str());
        std::string python_text = line.pythons.empty() ? std::string("not known")
                                                       : line.pythons.front().text() + "-" + line.pythons.back().text();
        m_proposal.changes.push_back({ "torch.json", "releases[line=" + line.line + "]", true,
            "versions " + join_versions(line.versions) + ", Python " + python_text,
            { "python.experimental", "companions" } });
        return Json { { "line", line.line }, { "versions", versions }, { "python", python },
            { "variants", Json::array() }, { "companions", Json::array() },
            { "source", Json::array({ index_source() }) }, { "confidence", "confirmed" },
            { "note",
                "Proposed by dlenv matrix refresh from the wheel index: the Python range is that of its CPython "
                "wheels for Linux x86_64; experimental Pythons and companions are not derived." } };
    }

private:
    std::string index_source()
    {
        return m_docs.cite("torch.json", "PT_WHL_INDEX",
            "PyTorch wheel index (PEP 503 simple page of torch: every version, variant, Python and platform by "
            "file name), read by dlenv matrix refresh",
            m_published.upstream.pytorch_index + "torch/");
    }

    void add_source(Json& row)
    {
        std::string key = index_source();
        auto& sources = row["source"];
        if (std::find(sources.begin(), sources.end(), Json(key)) == sources.end())
            sources.push_back(key);
    }

    static std::string join(const std::vector<std::string>& items)
    {
        std::string out;
        for (const auto& item : items)
            out += (out.empty() ? "" : ", ") + item;
        return out;
    }

    static std::string join_versions(const std::vector<Pep440Version>& versions)
    {
        std::vector<std::string> texts;
        for (const auto& v : versions)
            texts.push_back(v.public_str());
        return join(texts);
    }

    Documents& m_docs;
    const Published& m_published;
    Proposal& m_proposal;
};

// The rows of a line, newest first: a line has several where its releases differ in what
// they carry (1.3.1 moved its oldest kernels from sm_35 to sm_37).
std::vector<Json*> find_line(Json& releases, const std::string& line)
{
    std::vector<Json*> rows;
    for (auto& release : releases)
        if (release["line"] == line)
            rows.push_back(&release);
    return rows;
}

bool has_variant(const std::vector<Json*>& line_rows, const std::string& tag)
{
    return std::any_of(line_rows.begin(), line_rows.end(), [&](const Json* release) {
        const auto& variants = (*release)["variants"];
        return std::any_of(variants.begin(), variants.end(), [&](const Json& v) { return v["tag"] == tag; });
    });
}

// Where a new line goes: rows are newest first.
Json::iterator position_for(Json& releases, const Pep440Version& line)
{
    return std::find_if(releases.begin(), releases.end(),
        [&](const Json& r) { return Pep440Version::parse(r["line"].get<std::string>()) < line; });
}

// A CPython the index has wheels for beyond the row's range and its experimental versions:
// whether it is supported or experimental is the release notes' to say.
void report_pythons(const matrix::TorchRelease& release, const PublishedTorchLine& line, Proposal& proposal)
{
    std::vector<std::string> beyond;
    for (const auto& python : line.pythons) {
        bool experimental = std::find(release.python_experimental.begin(), release.python_experimental.end(), python)
            != release.python_experimental.end();
        if (!release.python.contains(python) && !experimental)
            beyond.push_back(python.text());
    }
    if (beyond.empty())
        return;
    std::string list;
    for (const auto& python : beyond)
        list += (list.empty() ? "" : ", ") + python;
    proposal.hand_rows.push_back("torch " + line.line + " has CPython " + list
        + " wheels on the index, outside its row's Python range " + release.python.describe()
        + "; needs its python.max or python.experimental from the release notes");
}

} // namespace

void add_torch(Documents& docs, const matrix::Matrix& matrix, const Published& published, Proposal& proposal)
{
    std::optional<Pep440Version> oldest;
    for (const auto& release : matrix.torch_releases())
        if (auto line = Pep440Version::parse(release.line); !oldest || line < *oldest)
            oldest = line;
    TorchRows rows(docs, published, proposal);
    for (const auto& line : published.torch) {
        bool has_cuda = !line.variants.empty();
        if (oldest && Pep440Version::parse(line.line) < *oldest)
            continue;
        Json& releases = docs.edit("torch.json")["releases"];
        std::vector<Json*> line_rows = find_line(releases, line.line);
        if (line_rows.empty()) {
            if (!has_cuda)
                continue;
            auto at = releases.insert(position_for(releases, Pep440Version::parse(line.line)), rows.new_release(line));
            line_rows = { &*at };
        } else {
            rows.versions(line_rows, line);
            auto newest = std::find_if(matrix.torch_releases().begin(), matrix.torch_releases().end(),
                [&](const matrix::TorchRelease& known) { return known.line == line.line; });
            if (newest != matrix.torch_releases().end())
                report_pythons(*newest, line, proposal);
        }
        for (const auto& [tag, variant] : line.variants)
            if (!has_variant(line_rows, tag))
                rows.variant(*line_rows.front(), line, variant);
    }
}

} // namespace dlenv::refresh
