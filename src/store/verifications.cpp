#include "store/verifications.h"

#include "core/canonical_json.h"
#include "core/error.h"
#include "core/file.h"
#include "core/json_reader.h"

#include <algorithm>

namespace dlenv::store {
namespace {

constexpr std::string_view k_schema = "dlenv.verification/v1";

std::filesystem::path record_file(const Store& store, const Digest& image)
{
    return store.records_dir() / "verifications" / ("sha256-" + image.hex() + ".json");
}

} // namespace

Verification read_verification(const Store& store, const Digest& image)
{
    Verification out { image, {} };
    std::filesystem::path file = record_file(store, image);
    if (!std::filesystem::exists(file))
        return out;
    try {
        nlohmann::json json = JsonReader::parse_document(file.string(), read_file(file));
        if (json.value("schema", std::string()) != k_schema)
            throw Error(ErrorCode::invalid_input, file.string() + ": schema must be \"" + std::string(k_schema) + "\"",
                "the record was written by another dlenv version; run `dlenv verify` again");
        if (json.at("image").get<std::string>() != image.text())
            throw Error(ErrorCode::invalid_input,
                file.string() + ": records image " + json.at("image").get<std::string>() + ", not " + image.text(),
                "remove the file and run `dlenv verify` again");
        for (const auto& [tier, entry] : json.at("tiers").items())
            out.tiers[tier] = { tier, entry.at("passed").get<bool>(), entry.at("time").get<std::string>(),
                entry.at("report"), entry.value("source", std::string()) };
    } catch (const nlohmann::json::exception& e) {
        throw Error(ErrorCode::invalid_input, file.string() + ": " + e.what(),
            "the verification record is damaged; run `dlenv verify` again");
    }
    return out;
}

std::vector<Verification> read_verifications(const Store& store)
{
    std::filesystem::path dir = store.records_dir() / "verifications";
    std::vector<Digest> images;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
        std::string name = entry.path().filename().string();
        constexpr std::string_view prefix = "sha256-", suffix = ".json";
        if (name.size() != prefix.size() + 64 + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix)
            || !entry.is_regular_file())
            continue;
        try {
            images.push_back(Digest::from_hex(name.substr(prefix.size(), 64)));
        } catch (const Error&) {
            continue; // not a digest's name: no record of dlenv's
        }
    }
    if (error && error != std::errc::no_such_file_or_directory)
        throw Error(ErrorCode::io, "list " + dir.string() + ": " + error.message());
    std::sort(images.begin(), images.end());
    std::vector<Verification> out;
    for (const auto& image : images)
        out.push_back(read_verification(store, image));
    return out;
}

void record_verification(const Store& store, const Digest& image, const std::vector<TierVerification>& tiers)
{
    if (!store.writable())
        throw std::logic_error("record a verification in a store opened for reading");
    Verification record = read_verification(store, image);
    for (const auto& tier : tiers)
        record.tiers[tier.tier] = tier;
    nlohmann::json json_tiers = nlohmann::json::object();
    for (const auto& [name, tier] : record.tiers) {
        json_tiers[name] = { { "passed", tier.passed }, { "time", tier.time }, { "report", tier.report } };
        if (!tier.source.empty())
            json_tiers[name]["source"] = tier.source;
    }
    write_file_atomic(record_file(store, image),
        to_canonical_json({ { "schema", k_schema }, { "image", image.text() }, { "tiers", json_tiers } }));
}

} // namespace dlenv::store
