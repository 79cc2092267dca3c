// Hostile and broken input to the commands, as a user would meet it: each is refused as
// bad input (exit 2) with a message that names the file, the field and the fix, and
// never crashes, hangs or reads outside what it should.
#include "core/file.h"
#include "support/resigned_lock.h"
#include "support/run_dlenv.h"
#include "support/scratch.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace dlenv;
using dlenv::testing::error_of;
using dlenv::testing::resigned_lock;
using dlenv::testing::run_dlenv;

namespace {

// The shipped pytorch-2.1-cu118 profile over scratch, with `edit` applied, written to
// DIR/profile.json; returns its path.
std::string write_profile(const Scratch& scratch, const std::string& dir, const nlohmann::json& edit)
{
    nlohmann::json profile
        = nlohmann::json::parse(read_file(std::string(DLENV_SOURCE_DIR) + "/profiles/pytorch-2.1-cu118.json"));
    profile["base_image"] = "scratch";
    profile.merge_patch(edit);
    std::string path = (scratch / (dir + "/profile.json")).string();
    write_file_atomic(path, profile.dump());
    return path;
}

// A lock of that profile with one pinned file, DIR/train.py, then `edit` applied and the
// lock signed again, so only the checks after its digest stand. Returns its path.
std::string write_lock(const Scratch& scratch, const nlohmann::json& edit)
{
    write_file_atomic(scratch / "app/train.py", "print('train')\n");
    std::string profile = write_profile(
        scratch, "app", { { "files", { { { "source", "train.py" }, { "target", "/app/train.py" } } } } });
    std::string lock = (scratch / "app/app.lock.json").string();
    REQUIRE(run_dlenv({ "lock", profile, "-o", lock, "--offline" }).exit_code == 0);
    nlohmann::json json = nlohmann::json::parse(read_file(lock));
    json.merge_patch(edit);
    write_file_atomic(lock, resigned_lock(json));
    return lock;
}

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

TEST_CASE("a lock that parses but breaks its schema is bad input, exit 2, naming the file and the field", "[cli]")
{
    Scratch scratch;
    std::string store = (scratch / "store").string();
    auto build = [&](const nlohmann::json& edit) {
        return refusal_of({ "build", write_lock(scratch, edit), "--store", store });
    };
    std::string lock = (scratch / "app/app.lock.json").string();

    Refusal missing = build({ { "stack", nullptr } });
    CHECK(missing.exit_code == 2);
    CHECK(missing.error == lock + ": stack: missing | add the field \"stack\"");

    Refusal number = build({ { "stack", { { "cuda", 11.8 } } } });
    CHECK(number.exit_code == 2);
    CHECK(number.error == lock + ": stack.cuda: expected a string, got 11.8 (number) | ");

    std::string text = read_file(lock);
    text.replace(text.find("\"size\": 15"), 10, "\"size\": 1e400");
    write_file_atomic(lock, text);
    Refusal overflow = refusal_of({ "build", lock, "--store", store });
    CHECK(overflow.exit_code == 2);
    CHECK(overflow.error
        == lock + ": not valid JSON: number overflow parsing '1e400' | dlenv reads numbers that fit in a double");
    CHECK_FALSE(std::filesystem::exists(scratch / "store"));
}

TEST_CASE("a lock's file must be a regular file: a device, a directory or a FIFO is refused before it is read", "[cli]")
{
    Scratch scratch;
    std::filesystem::create_directories(scratch / "app/dir");
    scratch.sh("mkfifo app/fifo");
    std::string store = (scratch / "store").string();
    const std::string hint = "the path is relative to the lockfile's directory and names a regular file; restore the "
                             "file or run `dlenv lock` again";
    const std::vector<std::pair<std::string, std::string>> cases = {
        { "../../../../../../../../dev/zero", "a character device" },
        { "dir", "a directory" },
        { "fifo", "a FIFO" },
    };
    for (const auto& [source, kind] : cases) {
        INFO(source);
        nlohmann::json files = { { { "source", source }, { "target", "/app/x" }, { "mode", "0644" },
            { "sha256", std::string(64, 'a') }, { "size", 1 } } };
        std::string lock = write_lock(scratch, { { "image", { { "files", files } } } });
        Refusal r = refusal_of({ "build", lock, "--store", store });
        CHECK(r.exit_code == 2);
        CHECK(r.error
            == lock + ": image.files[0].source: " + (scratch / "app" / source).string() + " is " + kind
                + ", not a regular file | " + hint);
        Refusal dockerfile
            = refusal_of({ "build", lock, "--store", store, "--dockerfile", (scratch / "docker/Dockerfile").string() });
        CHECK(dockerfile.error == r.error);
    }
}

TEST_CASE("a profile's files must resolve inside its directory unless --files-root allows another", "[cli]")
{
    Scratch scratch;
    write_file_atomic(scratch / "outside/secret.txt", "secret\n");
    write_file_atomic(scratch / "team/train.py", "print('train')\n");
    std::filesystem::create_directories(scratch / "team/dir");
    std::filesystem::create_symlink("../outside/secret.txt", scratch / "team/link.txt");
    std::string lock = (scratch / "team.lock.json").string();
    std::string outside = (scratch / "outside/secret.txt").string();
    std::string root = (scratch / "team").string();
    const std::string hint = "keep the image's files inside the profile's directory, or pass `dlenv lock --files-root "
                             "DIR` to allow the files inside DIR";
    auto lock_with = [&](const std::string& source, std::vector<std::string> extra = {}) {
        std::string profile
            = write_profile(scratch, "team", { { "files", { { { "source", source }, { "target", "/app/x" } } } } });
        std::vector<std::string> args = { "lock", profile, "-o", lock, "--offline" };
        args.insert(args.end(), extra.begin(), extra.end());
        return refusal_of(args);
    };
    std::string field = (scratch / "team/profile.json").string() + ": files[0].source: ";

    CHECK(lock_with("train.py").exit_code == 0);
    CHECK(lock_with("../outside/secret.txt").error
        == field + "../outside/secret.txt resolves to " + outside + ", outside the profile's directory " + root + " | "
            + hint);
    CHECK(lock_with("link.txt").error
        == field + "link.txt resolves to " + outside + ", outside the profile's directory " + root + " | " + hint);
    CHECK(lock_with("../../../../../../../../../../etc/passwd").error
        == field + "../../../../../../../../../../etc/passwd resolves to /etc/passwd, outside the profile's directory "
            + root + " | " + hint);
    CHECK(lock_with("dir").error
        == field + (scratch / "team/dir").string()
            + " is a directory, not a regular file | the path is relative to the profile's "
              "directory");
    CHECK(lock_with("link.txt", { "--files-root", scratch.dir().string() }).exit_code == 0);
    CHECK(lock_with("../../../../../../../../../../etc/passwd", { "--files-root", scratch.dir().string() }).error
        == field + "../../../../../../../../../../etc/passwd resolves to /etc/passwd, outside the --files-root "
            + scratch.dir().string() + " | " + hint);
}

TEST_CASE("lock refuses a profile whose image dlenv could not build right, naming the field", "[cli]")
{
    Scratch scratch;
    write_file_atomic(scratch / "team/train.py", "print('train')\n");
    std::string lock = (scratch / "team.lock.json").string();
    std::string field = (scratch / "team/profile.json").string() + ": ";
    const std::vector<std::pair<nlohmann::json, std::string>> cases = {
        { { { "files", { { { "source", "train.py" }, { "target", "/opt/dlenv/dlenv.lock.json" } } } } },
            "files[0].target: /opt/dlenv belongs to dlenv (the lock and the validation kit); put the file elsewhere "
            "| " },
        { { { "name", "Team App" } },
            "name: invalid image name \"Team App\" | use lowercase letters, digits and . _ - between them, with / "
            "between path components" },
        { { { "requirements", { "numpy", "torch>>=;;" } } },
            "requirements[1]: requirement 'torch>>=;;': '>>=' is not a PEP 440 version specifier: '>=' is not a PEP "
            "440 version | write it as PEP 508 does: torch==2.1.2, requests[socks]>=2.31; python_version >= \"3.8\"" },
    };
    for (const auto& [edit, message] : cases) {
        Refusal r = refusal_of({ "lock", write_profile(scratch, "team", edit), "-o", lock, "--offline" });
        CHECK(r.exit_code == 2);
        CHECK(r.error == field + message);
    }
    CHECK_FALSE(std::filesystem::exists(lock));
}

TEST_CASE("gc refuses a store whose blobs/sha256 is not a directory as bad input, exit 2", "[cli]")
{
    Scratch scratch;
    std::string store = (scratch / "store").string();
    scratch.sh("mkdir -p store/blobs && printf '{\"imageLayoutVersion\": \"1.0.0\"}' > store/oci-layout && "
               "printf '{\"schemaVersion\": 2, \"manifests\": []}' > store/index.json && touch store/blobs/sha256");
    Refusal gc = refusal_of({ "gc", "--store", store });
    CHECK(gc.exit_code == 2);
    CHECK(gc.error
        == store
            + "/blobs/sha256: not a directory | the layout is damaged: blobs/sha256 holds the blobs, one file each; "
              "move the file away");
}

TEST_CASE("gc of a store whose blobs/sha256 is gone removes nothing instead of failing", "[cli]")
{
    Scratch scratch;
    std::string store = (scratch / "store").string();
    scratch.sh("mkdir -p store && printf '{\"imageLayoutVersion\": \"1.0.0\"}' > store/oci-layout && "
               "printf '{\"schemaVersion\": 2, \"manifests\": []}' > store/index.json");
    auto gc = run_dlenv({ "gc", "--store", store, "--json" });
    CHECK(gc.exit_code == 0);
    CHECK(nlohmann::json::parse(gc.out).at("removed_blobs") == 0);
    CHECK_FALSE(std::filesystem::exists(scratch / "store/blobs/sha256"));
}

TEST_CASE("gc refuses a negative --keep as a usage error, exit 2, instead of keeping everything", "[cli]")
{
    Scratch scratch;
    std::string command
        = std::string(DLENV_BINARY) + " gc --keep -1 --store '" + (scratch / "store").string() + "' 2>&1";
    auto keep = run_process({ "sh", "-c", command });
    REQUIRE(keep);
    CHECK(keep->exit_code == 2);
    CHECK(
        keep->out == "--keep: expected a whole number of at least 0, got -1\nRun with --help for more information.\n");
    CHECK_FALSE(std::filesystem::exists(scratch / "store"));
}
