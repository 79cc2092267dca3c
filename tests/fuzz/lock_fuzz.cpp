// A lockfile (dlenv build LOCKFILE), read whole: a lock it accepts must write bytes that
// read back as themselves. A JSON object gets its "digest" recomputed first, as `dlenv
// lock` would have written it, so that mutations reach the checks behind the digest
// instead of all failing at it.
#include "core/canonical_json.h"
#include "core/sha256.h"
#include "fuzz_input.h"
#include "lock/lockfile.h"

#include <nlohmann/json.hpp>

#include <optional>

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
    std::optional<lock::Lockfile> lock;
    fuzz::expect_only_error([&] { lock = lock::Lockfile::parse("fuzz/demo.lock.json", text); });
    if (!lock)
        return 0;
    std::string written = lock->text();
    try {
        if (lock::Lockfile::parse("fuzz/demo.lock.json", written).text() != written)
            fuzz::finding("a lock read back writes other bytes");
    } catch (const Error& e) {
        fuzz::finding("a lock dlenv wrote is refused: " + e.message());
    }
    return 0;
}
