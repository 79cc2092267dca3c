#include "oci/layer_stream.h"

#include "core/error.h"
#include "core/file.h"
#include "core/sha256.h"
#include "oci/gzip_members.h"
#include "oci/tar_reader.h"

#include <libdeflate.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <fcntl.h>
#include <mutex>
#include <optional>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace dlenv::oci {
namespace {

// A piece holds four times the uncompressed size of a member of dlenv's gzip layers
// (GzipStream::k_block_size), so any such member inflates into one. Trying a larger
// member wastes at most one piece's worth of inflating before libarchive takes over.
constexpr std::size_t k_piece_size = 4 << 20;
// Pieces decoded ahead of the reader: enough to ride out a burst of small files on the
// writing side, small enough that memory stays bounded.
constexpr std::size_t k_pieces = 6;
// What libarchive's streaming decoders are handed at a time.
constexpr std::size_t k_source_step = 1 << 20;

// Thrown on the decoding thread when the reader has stopped wanting pieces.
struct Stopped { };

Error mismatch(const std::string& what)
{
    return Error(ErrorCode::verification_failed, "blob " + what,
        "the store is damaged: run `dlenv fsck`, then rebuild or pull the image again");
}

// The blob's bytes, mapped read-only: libdeflate inflates a whole member in one call, and
// the mapping hands it the member's bytes without copying them first.
class Mapping {
public:
    explicit Mapping(const std::filesystem::path& path)
    {
        UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
        struct stat st { };
        if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0)
            throw io_error("open", path);
        m_size = static_cast<std::size_t>(st.st_size);
        if (m_size == 0)
            return;
        void* mapped = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
        if (mapped == MAP_FAILED)
            throw io_error("map", path);
        m_data = static_cast<const char*>(mapped);
        ::madvise(mapped, m_size, MADV_SEQUENTIAL);
    }
    ~Mapping()
    {
        if (m_data)
            ::munmap(const_cast<char*>(m_data), m_size);
    }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;

    const char* data() const { return m_data; }
    std::size_t size() const { return m_size; }

private:
    const char* m_data = nullptr;
    std::size_t m_size = 0;
};

struct Piece {
    std::unique_ptr<char[]> bytes;
    std::size_t size = 0;
};

using Decompressor = std::unique_ptr<libdeflate_decompressor, decltype(&libdeflate_free_decompressor)>;

// The start of a gzip member: magic and the deflate method (RFC 1952 section 2.3), what
// libarchive's gzip reader also looks for before it reads a member.
bool gzip_member_at(std::string_view bytes)
{
    return bytes.size() >= 3 && bytes[0] == '\x1f' && bytes[1] == '\x8b' && bytes[2] == '\x08';
}

} // namespace

struct LayerStream::State {
    Mapping blob;
    std::string expected_hex;

    // Only the decoding thread touches these until it has ended.
    Sha256 hash;
    std::size_t hashed = 0; // bytes of the blob hashed, a prefix of it

    std::mutex mutex;
    std::condition_variable changed;
    std::deque<Piece> ready; // decoded, not yet handed out
    std::vector<Piece> spare; // handed out and given back
    std::size_t allocated = 0;
    bool stop = false;
    bool decoded = false; // no more pieces will come
    std::exception_ptr failure;

    Piece current; // the reader's
    bool verified = false;
    std::thread worker;

    explicit State(const std::filesystem::path& path)
        : blob(path)
    {
    }

    std::string_view rest() const { return { blob.data() + hashed, blob.size() - hashed }; }

    void hash_through(std::size_t end)
    {
        hash.update(blob.data() + hashed, end - hashed);
        hashed = end;
    }

