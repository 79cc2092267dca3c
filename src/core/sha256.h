#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace dlenv {

// Streaming SHA-256 (Nettle). Feed bytes with `update`, then `hex_digest` once.
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(Sha256&&) noexcept;
    Sha256& operator=(Sha256&&) noexcept;
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(const void* data, std::size_t size);
    void update(std::string_view data) { update(data.data(), data.size()); }
    // Finishes the hash; the object may not be updated afterwards.
    std::string hex_digest();

private:
    struct State;
    std::unique_ptr<State> m_state;
};

std::string sha256_hex(std::string_view data);
// MD5, which dlenv trusts with nothing: dpkg records each conffile's MD5 in its status
// file, and a package's files must be recorded as dpkg would.
std::string md5_hex(std::string_view data);
// Whether `text` is a sha256 as dlenv writes it: 64 lowercase hexadecimal digits.
bool is_sha256_hex(std::string_view text);
// The sha256 of a file's bytes, read in chunks. Throws Error(not_found) or Error(io).
std::string sha256_file_hex(const std::filesystem::path& path);

} // namespace dlenv
