#include "core/error.h"
#include "core/file.h"
#include "matrix/matrix.h"
#include "refresh/published.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <thread>

using namespace dlenv;
using namespace dlenv::refresh;

namespace {

// The vendors' pages of tests/fixtures/matrix_refresh served on 127.0.0.1 by http.server.
struct ReplicaServer {
    Scratch scratch;
    std::string base; // "http://127.0.0.1:PORT"
    ::pid_t pid = 0;

    ReplicaServer()
    {
        const std::string fixtures = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/";
        scratch.sh("python3 '" + fixtures + "wheels/serve_index.py' '" + fixtures
            + "matrix_refresh' port >/dev/null 2>&1 & echo $! >pid");
        pid = std::stoi(read_file(scratch / "pid"));
        for (int i = 0; i < 500 && !std::filesystem::exists(scratch / "port"); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        base = "http://127.0.0.1:" + read_file(scratch / "port");
    }
    ~ReplicaServer() { ::kill(pid, SIGTERM); }
};

// The built-in matrices without torch 2.6's cu124 build and CUDA 12.4.1, so a refresh reads
// that build's METADATA and the 12.4.1 manifest too.
matrix::Matrix matrix_before_cu124()
{
    auto files = matrix::matrix_files({});
    auto edit = [&](const std::string& name, const std::function<void(nlohmann::ordered_json&)>& change) {
        auto doc = nlohmann::ordered_json::parse(files.at(name));
        change(doc);
        files[name] = doc.dump(2, ' ', true) + "\n";
    };
    edit("torch.json", [](nlohmann::ordered_json& doc) {
        for (auto& line : doc["releases"])
            if (line["line"] == "2.6") {
                auto& variants = line["variants"];
                for (auto it = variants.begin(); it != variants.end(); ++it)
                    if ((*it)["tag"] == "cu124") {
                        variants.erase(it);
                        break;
                    }
            }
    });
    edit("cuda.json", [](nlohmann::ordered_json& doc) {
        auto& toolkits = doc["toolkits"];
        for (auto it = toolkits.begin(); it != toolkits.end(); ++it)
            if ((*it)["version"] == "12.4.1") {
                toolkits.erase(it);
                break;
            }
    });
    return matrix::Matrix::load(files, "old");
}

std::string error_of(const matrix::Matrix& matrix, const Upstream& upstream)
{
    try {
        read_published(matrix, upstream);
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_CASE(
    "each page a refresh reads is bounded, and one past its bound is refused naming the URL and limit", "[refresh]")
{
    ReplicaServer server;
    const matrix::Matrix matrix = matrix_before_cu124();
    Upstream upstream = Upstream::under(server.base);
    // Within the bounds the replica reads whole: the cu124 pins and the 12.4.1 manifest.
    Published published = read_published(matrix, upstream);
    REQUIRE(published.cuda.size() == 1);
    CHECK(published.pypi.at("jax").size() == 5);

    SECTION("the torch wheel index")
    {
        upstream.limits.torch_index = 1000;
        CHECK(error_of(matrix, upstream)
            == "index " + server.base + "/whl/: GET " + server.base
                + "/whl/torch/: the body is larger than the limit of 1000 bytes");
    }
    SECTION("a wheel's METADATA")
    {
        upstream.limits.wheel_metadata = 1000;
        CHECK(error_of(matrix, upstream)
            == "index " + server.base + "/whl/: GET " + server.base
                + "/whl/cu124/torch-2.6.0%2Bcu124-cp312-cp312-linux_x86_64.whl.metadata: the body is larger than "
                  "the limit of 1000 bytes");
    }
    SECTION("a redistrib manifest")
    {
        upstream.limits.redist_manifest = 1000;
        CHECK(error_of(matrix, upstream)
            == "GET " + server.base
                + "/compute/cuda/redist/redistrib_12.4.1.json: the body is larger than the limit of 1000 bytes");
    }
    SECTION("a PyPI project document")
    {
        upstream.limits.pypi_project = 1000;
        CHECK(error_of(matrix, upstream)
            == "GET " + server.base + "/pypi/jax/json: the body is larger than the limit of 1000 bytes");
    }
}
