#include "core/sha256.h"

#include "core/error.h"

#include <openssl/evp.h>

#include <fstream>
#include <vector>

namespace dlenv {
namespace {

std::string hex_of(const unsigned char* digest, unsigned int size)
{
    static const char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (unsigned int i = 0; i < size; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 0xf];
    }
    return out;
}

} // namespace

struct Sha256::State {
    EVP_MD_CTX* ctx = nullptr;
    ~State() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256()
    : m_state(std::make_unique<State>())
{
    m_state->ctx = EVP_MD_CTX_new();
    if (!m_state->ctx || EVP_DigestInit_ex(m_state->ctx, EVP_sha256(), nullptr) != 1)
        throw Error(ErrorCode::environment, "initialise SHA-256: OpenSSL refused");
}

Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::update(const void* data, std::size_t size)
{
    if (EVP_DigestUpdate(m_state->ctx, data, size) != 1)
        throw Error(ErrorCode::environment, "update SHA-256: OpenSSL refused");
}

std::string Sha256::hex_digest()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_DigestFinal_ex(m_state->ctx, digest, &size) != 1)
        throw Error(ErrorCode::environment, "finish SHA-256: OpenSSL refused");
    return hex_of(digest, size);
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
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_Digest(data.data(), data.size(), digest, &size, EVP_md5(), nullptr) != 1)
        throw Error(ErrorCode::environment, "MD5: OpenSSL refused");
    return hex_of(digest, size);
}

bool is_sha256_hex(std::string_view text)
{
    return text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

} // namespace dlenv
