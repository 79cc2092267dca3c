#include "lock/image_section.h"

#include "core/error.h"
#include "core/file.h"
#include "core/regular_file.h"
#include "core/sha256.h"
#include "lock/section_json.h"
#include "rootfs/file_mode.h"
#include "rootfs/path.h"

namespace dlenv::lock {
namespace {

// The directory every file of a profile must resolve inside, and how messages name it.
struct FilesRoot {
    std::filesystem::path path; // resolved
    std::string name;
};

FilesRoot files_root_of(const resolve::Profile& profile, const std::optional<std::filesystem::path>& files_root)
{
    std::filesystem::path dir = files_root ? *files_root : std::filesystem::absolute(profile.file).parent_path();
    std::error_code ec;
    std::filesystem::path resolved = std::filesystem::canonical(dir, ec);
    if (ec)
        throw Error(ErrorCode::invalid_input, "resolve " + dir.string() + ": " + ec.message());
    return { resolved, files_root ? "the --files-root" : "the profile's directory" };
}

LockedFile locked_file(
    const resolve::Profile& profile, std::size_t i, const FilesRoot& root, const std::filesystem::path& lock_dir)
{
    const resolve::ProfileFile& file = profile.files[i];
    std::string field = profile.file + ": files[" + std::to_string(i) + "].source: ";
    std::filesystem::path source = std::filesystem::path(profile.file).parent_path() / file.source;
    std::filesystem::path resolved;
    try {
        resolved = resolve_regular_file(source);
    } catch (const Error& e) {
        throw Error(e.code(), field + e.message(), "the path is relative to the profile's directory");
    }
    if (!is_inside(resolved, root.path))
        throw Error(ErrorCode::invalid_input,
            field + file.source + " resolves to " + resolved.string() + ", outside " + root.name + " "
                + root.path.string(),
            "keep the image's files inside the profile's directory, or pass `dlenv lock --files-root DIR` "
            "to allow the files inside DIR");
    std::string bytes = read_file(resolved);
    std::filesystem::path relative
        = std::filesystem::absolute(source).lexically_relative(std::filesystem::absolute(lock_dir));
    return { relative.generic_string(), file.target, file.mode, sha256_hex(bytes),
        static_cast<std::int64_t>(bytes.size()) };
}

LockedFile read_locked_file(const JsonReader& item)
{
    item.allow_only({ "source", "target", "mode", "sha256", "size" });
    LockedFile file { item.at("source").string(), item.at("target").string(), 0, item.at("sha256").string(),
        item.at("size").non_negative_integer() };
    if (file.source.empty() || file.source.front() == '/')
        item.at("source").fail("expected a path relative to the lockfile's directory", "run `dlenv lock` again");
    if (std::string problem = rootfs::path_length_problem(file.source); !problem.empty())
        item.at("source").fail(problem, "run `dlenv lock` again");
    if (std::string problem = rootfs::image_target_problem(file.target); !problem.empty())
        item.at("target").fail(problem, "fix the profile's files and run `dlenv lock` again");
    auto mode = rootfs::parse_file_mode(item.at("mode").string());
    if (!mode)
        item.at("mode").fail("expected an octal mode like \"0644\"", "run `dlenv lock` again");
    file.mode = *mode;
    if (!is_sha256_hex(file.sha256))
        item.at("sha256").fail("expected 64 lowercase hexadecimal digits", "run `dlenv lock` again");
    return file;
}

} // namespace

ImageSection image_section_of(const resolve::Profile& profile, const std::optional<std::filesystem::path>& files_root,
    const std::filesystem::path& lock_dir)
{
    ImageSection section { profile.source_date_epoch, {} };
    if (!profile.files.empty()) {
        FilesRoot root = files_root_of(profile, files_root);
        for (std::size_t i = 0; i < profile.files.size(); ++i)
            section.files.push_back(locked_file(profile, i, root, lock_dir));
    }
    return section;
}

ImageSection read_image_section(const JsonReader& image)
{
    image.allow_only({ "source_date_epoch", "files" });
    ImageSection section { image.at("source_date_epoch").non_negative_integer(), {} };
    for (const auto& item : image.at("files").items())
        section.files.push_back(read_locked_file(item));
    return section;
}

nlohmann::json to_json(const ImageSection& image)
{
    nlohmann::json files = nlohmann::json::array();
    for (const auto& file : image.files)
        files.push_back({ { "source", file.source }, { "target", file.target },
            { "mode", rootfs::file_mode_text(file.mode) }, { "sha256", file.sha256 }, { "size", file.size } });
    return { { "source_date_epoch", image.source_date_epoch }, { "files", files } };
}

} // namespace dlenv::lock
