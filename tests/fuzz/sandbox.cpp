#include "sandbox.h"

#include "core/file.h"
#include "fuzz_input.h"

#include <fstream>
#include <set>
#include <sys/stat.h>

namespace dlenv::fuzz {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view k_canary = "canary\n";

std::set<std::string> names_in(const fs::path& dir)
{
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        names.insert(entry.path().filename().string());
    return names;
}

void expect_names(const fs::path& dir, const std::set<std::string>& expected)
{
    struct stat st { };
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        finding(dir.string() + " is no longer a directory");
    if (names_in(dir) != expected)
        finding("something was written into " + dir.string());
}

} // namespace

Sandbox::Sandbox()
    : m_base(fs::temp_directory_path(), "dlenv-fuzz-")
    , m_root(m_base.path() / "jail" / "root")
    , m_work(m_base.path() / "work")
    , m_outside(m_base.path() / "outside")
{
    fs::create_directories(m_root);
    fs::create_directories(m_work);
    fs::create_directories(m_outside);
    write_bytes(m_outside / "canary", k_canary);
    fs::permissions(m_outside / "canary", fs::perms(0644));
}

void Sandbox::reset() const
{
    remove_tree(m_root);
    fs::create_directories(m_root);
}

void Sandbox::check() const
{
    expect_names(m_base.path(), { "jail", "outside", "work" });
    expect_names(m_base.path() / "jail", { "root" });
    expect_names(m_outside, { "canary" });
    fs::path canary = m_outside / "canary";
    struct stat st { };
    if (::lstat(canary.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 || (st.st_mode & 07777) != 0644)
        finding(canary.string() + " was replaced, linked to or had its mode changed");
    if (read_file(canary) != k_canary)
        finding(canary.string() + " was written to");
}

std::string Sandbox::aim(std::string_view text) const
{
    constexpr std::string_view placeholder = "@OUT@";
    std::string out;
    for (std::size_t at = text.find(placeholder); at != std::string_view::npos; at = text.find(placeholder)) {
        out.append(text.substr(0, at)).append(m_outside.string());
        text.remove_prefix(at + placeholder.size());
    }
    return out.append(text);
}

void write_bytes(const fs::path& path, std::string_view bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush())
        finding("cannot write " + path.string());
}

} // namespace dlenv::fuzz
