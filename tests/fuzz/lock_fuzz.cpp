// A lockfile (dlenv build LOCKFILE) and every section a build reads from it. A JSON
// object gets its "digest" recomputed first, as `dlenv lock` would have written it, so
// that mutations reach the checks behind the digest instead of all failing at it.
#include "core/canonical_json.h"
#include "core/sha256.h"
#include "fuzz_input.h"
#include "lock/lockfile.h"

namespace {

std::string sealed(std::string_view text)
{
    nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (!json.is_object())
        return std::string(text);
    json.erase("digest");
    json["digest"] = "sha256:" + dlenv::sha256_hex(dlenv::to_canonical_json(json));
    return json.dump();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace dlenv;
    std::string text = sealed(fuzz::text_of(data, size));
    fuzz::expect_only_error([&] {
        lock::Lockfile lock = lock::Lockfile::parse("fuzz/demo.lock.json", text);
        lock.text();
        fuzz::expect_only_error([&] { lock.image(); });
        fuzz::expect_only_error([&] { lock.profile_name(); });
        fuzz::expect_only_error([&] {
            lock.base_reference();
            lock.base_digest();
            lock.base_manifest();
            lock.base_platform();
        });
        fuzz::expect_only_error([&] { lock.packages(); });
        fuzz::expect_only_error([&] { lock.package_sources(); });
        fuzz::expect_only_error([&] { lock.python_environment(); });
    });
    return 0;
}
