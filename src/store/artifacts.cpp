#include "store/artifacts.h"

#include "core/file.h"
#include "core/sha256.h"

namespace dlenv::store {

std::filesystem::path artifact_dir(const Store& store)
{
    return store.records_dir() / "artifacts" / "sha256";
}

std::optional<std::filesystem::path> find_artifact(const Store& store, const std::string& sha256)
{
    if (!is_sha256_hex(sha256))
        return std::nullopt;
    std::filesystem::path path = artifact_dir(store) / sha256;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return std::nullopt;
    return path;
}

StoredArtifact add_artifact(const Store& store, const std::string& sha256,
    const std::function<void(const ArtifactSink&)>& write, const MismatchError& mismatch)
{
    if (!is_sha256_hex(sha256))
        throw Error(
            ErrorCode::invalid_input, "artifact sha256 '" + sha256 + "': expected 64 lowercase hexadecimal digits");
    // The temporary name starts with "." like a blob's, so fsck and gc know it for a leftover.
    AtomicFile file(artifact_dir(store) / sha256, 0444);
    Sha256 hash;
    std::int64_t size = 0;
    write([&](std::string_view bytes) {
        hash.update(bytes);
        file.write(bytes);
        size += static_cast<std::int64_t>(bytes.size());
    });
    std::string actual = hash.hex_digest();
    if (actual != sha256) {
        if (mismatch)
            throw mismatch(actual);
        throw Error(ErrorCode::verification_failed, "artifact has sha256 " + actual + ", expected " + sha256,
            "nothing was stored: the source changed since its sha256 was recorded");
    }
    file.commit();
    return { artifact_dir(store) / sha256, size };
}

} // namespace dlenv::store
