// A project document of PyPI's JSON API, as `dlenv matrix refresh` reads its releases.
#include "fuzz_input.h"
#include "refresh/pypi_releases.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    dlenv::fuzz::expect_only_error(
        [&] { dlenv::refresh::parse_pypi_releases(std::string(dlenv::fuzz::text_of(data, size)), "pypi/jax/json"); });
    return 0;
}
