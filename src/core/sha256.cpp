#include "core/sha256.h"

#include "core/error.h"

#include <nettle/md5.h>
#include <nettle/sha2.h>

#include <cstdint>
#include <fstream>
#include <vector>

namespace dlenv {
namespace {

std::string hex_of(const std::uint8_t* digest, std::size_t size)
{
    static const char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 0xf];
    }
    return out;
}

} // namespace

struct Sha256::State {
    sha256_ctx ctx;
};

Sha256::Sha256()
    : m_state(std::make_unique<State>())
{
    sha256_init(&m_state->ctx);
}

Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::update(const void* data, std::size_t size)
{
    sha256_update(&m_state->ctx, size, static_cast<const std::uint8_t*>(data));
}

std::string Sha256::hex_digest()
{
    std::uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(&m_state->ctx, SHA256_DIGEST_SIZE, digest);
    return hex_of(digest, SHA256_DIGEST_SIZE);
}

std::string sha256_hex(std::string_view data)
{
    Sha256 hash;
    hash.update(data);
    return hash.hex_digest();
}

std::string sha256_file_hex(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(std::filesystem::exists(path) ? ErrorCode::io : ErrorCode::not_found,
            (std::filesystem::exists(path) ? "cannot read " : "no such file: ") + path.string());
    Sha256 hash;
    std::vector<char> buffer(1 << 20);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        hash.update(buffer.data(), static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad())
        throw Error(ErrorCode::io, "read " + path.string());
    return hash.hex_digest();
}

std::string md5_hex(std::string_view data)
{
    md5_ctx ctx;
    md5_init(&ctx);
    md5_update(&ctx, data.size(), reinterpret_cast<const std::uint8_t*>(data.data()));
    std::uint8_t digest[MD5_DIGEST_SIZE];
    md5_digest(&ctx, MD5_DIGEST_SIZE, digest);
    return hex_of(digest, MD5_DIGEST_SIZE);
}

bool is_sha256_hex(std::string_view text)
{
    return text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

} // namespace dlenv
