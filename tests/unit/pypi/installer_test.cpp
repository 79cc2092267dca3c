#include "core/error.h"
#include "core/file.h"
#include "core/subprocess.h"
#include "pypi/entry_points.h"
#include "pypi/installer.h"
#include "support/lines.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace dlenv;
using namespace dlenv::pypi;
namespace fs = std::filesystem;

namespace {

const std::string k_make_wheels = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/wheels/make_wheels.py";

struct TreeFile {
    std::string contents;
    unsigned mode;
    bool operator==(const TreeFile&) const = default;
};
using Tree = std::map<std::string, TreeFile>;

// Every regular file under `root` by relative path; `lib` (pip's home-scheme library
// directory) is lifted to the root, which is what `pip install --target` does with it.
Tree tree_of(const fs::path& root, const std::string& lib = "")
{
    Tree out;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (!entry.is_regular_file())
            continue;
        std::string path = fs::relative(entry.path(), root).generic_string();
        if (!lib.empty() && path.starts_with(lib + "/"))
            path = path.substr(lib.size() + 1);
        struct stat st { };
        REQUIRE(::stat(entry.path().c_str(), &st) == 0);
        out[path] = { read_file(entry.path()), static_cast<unsigned>(st.st_mode & 07777) };
    }
    return out;
}

std::string python_output(const std::string& code)
{
    auto result = run_process({ "python3", "-c", code });
    REQUIRE(result);
    REQUIRE(result->exit_code == 0);
    std::string out = result->out;
    while (!out.empty() && out.back() == '\n')
        out.pop_back();
    return out;
}

// pip's install scheme for `--target` (distutils' home scheme, whose lib directory pip
// then moves to the target), with pip's own interpreter for shebangs.
InstallScheme home_scheme()
{
    return InstallScheme { "lib/python", "lib/python", "bin", "", "include/python",
        python_output("import sys; print(sys.executable)"),
        PythonVersion::parse(python_output("import sys; print('%d.%d' % sys.version_info[:2])")) };
}

// Installs `wheel` with dlenv and with `pip install --no-deps --target`, and checks
// that the trees are equal but for what pip adds or says differently:
// INSTALLER ("pip\n" against "dlenv\n"), REQUESTED and direct_url.json (pip records
// how it was asked), and the three RECORD lines of those files.
void check_same_as_pip(const Scratch& scratch, const fs::path& wheel)
{
    INFO(wheel.filename().string());
    fs::path ours = scratch / ("dlenv-" + wheel.stem().string());
    fs::path pips = scratch / ("pip-" + wheel.stem().string());
    InstalledWheel installed = install_wheel(wheel, home_scheme(), ours);
    scratch.sh("python3 -m pip install --quiet --no-deps --no-index --no-compile --disable-pip-version-check "
               "--root-user-action=ignore --target '"
        + pips.string() + "' '" + wheel.string() + "'");
    Tree mine = tree_of(ours, "lib/python");
    Tree theirs = tree_of(pips);

    std::string dist_info = installed.name == "demo-pkg"
        ? "demo_pkg-1.0.dist-info"
        : installed.name + "-" + installed.version.str() + ".dist-info";
    CHECK(theirs.at(dist_info + "/INSTALLER").contents == "pip\n");
    CHECK(mine.at(dist_info + "/INSTALLER") == TreeFile { "dlenv\n", 0644 });
    CHECK(theirs.at(dist_info + "/REQUESTED").contents.empty());
    CHECK(theirs.at(dist_info + "/direct_url.json").contents.find("\"url\": \"file://" + wheel.string() + "\"")
        != std::string::npos);
    auto record_without = [](const std::string& record, std::set<std::string> files) {
        std::vector<std::string> out;
        for (const auto& line : lines(record))
            if (!files.count(line.substr(0, line.find(','))))
                out.push_back(line);
        return out;
    };
    std::string installer = dist_info + "/INSTALLER";
    CHECK(record_without(mine.at(dist_info + "/RECORD").contents, { installer })
        == record_without(theirs.at(dist_info + "/RECORD").contents,
            { installer, dist_info + "/REQUESTED", dist_info + "/direct_url.json" }));
    CHECK(lines(mine.at(dist_info + "/RECORD").contents).size() + 2
        == lines(theirs.at(dist_info + "/RECORD").contents).size());

    for (const auto& file : { "/INSTALLER", "/REQUESTED", "/direct_url.json", "/RECORD" }) {
        mine.erase(dist_info + file);
        theirs.erase(dist_info + file);
    }
    std::vector<std::string> mine_paths, their_paths;
    for (const auto& [path, file] : mine)
        mine_paths.push_back(path);
    for (const auto& [path, file] : theirs)
        their_paths.push_back(path);
    CHECK(mine_paths == their_paths);
    for (const auto& [path, file] : mine) {
        INFO(path);
        CHECK((theirs.count(path) && theirs.at(path) == file));
    }
    CHECK(installed.files.size() == mine.size() + 2);
}

} // namespace

