#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace dlenv {

// A GPU's UUID as the NVIDIA driver names it: nvidia-smi's `uuid` query field ("the
// globally unique immutable alphanumeric identifier of the GPU") and NVML's
// nvmlDeviceGetUUID ("a 5 part hexadecimal string"), written "GPU-" and 8-4-4-4-12 hex
// digits: "GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5". `parse` throws
// Error(invalid_input) naming the text and that form; `text()` is the input as written.
class GpuUuid {
public:
    static GpuUuid parse(std::string_view text);
    static std::optional<GpuUuid> try_parse(std::string_view text);

    const std::string& text() const { return m_text; }
    friend bool operator==(const GpuUuid&, const GpuUuid&) = default;

private:
    explicit GpuUuid(std::string text)
        : m_text(std::move(text))
    {
    }

    std::string m_text;
};

} // namespace dlenv
