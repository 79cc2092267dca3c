// A Docker client's config.json, where `dlenv pull` and `dlenv push` find credentials.
#include "fuzz_input.h"
#include "registry/credentials.h"
#include "sandbox.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace dlenv;
    static const fuzz::Sandbox sandbox;
    static const std::filesystem::path config = sandbox.work() / "config.json";
    fuzz::write_bytes(config, fuzz::text_of(data, size));
    for (const char* registry : { "docker.io", "localhost:5000", "nvcr.io" })
        fuzz::expect_only_error([&] { registry::find_credentials(registry, nullptr, config); });
    return 0;
}