TEST_CASE("installing a wheel gives the tree pip install --target gives, .data and entry points included", "[pypi]")
{
    Scratch scratch;
    scratch.sh("python3 '" + k_make_wheels + "' wheels install");
    check_same_as_pip(scratch, scratch / "wheels/demo_pkg-1.0-py3-none-any.whl");
}

TEST_CASE("installing Debian's pip, setuptools and wheel wheels gives the tree pip gives", "[pypi]")
{
    Scratch scratch;
    check_same_as_pip(scratch, "/usr/share/python-wheels/pip-23.0.1-py3-none-any.whl");
    check_same_as_pip(scratch, "/usr/share/python-wheels/setuptools-66.1.1-py3-none-any.whl");
    check_same_as_pip(scratch, "/usr/share/python-wheels/wheel-0.38.4-py3-none-any.whl");
}

TEST_CASE("an image's scheme puts each part under the prefix and scripts name the image's python", "[pypi]")
{
    Scratch scratch;
    scratch.sh("python3 '" + k_make_wheels + "' wheels install");
    auto scheme = InstallScheme::for_prefix("usr/local", PythonVersion::parse("3.11"));
    auto installed = install_wheel(scratch / "wheels/demo_pkg-1.0-py3-none-any.whl", scheme, scratch / "root");
    CHECK(installed.name == "demo-pkg");
    CHECK(installed.files
        == std::vector<std::string> { "usr/local/bin/demo", "usr/local/bin/demo-gui", "usr/local/bin/demo-sub",
            "usr/local/bin/demo-tool", "usr/local/bin/demo-wrapper", "usr/local/bin/plain.sh",
            "usr/local/include/python3.11/demo-pkg/demo.h", "usr/local/lib/python3.11/site-packages/demo_extra.py",
            "usr/local/lib/python3.11/site-packages/demo_pkg-1.0.dist-info/INSTALLER",
            "usr/local/lib/python3.11/site-packages/demo_pkg-1.0.dist-info/METADATA",
            "usr/local/lib/python3.11/site-packages/demo_pkg-1.0.dist-info/RECORD",
            "usr/local/lib/python3.11/site-packages/demo_pkg-1.0.dist-info/WHEEL",
            "usr/local/lib/python3.11/site-packages/demo_pkg-1.0.dist-info/entry_points.txt",
            "usr/local/lib/python3.11/site-packages/demo_pkg/__init__.py",
            "usr/local/lib/python3.11/site-packages/demo_pkg/cli.py",
            "usr/local/lib/python3.11/site-packages/demo_pkg/tool.sh",
            "usr/local/lib/python3.11/site-packages/demo_plat.py", "usr/local/share/demo/readme.txt" });
    CHECK(read_file(scratch / "root/usr/local/bin/demo-tool")
        == "#!/usr/local/bin/python3.11\nimport demo_pkg\nprint(demo_pkg.VERSION)\n");
    CHECK(read_file(scratch / "root/usr/local/bin/plain.sh") == "#!/bin/sh\necho plain\n");
    CHECK(read_file(scratch / "root/usr/local/bin/demo-sub")
        == "#!/usr/local/bin/python3.11\n# -*- coding: utf-8 -*-\nimport re\nimport sys\nfrom demo_pkg.cli import "
           "Group\n"
           "if __name__ == '__main__':\n    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n"
           "    sys.exit(Group.run())\n");
    auto record
        = lines(read_file(scratch / "root/usr/local/lib/python3.11/site-packages/demo_pkg-1.0.dist-info/RECORD"));
    REQUIRE(record.size() == 18);
    CHECK(record[0] == "../../../bin/demo,sha256=RBVD1uRiMxt9Ki9TKJ98ggT_V1F6Cdnz54Fl-Qk1nNg,220\r");
    CHECK(record[9] == "demo_pkg-1.0.dist-info/INSTALLER,sha256=bhbwEF9r9hK47msxXYwmmRgFpT-W6Jno5UeGM9J22so,6\r");
    CHECK(record[11] == "demo_pkg-1.0.dist-info/RECORD,,\r");

    // The same wheel installs to the same bytes again.
    install_wheel(scratch / "wheels/demo_pkg-1.0-py3-none-any.whl", scheme, scratch / "again");
    CHECK(tree_of(scratch / "root") == tree_of(scratch / "again"));
}

