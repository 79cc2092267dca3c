// A package index's project page, read both as PEP 691 JSON and as PEP 503 HTML.
#include "fuzz_input.h"
#include "pypi/simple_page.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace dlenv;
    const std::string url = "https://pypi.org/simple/demo-pkg/";
    fuzz::expect_only_error([&] { pypi::parse_simple_json(fuzz::text_of(data, size), url, "demo-pkg"); });
    fuzz::expect_only_error([&] { pypi::parse_simple_html(fuzz::text_of(data, size), url, "demo-pkg"); });
    return 0;
}
