// Hostile and broken input to the commands, as a user would meet it: each is refused as
// bad input (exit 2) with a message that names the file, the field and the fix, and
// never crashes, hangs or reads outside what it should.
#include "core/file.h"
#include "support/run_dlenv.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace dlenv;
using dlenv::testing::error_of;
using dlenv::testing::run_dlenv;

namespace {

struct Refusal {
    int exit_code;
    std::string error; // "message | hint"
};

Refusal refusal_of(const std::vector<std::string>& args)
{
    std::vector<std::string> with_json = args;
    with_json.push_back("--json");
    ProcessResult r = run_dlenv(with_json);
    return { r.exit_code, r.exit_code == 0 ? "accepted" : error_of(r) };
}

} // namespace

TEST_CASE("JSON nested 100,000 deep is refused by every command that reads it, naming the file", "[cli]")
{
    Scratch scratch;
    std::string deep = (scratch / "deep.json").string();
    write_file_atomic(deep, std::string(100000, '[') + std::string(100000, ']'));
    std::filesystem::create_directories(scratch / "matrix");
    write_file_atomic(scratch / "matrix/cuda.json", std::string(100000, '['));
    const std::string hint = "dlenv reads JSON nested at most 64 levels deep; this is not a file it wrote or expects";
    const std::string message = deep + ": arrays and objects nest deeper than 64 levels | " + hint;
    std::string store = (scratch / "store").string();

    CHECK(refusal_of({ "build", deep, "--store", store }).error == message);
    CHECK(refusal_of({ "fetch", deep, "--store", store }).error == message);
    CHECK(refusal_of({ "lock", deep, "--offline" }).error == message);
    CHECK(refusal_of({ "doctor", "--lock", deep, "--read-size", "1" }).error == message);
    CHECK(refusal_of({ "--matrix", (scratch / "matrix").string(), "check", "--framework", "torch==2.1" }).error
        == (scratch / "matrix/cuda.json").string() + ": arrays and objects nest deeper than 64 levels | " + hint);
    CHECK(refusal_of({ "build", deep, "--store", store }).exit_code == 2);
}
