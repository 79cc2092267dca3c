#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

namespace dlenv::oci {

// Inflates the series of gzip members (RFC 1952) at the start of `input`, one after
// another, with ISA-L's igzip: a streaming inflate several times faster than zlib's, for
// the large single members that `docker push` and NVIDIA's images have. Each member's
// CRC-32 and length are checked. Reads stop after the last member that `input` holds;
// bytes after it that start no member are left, as libarchive's gzip reader leaves them.
// `input` must outlive the reader.
class GzipMembers {
public:
    explicit GzipMembers(std::string_view input);
    ~GzipMembers();
    GzipMembers(const GzipMembers&) = delete;
    GzipMembers& operator=(const GzipMembers&) = delete;

    // Fills `out` with up to `size` inflated bytes and returns how many; fewer than
    // `size` only once the members have ended. Error(invalid_input) for damaged data, a
    // wrong checksum or input that ends inside a member.
    std::size_t read(char* out, std::size_t size);
    // How many bytes of `input` the members read so far took.
    std::size_t consumed() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace dlenv::oci
