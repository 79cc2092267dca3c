#pragma once

#include "core/image_name.h"
#include "oci/descriptor.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlenv::store {

// One tag that moved: from nothing (a new tag) or an image, to an image or nothing (a
// tag that was removed).
struct TagMove {
    std::string tag;
    std::optional<Digest> from;
    std::optional<Digest> to;
};

// What happened to an image name, in order: a build, a rollback, a promotion.
struct HistoryEntry {
    std::string time; // RFC 3339, UTC
    std::string action; // "build", "rollback", "promote", "rollback-production"
    std::string lock_digest; // the lock the image was built from; empty for moves
    oci::Descriptor image; // the manifest the action is about
    std::vector<TagMove> moved;
};

// An image name in the store: its tags and its history.
struct ImageRecord {
    std::map<std::string, oci::Descriptor> tags; // "latest", "rollback", "production"
    std::vector<HistoryEntry> history;
};

// dlenv's own records beside the OCI layout: dlenv/refs.json, "format":
// "dlenv.store/v1", canonical JSON. One file, so that tags and history move together
// with a single atomic rename.
struct Records {
    std::map<std::string, ImageRecord> images;

    // The record of `name`; Error(not_found) with the closest names otherwise.
    const ImageRecord& at(const std::string& name) const;
    ImageRecord& at(const std::string& name);

    static Records read(const std::filesystem::path& file); // empty when the file is missing
    void write(const std::filesystem::path& file) const; // atomically
};

// The store names images as registries do (core/image_name.h).
using dlenv::check_image_name;

// "NAME[:TAG]" of an image in the store (TAG: latest). The tag is what follows the last
// ':' after the last '/', so a registry port ("localhost:5000/app") stays in the name.
struct ImageTag {
    std::string name;
    std::string tag;

    static ImageTag parse(const std::string& text);
};

} // namespace dlenv::store
