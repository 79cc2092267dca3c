#include "image/dockerfile.h"

#include "core/embedded_file.h"
#include "core/error.h"
#include "core/file.h"
#include "core/output_file.h"
#include "image/file_source.h"
#include "image/image_config.h"
#include "image/image_labels.h"
#include "image/kit.h"
#include "lock/requirements_file.h"
#include "rootfs/dlenv_files.h"
#include "rootfs/file_mode.h"

#include <map>
#include <vector>

namespace dlenv::image {

const std::vector<EmbeddedFile>& embedded_templates();

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

// The lock's Python runtime, checked against its sha256 as Docker downloads it, and its
// packages, installed by pip from the requirements file beside the Dockerfile.
std::string packages(const lock::Lockfile& lock)
{
    std::string out;
    const lock::PythonEnvironment& python = lock.python();
    if (python.runtime)
        out += "# The relocatable CPython the lock pins, unpacked under " + python.prefix + ".\n"
            + "ADD --checksum=sha256:" + python.runtime->sha256 + " " + python.runtime->url
            + " /tmp/python-runtime.tar.gz\n" + "RUN tar -xzf /tmp/python-runtime.tar.gz -C " + python.prefix
            + " --strip-components=1 && rm /tmp/python-runtime.tar.gz\n\n";
    const auto& locked = lock.packages();
    if (!locked || locked->empty())
        return out + "# The lock pins no packages.";
    return out + "# Every package pinned by URL and sha256; pip refuses anything else.\n"
        + "COPY requirements.lock.txt " + std::string(rootfs::k_requirements_file) + "\n"
        + "RUN python3 -m pip install --no-cache-dir --no-deps --require-hashes -r "
        + std::string(rootfs::k_requirements_file);
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

std::string template_text()
{
    for (const auto& file : embedded_templates())
        if (file.name == "Dockerfile.in")
            return std::string(file.contents);
    throw Error(ErrorCode::environment, "templates/Dockerfile.in was not compiled in");
}

void replace_all(std::string& text, const std::string& placeholder, const std::string& value)
{
    for (std::size_t at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at + value.size()))
        text.replace(at, placeholder.size(), value);
}

} // namespace

std::string render_dockerfile(const lock::Lockfile& lock, const matrix::Matrix& matrix)
{
    std::string text = template_text();
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
    replace_all(text, "@PACKAGES@", packages(lock));
    return text;
}

void write_docker_context(
    const lock::Lockfile& lock, const std::filesystem::path& dockerfile, const matrix::Matrix& matrix)
{
    OutputFile out(dockerfile);
    // A Dockerfile sent to a stream (`-`, for `docker build -f - .`) has its context here.
    std::filesystem::path context
        = out.is_stream() || dockerfile.parent_path().empty() ? "." : dockerfile.parent_path();
    const std::vector<lock::LockedFile>& files = lock.image().files;
    for (std::size_t i = 0; i < files.size(); ++i)
        copy_file_atomic(file_source(lock, i, files[i]), context / "files" / files[i].target.substr(1));
    write_file_atomic(context / "dlenv.lock.json", lock.text());
    for (const auto& file : embedded_kit())
        write_file_atomic(context / "kit" / std::string(file.name), file.contents);
    if (const auto& locked = lock.packages(); locked && !locked->empty())
        write_file_atomic(context / "requirements.lock.txt", lock::requirements_file(lock));
    out.write(render_dockerfile(lock, matrix));
    out.commit();
}

} // namespace dlenv::image
