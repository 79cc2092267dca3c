#pragma once

#include "store/records.h"

#include <cstdint>
#include <functional>
#include <string>

namespace dlenv::store {

constexpr std::string_view k_latest = "latest";
constexpr std::string_view k_rollback = "rollback";
constexpr std::string_view k_production = "production";
constexpr std::string_view k_production_previous = "production-previous";

// A build of `name`: `latest` moves to `image` and the previous latest becomes
// `rollback`. Building the image `latest` already is moves nothing (and keeps the
// rollback image). Appends the history entry and returns it.
const HistoryEntry& record_build(Records& records, const std::string& name, const oci::Descriptor& image,
    const std::string& lock_digest, std::int64_t time);

// `latest` goes back to the `rollback` image; `rollback` moves to the image that was
// latest before that one when `present` says it is still stored, or goes away, so each
// rollback steps one image further back. Error(not_found) for an unknown name,
// Error(conflict) when there is no rollback image.
const HistoryEntry& roll_back(
    Records& records, const std::string& name, std::int64_t time, const std::function<bool(const Digest&)>& present);

// A promotion of `name`: `production` moves to `image` and the previous production
// becomes `production-previous`. Promoting the image that is already production moves
// nothing. Whether `image` may be promoted is the caller's decision (verify/promotion.h).
// Appends the history entry ("promote") and returns it; Error(not_found) for an unknown name.
const HistoryEntry& record_promotion(
    Records& records, const std::string& name, const oci::Descriptor& image, std::int64_t time);

// `production` goes back to `production-previous`, which moves to the production before
// that one when `present` says it is still stored, or goes away, as roll_back does for
// `latest`. Appends the history entry ("rollback-production"). Error(not_found) for an
// unknown name, Error(conflict) when there is no previous production.
const HistoryEntry& roll_back_production(
    Records& records, const std::string& name, std::int64_t time, const std::function<bool(const Digest&)>& present);

// An image brought in from a registry: `tag` of `name` moves to `image`. Returns the
// history entry ("pull"), which moves nothing when the tag already points there.
const HistoryEntry& record_pull(
    Records& records, const std::string& name, const std::string& tag, const oci::Descriptor& image, std::int64_t time);

// A tag the records had lost, taken back from index.json (recovery.h): `tag` of `name`
// moves to `image`. Returns the history entry ("recover").
const HistoryEntry& record_recovery(
    Records& records, const std::string& name, const std::string& tag, const oci::Descriptor& image, std::int64_t time);

} // namespace dlenv::store
