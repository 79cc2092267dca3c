#include "oci/gzip_members.h"

#include "core/error.h"

#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace dlenv::oci {
namespace {

// igzip counts input in 32 bits: a larger input is handed over a gigabyte at a time.
constexpr std::size_t k_input_step = std::size_t(1) << 30;

bool member_at(std::string_view bytes)
{
    return bytes.size() >= 3 && bytes[0] == '\x1f' && bytes[1] == '\x8b' && bytes[2] == '\x08';
}

Error damaged(const std::string& why)
{
    return Error(ErrorCode::invalid_input, "read blob: gzip data " + why,
        "the archive is damaged or not a tar stream: fetch or build it again");
}

std::string describe(int status)
{
    switch (status) {
    case ISAL_INVALID_BLOCK:
        return "has an invalid deflate block";
    case ISAL_INVALID_SYMBOL:
        return "has an invalid deflate symbol";
    case ISAL_INVALID_LOOKBACK:
        return "refers back before its start";
    case ISAL_INVALID_WRAPPER:
        return "has an invalid gzip header";
    case ISAL_UNSUPPORTED_METHOD:
        return "uses a compression method other than deflate";
    case ISAL_INCORRECT_CHECKSUM:
        return "does not match its CRC-32";
    default:
        return "cannot be inflated (igzip status " + std::to_string(status) + ")";
    }
}

} // namespace

struct GzipMembers::State {
    inflate_state inflate {};
    std::string_view input;
    std::size_t offset = 0; // where the bytes handed to igzip start in `input`
    bool ended = false;

    std::size_t consumed() const { return offset - inflate.avail_in; }

    void start_member()
    {
        isal_inflate_reset(&inflate);
        inflate.crc_flag = ISAL_GZIP;
    }

    // Gives igzip the next step of input once it has taken all it had.
    void refill()
    {
        if (inflate.avail_in > 0 || offset == input.size())
            return;
        std::size_t step = std::min(k_input_step, input.size() - offset);
        inflate.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(input.data() + offset));
        inflate.avail_in = static_cast<std::uint32_t>(step);
        offset += step;
    }
};

GzipMembers::GzipMembers(std::string_view input)
    : m_state(std::make_unique<State>())
{
    State& s = *m_state;
    s.input = input;
    isal_inflate_init(&s.inflate);
    s.inflate.crc_flag = ISAL_GZIP;
    s.ended = !member_at(input);
}

GzipMembers::~GzipMembers() = default;

std::size_t GzipMembers::read(char* out, std::size_t size)
{
    State& s = *m_state;
    std::size_t filled = 0;
    while (!s.ended && filled < size) {
        if (s.inflate.block_state == ISAL_BLOCK_FINISH) {
            if (!member_at(s.input.substr(s.consumed()))) {
                s.ended = true;
                break;
            }
            std::size_t at = s.consumed();
            s.start_member();
            s.offset = at;
            s.inflate.avail_in = 0;
        }
        s.refill();
        std::size_t room = std::min<std::size_t>(size - filled, std::numeric_limits<std::uint32_t>::max());
        s.inflate.next_out = reinterpret_cast<std::uint8_t*>(out + filled);
        s.inflate.avail_out = static_cast<std::uint32_t>(room);
        bool starved = s.inflate.avail_in == 0;
        int status = isal_inflate(&s.inflate);
        if (status < 0)
            throw damaged(describe(status));
        std::size_t produced = room - s.inflate.avail_out;
        filled += produced;
        if (starved && produced == 0 && s.inflate.block_state != ISAL_BLOCK_FINISH)
            throw damaged("ends inside a member");
    }
    return filled;
}

std::size_t GzipMembers::consumed() const
{
    return m_state->consumed();
}

} // namespace dlenv::oci
