#include "core/error.h"
#include "core/file.h"
#include "core/sha256.h"
#include "pypi/resolver.h"
#include "pypi/simple_index.h"
#include "pypi/simple_page.h"
#include "pypi/wheelhouse.h"
#include "unit/pypi/index_server.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

using namespace dlenv;
using namespace dlenv::pypi;

namespace {

const std::string k_sha_a = std::string(64, 'a');
const std::string k_sha_b = std::string(64, 'b');

ResolveRequest torch_request()
{
    ResolveRequest r { {}, {}, Target::linux_cpython(PythonVersion::parse("3.11"), "x86_64", 2, 28) };
    for (const char* text : { "torch[opt-einsum]", "torchvision" })
        r.requirements.push_back(Requirement::parse(text));
    r.constraints["torch"] = Constraint { SpecifierSet::parse("==2.1.2+cu118"), "the stack pins torch" };
    r.constraints["nvidia-cudnn-cu11"] = Constraint { SpecifierSet::parse("==8.7.0.*"), "the stack pins cuDNN" };
    return r;
}

// The closure through the index equals the wheelhouse's: same pins, same files, same
// hashes, with the server's URLs.
void check_same_closure(const IndexServer& server, bool sizes)
{
    auto from_index = resolve(torch_request(), IndexSet(server.index()));
    auto from_folder = resolve(torch_request(), IndexSet(std::make_shared<WheelhouseIndex>(server.scratch / "wheels")));
    REQUIRE(from_index.size() == 10);
    REQUIRE(from_index.size() == from_folder.size());
    for (std::size_t i = 0; i < from_index.size(); ++i) {
        INFO(from_folder[i].file.filename);
        CHECK(from_index[i].name == from_folder[i].name);
        CHECK(from_index[i].version == from_folder[i].version);
        CHECK(from_index[i].file.filename == from_folder[i].file.filename);
        CHECK(from_index[i].file.sha256 == from_folder[i].file.sha256);
        CHECK(from_index[i].required_by == from_folder[i].required_by);
        CHECK(from_index[i].index == server.url + "simple/");
        if (sizes)
            CHECK(from_index[i].file.size == from_folder[i].file.size);
    }
    CHECK(from_index[6].file.url
        == server.url + "files/torch-2.1.2%2Bcu118-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl");
}

} // namespace

TEST_CASE("a PEP 691 JSON page gives each file's URL, hashes, Python bound, yank and metadata", "[pypi]")
{
    std::string page = R"({"meta": {"api-version": "1.1"}, "name": "torch", "files": [
        {"filename": "torch-2.1.2-cp311-cp311-linux_x86_64.whl", "url": "../../files/torch-2.1.2-cp311-cp311-linux_x86_64.whl",
         "hashes": {"sha256": ")"
        + k_sha_a + R"("}, "requires-python": ">=3.8.0", "size": 1234,
         "core-metadata": {"sha256": ")"
        + k_sha_b + R"("}},
        {"filename": "torch-2.1.0-py3-none-any.whl", "url": "https://files.example.com/t.whl", "hashes": {},
         "yanked": "broken", "dist-info-metadata": true},
        {"filename": "torch-2.0.0-py3-none-any.whl", "url": "t.whl", "hashes": {"sha256": ")"
        + k_sha_a + R"("},
         "yanked": false, "requires-python": ""}]})";
    auto files = parse_simple_json(page, "https://pypi.example.com/simple/torch/", "torch");
    REQUIRE(files.size() == 3);
    CHECK(files[0].project == "torch");
    CHECK(files[0].url == "https://pypi.example.com/files/torch-2.1.2-cp311-cp311-linux_x86_64.whl");
    CHECK(files[0].sha256 == k_sha_a);
    CHECK(files[0].requires_python->str() == ">=3.8.0");
    CHECK(files[0].size == 1234);
    CHECK(files[0].metadata_file);
    CHECK(files[0].metadata_sha256 == k_sha_b);
    CHECK_FALSE(files[0].yanked);
    CHECK(files[1].url == "https://files.example.com/t.whl");
    CHECK(files[1].sha256.empty());
    CHECK(files[1].yanked);
    CHECK(files[1].metadata_file);
    CHECK(files[1].metadata_sha256.empty());
    CHECK_FALSE(files[2].yanked);
    CHECK_FALSE(files[2].requires_python);
    CHECK_FALSE(files[2].metadata_file);
    CHECK_FALSE(files[2].size);
    CHECK_THROWS_WITH(parse_simple_json(R"({"files": [{"url": "x"}]})", "https://h/simple/x/", "x"),
        "index page https://h/simple/x/: files[0].filename: missing");
}