    // An empty piece to decode into: a spare one, a new one while fewer than k_pieces
    // exist, else one the reader gives back.
    Piece take_piece()
    {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return stop || !spare.empty() || allocated < k_pieces; });
        if (stop)
            throw Stopped();
        if (!spare.empty()) {
            Piece piece = std::move(spare.back());
            spare.pop_back();
            return piece;
        }
        ++allocated;
        lock.unlock();
        return { std::unique_ptr<char[]>(new char[k_piece_size]), 0 };
    }

    void hand_out(Piece piece)
    {
        std::lock_guard lock(mutex);
        if (piece.size == 0)
            spare.push_back(std::move(piece));
        else
            ready.push_back(std::move(piece));
        changed.notify_all();
    }

    // Inflates whole gzip members with libdeflate while each fits a piece, stopping at the
    // first one that does not (or is damaged), or after the last one.
    void inflate_members()
    {
        Decompressor decompressor(libdeflate_alloc_decompressor(), &libdeflate_free_decompressor);
        if (!decompressor)
            throw Error(ErrorCode::environment, "start gzip decompression: libdeflate is out of memory");
        while (gzip_member_at(rest())) {
            Piece piece = take_piece();
            std::size_t used = 0;
            libdeflate_result result = libdeflate_gzip_decompress_ex(
                decompressor.get(), rest().data(), rest().size(), piece.bytes.get(), k_piece_size, &used, &piece.size);
            if (result != LIBDEFLATE_SUCCESS) {
                piece.size = 0;
                hand_out(std::move(piece));
                return;
            }
            hash_through(hashed + used);
            hand_out(std::move(piece));
        }
    }

    // Gzip members too large for a piece (one member for a whole layer, as `docker push`
    // and NVIDIA's images write them), inflated by igzip straight from the mapping.
    void inflate_stream()
    {
        std::size_t start = hashed;
        GzipMembers members(rest());
        for (bool more = true; more;) {
            Piece piece = take_piece();
            piece.size = members.read(piece.bytes.get(), k_piece_size);
            more = piece.size == k_piece_size;
            hash_through(start + members.consumed());
            hand_out(std::move(piece));
        }
    }

    // The rest of the blob through libarchive's streaming decoders (libzstd, or none),
    // copied into pieces.
    void stream_rest()
    {
        auto source = [&] {
            {
                std::lock_guard lock(mutex);
                if (stop)
                    throw Stopped();
            }
            std::size_t start = hashed;
            hash_through(start + std::min(k_source_step, blob.size() - start));
            return std::string_view(blob.data() + start, hashed - start);
        };
        Piece piece;
        auto sink = [&](std::string_view bytes) {
            while (!bytes.empty()) {
                if (!piece.bytes)
                    piece = take_piece();
                std::size_t take = std::min(bytes.size(), k_piece_size - piece.size);
                std::memcpy(piece.bytes.get() + piece.size, bytes.data(), take);
                piece.size += take;
                bytes.remove_prefix(take);
                if (piece.size == k_piece_size)
                    hand_out(std::exchange(piece, Piece()));
            }
        };
        decompress(source, "blob", sink);
        if (piece.bytes)
            hand_out(std::move(piece));
    }

    void decode()
    {
        bool gzip = gzip_member_at(rest());
        if (gzip)
            inflate_members();
        // Bytes after the last whole member that start no other one are ignored, as
        // libarchive's gzip reader ignores them.
        if (gzip_member_at(rest()))
            inflate_stream();
        else if (!gzip && !rest().empty())
            stream_rest();
    }

    void run()
    {
        try {
            decode();
        } catch (const Stopped&) {
        } catch (...) {
            std::lock_guard lock(mutex);
            failure = std::current_exception();
        }
        // The digest covers every byte, also those after the tar stream or a damage.
        hash_through(blob.size());
        std::lock_guard lock(mutex);
        decoded = true;
        changed.notify_all();
    }
};

LayerStream::LayerStream(const std::filesystem::path& blob, const Descriptor& layer)
    : m_state(std::make_unique<State>(blob))
{
    State& s = *m_state;
    if (static_cast<std::int64_t>(s.blob.size()) != layer.size)
        throw mismatch(
            "has " + std::to_string(s.blob.size()) + " bytes, its descriptor says " + std::to_string(layer.size));
    s.expected_hex = layer.digest.hex();
    s.worker = std::thread([&s] { s.run(); });
}

LayerStream::~LayerStream()
{
    State& s = *m_state;
    {
        std::lock_guard lock(s.mutex);
        s.stop = true;
        s.changed.notify_all();
    }
    if (s.worker.joinable())
        s.worker.join();
}

std::string_view LayerStream::next()
{
    State& s = *m_state;
    std::unique_lock lock(s.mutex);
    if (s.current.bytes) {
        s.current.size = 0;
        s.spare.push_back(std::move(s.current));
        s.current = Piece();
        s.changed.notify_all();
    }
    s.changed.wait(lock, [&] { return s.decoded || !s.ready.empty(); });
    if (!s.ready.empty()) {
        s.current = std::move(s.ready.front());
        s.ready.pop_front();
        return { s.current.bytes.get(), s.current.size };
    }
    if (s.failure)
        std::rethrow_exception(s.failure);
    return {};
}

void LayerStream::verify()
{
    State& s = *m_state;
    if (std::exchange(s.verified, true))
        return;
    {
        std::lock_guard lock(s.mutex);
        s.stop = true;
        s.changed.notify_all();
    }
    s.worker.join();
    if (s.hash.hex_digest() != s.expected_hex)
        throw mismatch("does not match its digest");
}

void read_layer_tar(const std::filesystem::path& blob, const Descriptor& layer, const std::string& context,
    const std::function<void(TarReader&)>& read)
{
    std::optional<LayerStream> stream;
    try {
        stream.emplace(blob, layer);
    } catch (const Error& e) {
        throw e.with_context(context);
    }
    try {
        TarReader tar([&] { return stream->next(); }, "blob");
        read(tar);
        stream->verify();
    } catch (const Error& e) {
        try {
            stream->verify();
        } catch (const Error& wrong) {
            throw wrong.with_context(context);
        }
        throw e.with_context(context);
    }
}

} // namespace dlenv::oci