TEST_CASE("pip's and setuptools' versioned scripts are named after the target's python", "[pypi]")
{
    auto pip
        = scripts_of_entry_points("[console_scripts]\npip = pip._internal.cli.main:main\npip3 = x:y\npip3.9 = x:y\n",
            PythonVersion::parse("3.10"), "entry_points.txt");
    REQUIRE(pip.size() == 3);
    CHECK(pip[0].name == "pip");
    CHECK(pip[1].name == "pip3");
    CHECK(pip[2].name == "pip3.10");
    CHECK(pip[2].module == "pip._internal.cli.main");
    try {
        scripts_of_entry_points("[console_scripts]\nbroken = nocolon\n", PythonVersion::parse("3.10"), "e.txt");
        FAIL("accepted");
    } catch (const Error& e) {
        CHECK(e.message() == "e.txt: entry point 'broken = nocolon' is not 'name = module:attribute'");
    }
}

TEST_CASE("a wheel altered after it was built, or with a path out of its tree, is refused", "[pypi]")
{
    Scratch scratch;
    scratch.sh("python3 '" + k_make_wheels + "' wheels tampered");
    auto scheme = InstallScheme::for_prefix("usr", PythonVersion::parse("3.11"));
    try {
        install_wheel(scratch / "wheels/altered/demo_pkg-1.0-py3-none-any.whl", scheme, scratch / "root");
        FAIL("accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::verification_failed);
        CHECK(e.message()
            == "install wheel demo_pkg-1.0-py3-none-any.whl: 'demo_pkg/cli.py' has "
               "sha256=Nyet_1JOBhYCLq3Y9K8hoHeLKfxMd73-_Rr84sv15Lc, RECORD says "
               "sha256=A9T6KmS4jCrA8bi-x3HNtPq2mAjEWcu5QKkHrx56c5A");
    }
    CHECK_FALSE(fs::exists(scratch / "root/usr/lib/python3.11/site-packages/demo_pkg/cli.py"));
    try {
        install_wheel(scratch / "wheels/escaping/demo_pkg-1.0-py3-none-any.whl", scheme, scratch / "root2");
        FAIL("accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message()
            == "install wheel demo_pkg-1.0-py3-none-any.whl: member '../evil.py' leaves the directory it is unpacked "
               "into");
    }
    CHECK_FALSE(fs::exists(scratch / "root2/usr/lib/python3.11/evil.py"));
}