TEST_CASE("a PEP 503 HTML page gives anchors' files, hash fragments and decoded data attributes", "[pypi]")
{
    std::string page = "<!DOCTYPE html><html><body><h1>Links for numpy</h1>\n"
                       "<A HREF=\"/files/numpy-1.26.2-cp311-cp311-linux_x86_64.whl#sha256="
        + k_sha_a + "\" data-requires-python=\"&gt;=3.9,&#60;4\" data-core-metadata=\"sha256=" + k_sha_b
        + "\">numpy-1.26.2-cp311-cp311-linux_x86_64.whl</A><br/>\n"
          "<a href='numpy-1.0.tar.gz' data-yanked=''>numpy-1.0.tar.gz</a>\n"
          "<a data-dist-info-metadata=true href=https://cdn.example.com/n.whl>\n  numpy-1.25.0-py3-none-any.whl\n</a>"
          "<abbr>not a link</abbr></body></html>";
    auto files = parse_simple_html(page, "http://127.0.0.1:1/simple/numpy/", "numpy");
    REQUIRE(files.size() == 3);
    CHECK(files[0].filename == "numpy-1.26.2-cp311-cp311-linux_x86_64.whl");
    CHECK(files[0].url == "http://127.0.0.1:1/files/numpy-1.26.2-cp311-cp311-linux_x86_64.whl");
    CHECK(files[0].sha256 == k_sha_a);
    CHECK(files[0].requires_python->str() == ">=3.9,<4");
    CHECK(files[0].metadata_file);
    CHECK(files[0].metadata_sha256 == k_sha_b);
    CHECK_FALSE(files[0].yanked);
    CHECK(files[1].filename == "numpy-1.0.tar.gz");
    CHECK(files[1].url == "http://127.0.0.1:1/simple/numpy/numpy-1.0.tar.gz");
    CHECK(files[1].yanked);
    CHECK(files[1].sha256.empty());
    CHECK(files[2].filename == "numpy-1.25.0-py3-none-any.whl");
    CHECK(files[2].url == "https://cdn.example.com/n.whl");
    CHECK(files[2].metadata_file);
    CHECK(files[2].metadata_sha256.empty());
}

TEST_CASE("the torch closure resolved through a PEP 503 index served by http.server equals the wheelhouse's", "[pypi]")
{
    IndexServer server("");
    check_same_closure(server, false);
    auto index = server.index();
    CHECK(index->files("no-such-project").empty());
    auto filelock = index->files("filelock");
    REQUIRE(filelock.size() == 3);
    CHECK(filelock[2].filename == "filelock-99.0-py3-none-any.whl");
    CHECK(filelock[2].yanked);
    // PEP 592: a yanked file is chosen only when pinned with ==.
    ResolveRequest pinned { {}, {}, Target::linux_cpython(PythonVersion::parse("3.11"), "x86_64", 2, 28) };
    pinned.requirements = { Requirement::parse("filelock==99.0") };
    CHECK(resolve(pinned, IndexSet(index))[0].file.filename == "filelock-99.0-py3-none-any.whl");
    pinned.requirements = { Requirement::parse("filelock>=3") };
    CHECK(resolve(pinned, IndexSet(index))[0].file.filename == "filelock-3.13.1-py3-none-any.whl");
    CHECK_THROWS_WITH(index->files("sdist-only"),
        "index " + server.url
            + "simple/: no wheel of sdist-only with a sha256: the index lists only sdist_only-1.0.tar.gz");
}

TEST_CASE("the torch closure resolved through a PEP 691 JSON index equals the wheelhouse's, sizes included", "[pypi]")
{
    IndexServer server("json");
    check_same_closure(server, true);
}

TEST_CASE("a PEP 658 metadata file whose sha256 differs from the index's is refused", "[pypi]")
{
    IndexServer server("json");
    std::string name = "torch-2.1.2+cu118-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl";
    server.scratch.sh(
        "printf 'Metadata-Version: 2.1\\nName: torch\\nVersion: 2.1.2+cu118\\n' >'root/files/" + name + ".metadata'");
    auto index = server.index();
    DistributionFile file = index->files("torch")[0];
    try {
        index->metadata(file);
        FAIL("metadata accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::verification_failed);
        CHECK(e.message()
            == server.url
                + "files/torch-2.1.2%2Bcu118-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl.metadata"
                + " has sha256 " + sha256_file_hex(server.scratch / ("root/files/" + name + ".metadata"))
                + ", the index says " + file.metadata_sha256);
    }
}
