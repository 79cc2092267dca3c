#pragma once

#include "oci/descriptor.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace dlenv::oci {

// Streams bytes into a new blob: a temporary file under blobs/sha256/ that is hashed as
// it is written. `commit` fsyncs it and renames it to its digest (replacing a blob of
// that name, which can only hold the same bytes or be a damaged copy); a writer destroyed
// without `commit` removes its temporary file. Readers never see a partial blob.
class BlobWriter {
public:
    explicit BlobWriter(const std::filesystem::path& blob_dir);
    ~BlobWriter();
    BlobWriter(BlobWriter&&) noexcept;
    BlobWriter& operator=(BlobWriter&&) = delete;
    BlobWriter(const BlobWriter&) = delete;
    BlobWriter& operator=(const BlobWriter&) = delete;

    void write(std::string_view bytes);
    std::int64_t size() const;

    struct Committed {
        Digest digest;
        std::int64_t size;
    };
    Committed commit();
    // Commits only when the bytes match `expected` (size and digest); otherwise removes
    // them and throws Error(verification_failed) naming `what`.
    Committed commit_expecting(const Descriptor& expected, const std::string& what);

private:
    Committed install(const Digest& digest);

    struct State;
    std::unique_ptr<State> m_state;
};

// An OCI image layout on disk (image-spec image-layout.md): `oci-layout`, `index.json`
// and `blobs/sha256/<hex>`. Blob writes are atomic; index.json is replaced atomically.
class ImageLayout {
public:
    // Opens an existing layout; Error(not_found) when `dir` has no oci-layout file,
    // Error(invalid_input) for an imageLayoutVersion other than 1.0.0.
    static ImageLayout open(const std::filesystem::path& dir);
    // Opens `dir`, making it a layout with an empty index first when it is not one.
    static ImageLayout open_or_create(const std::filesystem::path& dir);

    const std::filesystem::path& dir() const { return m_dir; }
    std::filesystem::path blob_dir() const { return m_dir / "blobs" / "sha256"; }
    std::filesystem::path blob_path(const Digest& digest) const { return blob_dir() / digest.hex(); }
    bool has_blob(const Digest& digest) const;

    // Reads a whole blob and checks its size and digest against the descriptor;
    // Error(not_found) when it is missing, Error(verification_failed) when it differs.
    std::string read_blob(const Descriptor& descriptor) const;
    // Hashes a blob on disk without loading it; the same errors as read_blob.
    void verify_blob(const Descriptor& descriptor) const;
    // Writes small content (a manifest, a config) as a blob; idempotent.
    Descriptor write_blob(std::string_view bytes, std::string_view media_type) const;
    BlobWriter new_blob() const { return BlobWriter(blob_dir()); }

    Index read_index() const;
    void write_index(const Index& index) const;

private:
    explicit ImageLayout(std::filesystem::path dir)
        : m_dir(std::move(dir))
    {
    }
    std::filesystem::path m_dir;
};

} // namespace dlenv::oci
