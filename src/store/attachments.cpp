#include "store/attachments.h"

#include "core/canonical_json.h"
#include "core/error.h"
#include "core/file.h"
#include "core/json_reader.h"
#include "core/sha256.h"
#include "store/artifacts.h"

namespace dlenv::store {
namespace {

constexpr std::string_view k_schema = "dlenv.attachments/v1";

std::filesystem::path record_file(const Store& store, const Digest& image)
{
    return store.records_dir() / "attachments" / ("sha256-" + image.hex() + ".json");
}

void write_record(const Store& store, const Digest& image, const std::map<std::string, Attachment>& attachments)
{
    nlohmann::json kinds = nlohmann::json::object();
    for (const auto& [kind, attachment] : attachments)
        kinds[kind] = { { "media_type", attachment.media_type }, { "sha256", attachment.sha256 },
            { "size", attachment.size }, { "source", attachment.source } };
    write_file_atomic(record_file(store, image),
        to_canonical_json({ { "schema", k_schema }, { "image", image.text() }, { "attachments", kinds } }));
}

} // namespace

std::map<std::string, Attachment> read_attachments(const Store& store, const Digest& image)
{
    std::map<std::string, Attachment> out;
    std::filesystem::path file = record_file(store, image);
    if (!std::filesystem::exists(file))
        return out;
    const std::string hint = "remove " + file.string() + " and build or pull the image again";
    try {
        nlohmann::json json = JsonReader::parse_document(file.string(), read_file(file));
        if (json.value("schema", std::string()) != k_schema || json.at("image").get<std::string>() != image.text())
            throw Error(ErrorCode::invalid_input,
                file.string() + ": expected \"schema\": \"" + std::string(k_schema) + "\" and \"image\": \""
                    + image.text() + "\"",
                hint);
        for (const auto& [kind, entry] : json.at("attachments").items()) {
            Attachment attachment { kind, entry.at("media_type").get<std::string>(),
                entry.at("sha256").get<std::string>(), entry.at("size").get<std::int64_t>(),
                entry.at("source").get<std::string>() };
            if (!is_sha256_hex(attachment.sha256))
                throw Error(
                    ErrorCode::invalid_input, file.string() + ": attachments." + kind + ".sha256 is no sha256", hint);
            out[kind] = std::move(attachment);
        }
    } catch (const nlohmann::json::exception& e) {
        throw Error(ErrorCode::invalid_input, file.string() + ": " + e.what(), hint);
    }
    return out;
}

Attachment attach(const Store& store, const Digest& image, const std::string& kind, const std::string& media_type,
    std::string_view bytes, const std::string& source)
{
    if (!store.writable())
        throw std::logic_error("attach to an image in a store opened for reading");
    std::string sha256 = Digest::of(bytes).hex();
    add_artifact(store, sha256, [&](const ArtifactSink& sink) { sink(bytes); });
    std::map<std::string, Attachment> attachments = read_attachments(store, image);
    Attachment attachment { kind, media_type, sha256, static_cast<std::int64_t>(bytes.size()), source };
    attachments[kind] = attachment;
    write_record(store, image, attachments);
    return attachment;
}

std::string read_attachment(const Store& store, const Attachment& attachment)
{
    std::optional<std::filesystem::path> path = find_artifact(store, attachment.sha256);
    if (!path)
        throw Error(ErrorCode::verification_failed,
            "the " + attachment.kind + " artifact " + attachment.sha256 + " is missing from the store",
            "build or pull the image again");
    std::string bytes = read_file(*path);
    if (Digest::of(bytes).hex() != attachment.sha256)
        throw Error(ErrorCode::verification_failed, path->string() + " does not match its sha256 " + attachment.sha256,
            "remove it and build or pull the image again");
    return bytes;
}

} // namespace dlenv::store
