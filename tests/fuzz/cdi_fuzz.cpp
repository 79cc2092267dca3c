// A CDI spec in /etc/cdi, as `nvidia-ctk cdi generate` writes it, read into the GPU
// injection plan of `dlenv verify`.
#include "fuzz_input.h"
#include "sandbox.h"
#include "verify/cdi.h"

#include <filesystem>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace dlenv;
    static const fuzz::Sandbox sandbox;
    static const std::filesystem::path dir = sandbox.work() / "cdi";
    static const bool made = std::filesystem::create_directories(dir);
    (void)made;
    fuzz::write_bytes(dir / "nvidia.json", fuzz::text_of(data, size));
    auto probe = [](const std::string& host_path) -> std::optional<verify::DeviceNode> {
        if (host_path != "/dev/nvidia0")
            return std::nullopt;
        return verify::DeviceNode { host_path, host_path, 'c', 195, 0, 0666 };
    };
    fuzz::expect_only_error([&] { verify::plan_from_cdi_dirs({ dir }, probe); });
    return 0;
}
