#include "oci/layout.h"

#include "core/error.h"
#include "core/file.h"
#include "core/json_reader.h"
#include "core/sha256.h"
#include "oci/media_types.h"

#include <nlohmann/json.hpp>

namespace dlenv::oci {
namespace {

constexpr std::string_view k_layout_version = "1.0.0";

Error mismatch(const std::filesystem::path& path, const std::string& what)
{
    return Error(ErrorCode::verification_failed, "blob " + path.string() + " " + what,
        "the store is damaged: run `dlenv fsck`, then rebuild or pull the image again");
}

} // namespace

struct BlobWriter::State {
    explicit State(const std::filesystem::path& blob_dir)
        : dir(blob_dir)
        , file(blob_dir / ".blob", 0444)
    {
    }

    std::filesystem::path dir;
    AtomicFile file;
    Sha256 hash;
    std::int64_t size = 0;
};

BlobWriter::BlobWriter(const std::filesystem::path& blob_dir)
    : m_state(std::make_unique<State>(blob_dir))
{
}

BlobWriter::~BlobWriter() = default;
BlobWriter::BlobWriter(BlobWriter&&) noexcept = default;

void BlobWriter::write(std::string_view bytes)
{
    m_state->hash.update(bytes);
    m_state->file.write(bytes);
    m_state->size += static_cast<std::int64_t>(bytes.size());
}

std::int64_t BlobWriter::size() const
{
    return m_state->size;
}

BlobWriter::Committed BlobWriter::commit()
{
    return install(Digest::from_hex(m_state->hash.hex_digest()));
}

BlobWriter::Committed BlobWriter::commit_expecting(const Descriptor& expected, const std::string& what)
{
    Digest digest = Digest::from_hex(m_state->hash.hex_digest());
    if (digest != expected.digest || m_state->size != expected.size)
        throw Error(ErrorCode::verification_failed,
            what + ": content is " + digest.text() + " (" + std::to_string(m_state->size) + " bytes), " + "expected "
                + expected.digest.text() + " (" + std::to_string(expected.size) + " bytes)",
            "the source was changed or damaged after it was written; fetch or export it again");
    return install(digest);
}

BlobWriter::Committed BlobWriter::install(const Digest& digest)
{
    m_state->file.commit_as(m_state->dir / digest.hex());
    return { digest, m_state->size };
}

ImageLayout ImageLayout::open(const std::filesystem::path& dir)
{
    std::filesystem::path marker = dir / "oci-layout";
    if (!std::filesystem::exists(marker))
        throw Error(ErrorCode::not_found, dir.string() + " is not an OCI image layout (no oci-layout file)");
    nlohmann::json json = JsonReader::parse_document(marker.string(), read_file(marker));
    if (JsonReader(marker.string(), json).optional_string("imageLayoutVersion") != k_layout_version)
        throw Error(ErrorCode::invalid_input,
            marker.string() + ": imageLayoutVersion must be \"" + std::string(k_layout_version) + "\"");
    ImageLayout layout(dir);
    std::error_code ec;
    if (std::filesystem::exists(layout.blob_dir(), ec) && !std::filesystem::is_directory(layout.blob_dir(), ec))
        throw Error(ErrorCode::invalid_input, layout.blob_dir().string() + ": not a directory",
            "the layout is damaged: blobs/sha256 holds the blobs, one file each; move the file away");
    return layout;
}

ImageLayout ImageLayout::open_or_create(const std::filesystem::path& dir)
{
    if (!std::filesystem::exists(dir / "oci-layout")) {
        std::error_code ec;
        std::filesystem::create_directories(dir / "blobs" / "sha256", ec);
        if (ec)
            throw Error(ErrorCode::io, "create directory " + dir.string() + ": " + ec.message());
        ImageLayout layout(dir);
        if (!std::filesystem::exists(dir / "index.json"))
            layout.write_index(Index {});
        write_file_atomic(
            dir / "oci-layout", to_blob_json({ { "imageLayoutVersion", std::string(k_layout_version) } }));
        return layout;
    }
    return open(dir);
}

bool ImageLayout::has_blob(const Digest& digest) const
{
    return std::filesystem::exists(blob_path(digest));
}

std::string ImageLayout::read_blob(const Descriptor& descriptor) const
{
    std::filesystem::path path = blob_path(descriptor.digest);
    std::string bytes = read_file(path);
    if (static_cast<std::int64_t>(bytes.size()) != descriptor.size)
        throw mismatch(path,
            "has " + std::to_string(bytes.size()) + " bytes, its descriptor says " + std::to_string(descriptor.size));
    if (Digest::of(bytes) != descriptor.digest)
        throw mismatch(path, "does not match its digest");
    return bytes;
}

void ImageLayout::verify_blob(const Descriptor& descriptor) const
{
    // The size first, as the image spec asks: a wrong size needs no hashing.
    std::filesystem::path path = blob_path(descriptor.digest);
    std::error_code ec;
    std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec == std::errc::no_such_file_or_directory)
        throw Error(ErrorCode::not_found, "missing blob " + descriptor.digest.text());
    if (ec)
        throw Error(ErrorCode::io, "read " + path.string() + ": " + ec.message());
    if (static_cast<std::int64_t>(size) != descriptor.size)
        throw mismatch(
            path, "has " + std::to_string(size) + " bytes, its descriptor says " + std::to_string(descriptor.size));
    if (sha256_file_hex(path) != descriptor.digest.hex())
        throw mismatch(path, "does not match its digest");
}

Descriptor ImageLayout::write_blob(std::string_view bytes, std::string_view media_type) const
{
    Digest digest = Digest::of(bytes);
    // An existing copy is trusted only when it holds these very bytes; a damaged one is
    // replaced, never reused under a new manifest.
    bool intact = false;
    try {
        intact = has_blob(digest) && read_file(blob_path(digest)) == bytes;
    } catch (const Error&) {
    }
    if (!intact) {
        BlobWriter writer = new_blob();
        writer.write(bytes);
        writer.commit();
    }
    return Descriptor { std::string(media_type), digest, static_cast<std::int64_t>(bytes.size()), {}, std::nullopt };
}

Index ImageLayout::read_index() const
{
    std::filesystem::path path = m_dir / "index.json";
    return Index::parse(read_file(path), path.string());
}

void ImageLayout::write_index(const Index& index) const
{
    write_file_atomic(m_dir / "index.json", to_blob_json(index.to_json()));
}

} // namespace dlenv::oci
