#include "image/dockerfile.h"

#include "core/file.h"
#include "core/output_file.h"
#include "image/dockerfile_python.h"
#include "image/dockerfile_system.h"
#include "image/file_source.h"
#include "image/image_config.h"
#include "image/image_labels.h"
#include "image/kit.h"
#include "image/templates.h"
#include "rootfs/dlenv_files.h"
#include "rootfs/file_mode.h"

#include <map>
#include <vector>

namespace dlenv::image {

namespace {

std::string quoted(const std::string& value)
{
    std::string out = "\"";
    for (char c : value) {
        if (c == '"' || c == '\\' || c == '$')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

// KEY="value" pairs, one per continued line.
template <typename Pairs> std::string key_values(const Pairs& pairs)
{
    std::string out;
    for (const auto& [key, value] : pairs)
        out += (out.empty() ? "" : " \\\n    ") + key + "=" + quoted(value);
    return out;
}

std::string base_image(const lock::Lockfile& lock)
{
    const lock::BaseImageSection& base = lock.base_image();
    if (base.digest)
        return base.reference + "@" + base.digest->text();
    return base.reference + "\n# The lock pins no digest for this base yet: the tag may move under you.";
}

std::string files(const lock::Lockfile& lock)
{
    const lock::ImageSection& image = lock.image();
    if (image.files.empty())
        return "# The lock pins no files.";
    std::string out = "# The files the lock pins, with their modes.";
    for (const auto& file : image.files) {
        out += "\nCOPY --chmod=" + rootfs::file_mode_text(file.mode) + " "
            + nlohmann::json::array({ "files" + file.target, file.target }).dump();
    }
    return out;
}

// One COPY per kit directory, naming its files, so that --chmod sets the files' mode and
// Docker makes the directories 0755, as `dlenv build` does.
std::string kit()
{
    std::map<std::string, std::vector<std::string>> by_directory;
    for (const auto& file : embedded_kit()) {
        std::filesystem::path name(file.name);
        std::string directory = std::string(rootfs::k_kit_dir) + "/" + name.parent_path().generic_string();
        if (directory.back() != '/')
            directory += '/';
        by_directory[directory].push_back("kit/" + name.generic_string());
    }
    std::string out;
    for (const auto& [directory, sources] : by_directory) {
        nlohmann::json arguments(sources);
        arguments.push_back(directory);
        out += (out.empty() ? "" : "\n") + std::string("COPY --chmod=0644 ") + arguments.dump();
    }
    return out;
}

void replace_all(std::string& text, const std::string& placeholder, const std::string& value)
{
    for (std::size_t at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at + value.size()))
        text.replace(at, placeholder.size(), value);
}

} // namespace

std::string render_dockerfile(
    const lock::Lockfile& lock, const matrix::Matrix& matrix, const std::optional<PackagesTarget>& packages)
{
    std::string text = embedded_template("Dockerfile.in");
    replace_all(text, "@PROFILE@", lock.profile().name);
    replace_all(text, "@LOCK_DIGEST@", lock.digest().text());
    replace_all(text, "@LOCK_FILE@", std::string(rootfs::k_lock_file));
    replace_all(text, "@BASE_IMAGE@", base_image(lock));
    replace_all(text, "@DEFAULT_PATH@", std::string(k_default_path));
    replace_all(text, "@DEFAULT_LIBRARY_PATH@", std::string(k_default_library_path));
    replace_all(text, "@ENV@", key_values(nvidia_environment(lock, matrix)));
    replace_all(text, "@LABELS@", key_values(image_labels(lock)));
    replace_all(text, "@FILES@", files(lock));
    replace_all(text, "@KIT@", kit());
    replace_all(text, "@SYSTEM_PACKAGES@", system_steps(lock));
    replace_all(text, "@PACKAGES@", python_steps(lock, packages));
    return text;
}

void write_docker_context(const lock::Lockfile& lock, const std::filesystem::path& dockerfile,
    const matrix::Matrix& matrix, const std::optional<PackagesTarget>& packages, DockerWheels wheels,
    const store::Store* store)
{
    OutputFile out(dockerfile);
    // A Dockerfile sent to a stream (`-`, for `docker build -f - .`) has its context here.
    std::filesystem::path context
        = out.is_stream() || dockerfile.parent_path().empty() ? "." : dockerfile.parent_path();
    const std::vector<lock::LockedFile>& files = lock.image().files;
    for (std::size_t i = 0; i < files.size(); ++i)
        copy_file_atomic(file_source(lock, i, files[i]), context / "files" / files[i].target.substr(1));
    write_file_atomic(context / "dlenv.lock.json", lock.text());
    write_context_debs(lock, store, context / "debs");
    for (const auto& file : embedded_kit())
        write_file_atomic(context / "kit" / std::string(file.name), file.contents);
    if (const auto& locked = lock.packages(); locked && !locked->empty()) {
        copy_context_wheels(lock, wheels, store, context / "wheels");
        write_file_atomic(context / "wheels" / "requirements.txt", docker_requirements(lock, wheels));
        if (asks_image_python(lock, packages))
            write_file_atomic(context / "wheels" / "install_packages.py", install_packages_script());
    }
    out.write(render_dockerfile(lock, matrix, packages));
    out.commit();
}

} // namespace dlenv::image
