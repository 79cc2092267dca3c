#include "core/gpu_uuid.h"

#include "core/error.h"

#include <array>
#include <cctype>

namespace dlenv {
namespace {

constexpr std::string_view k_prefix = "GPU-";
constexpr std::array<std::size_t, 5> k_groups = { 8, 4, 4, 4, 12 };

bool well_formed(std::string_view text)
{
    if (text.substr(0, k_prefix.size()) != k_prefix)
        return false;
    std::size_t at = k_prefix.size();
    for (std::size_t i = 0; i < k_groups.size(); ++i) {
        if (i > 0 && (at >= text.size() || text[at++] != '-'))
            return false;
        for (std::size_t n = 0; n < k_groups[i]; ++n, ++at)
            if (at >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[at])))
                return false;
    }
    return at == text.size();
}

} // namespace

std::optional<GpuUuid> GpuUuid::try_parse(std::string_view text)
{
    if (!well_formed(text))
        return std::nullopt;
    return GpuUuid(std::string(text));
}

GpuUuid GpuUuid::parse(std::string_view text)
{
    if (auto uuid = try_parse(text))
        return *uuid;
    throw Error(ErrorCode::invalid_input, "'" + std::string(text) + "' is not a GPU UUID",
        "a GPU UUID is GPU- and 8-4-4-4-12 hex digits, as `nvidia-smi --query-gpu=uuid` prints it: "
        "GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5");
}

} // namespace dlenv
