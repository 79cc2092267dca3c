#pragma once

#include "oci/compression.h"
#include "oci/descriptor.h"
#include "oci/layer_entry.h"
#include "oci/layout.h"

#include <cstdint>
#include <vector>

namespace dlenv::oci {

struct LayerOptions {
    Compression compression = Compression::gzip;
    std::int64_t source_date_epoch = 0; // every mtime, clamped to nothing else
    unsigned threads = 0; // compression workers; 0: one per core
};

struct WrittenLayer {
    Descriptor descriptor; // the compressed blob: media type, digest, size
    Digest diff_id; // sha256 of the uncompressed tar
};

// Names everything besides the entries that decides a layer's bytes: the tar format
// and the compressor's settings and library version. A layer cache keyed on it is
// invalidated when any of them changes.
std::string layer_format(Compression compression);

// Writes `entries` as one layer blob into `blob`, in a single pass: the tar stream is
// hashed for the diff_id while it is compressed, and the compressed bytes are hashed
// as they are written. The tar is deterministic: entries sorted by path, mtime =
// source_date_epoch, uid/gid 0 with numeric owners and no names, no atime/ctime or
// xattrs, PAX records only where ustar cannot hold a path, link or size. The
// compressed bytes are the same for any thread count. Commits `blob`.
WrittenLayer write_layer(std::vector<LayerEntry> entries, const LayerOptions& options, BlobWriter blob);

} // namespace dlenv::oci
