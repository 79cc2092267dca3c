// A wheel's entry_points.txt, and the scripts generated from it.
#include "fuzz_input.h"
#include "pypi/entry_points.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace dlenv;
    static const PythonVersion python = PythonVersion::parse("3.11");
    fuzz::expect_only_error([&] {
        for (const auto& entry : pypi::scripts_of_entry_points(fuzz::text_of(data, size), python, "fuzz"))
            pypi::script_text(entry, "/usr/local/bin/python3.11");
    });
    return 0;
}
