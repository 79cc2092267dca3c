#pragma once

#include "oci/descriptor.h"
#include "oci/tar_reader.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace dlenv::oci {

// The uncompressed tar stream of one layer blob, decoded on a thread of its own so that
// decompression overlaps with whatever the caller does with the bytes (writing files).
// The compression (none, gzip, zstd) is detected from the blob's first bytes. Every byte
// of the blob is hashed on that thread as it is read, so the digest costs no second pass.
// gzip members whose uncompressed size fits a piece (those of dlenv's own layers, see
// GzipStream) are inflated whole with libdeflate straight into the piece handed out; a
// larger member, zstd and plain blobs go through libarchive's streaming decoders.
// Bounded: at most a few pieces are decoded ahead of the caller.
class LayerStream {
public:
    // Opens the blob of `layer` in `layout`: Error(not_found) when it is missing,
    // Error(verification_failed) when its size is not the descriptor's.
    LayerStream(const std::filesystem::path& blob, const Descriptor& layer);
    // Stops the decoding thread, dropping what it has not handed out.
    ~LayerStream();
    LayerStream(const LayerStream&) = delete;
    LayerStream& operator=(const LayerStream&) = delete;

    // The next piece of the uncompressed stream, empty at its end; valid until the next
    // call. A damaged compressed stream is Error(invalid_input) once the pieces decoded
    // before the damage are handed out; a failed read is Error(io).
    std::string_view next();
    // Stops decoding, waits until every byte of the blob is hashed and throws
    // Error(verification_failed) when the digest differs from the descriptor's. May be
    // called at any point, also after next() threw; later calls return at once.
    void verify();

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// Hands `read` the tar stream of the layer blob at `blob`, then checks the whole blob
// against `layer` (the tar stream may end before the blob does: padding, end-of-archive
// blocks). Every error carries `context` ("apply layer sha256:..."); when the blob is not
// what its digest says, that is the error, since it explains whatever else failed.
void read_layer_tar(const std::filesystem::path& blob, const Descriptor& layer, const std::string& context,
    const std::function<void(TarReader&)>& read);

} // namespace dlenv::oci
