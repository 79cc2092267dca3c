// PEP 508 requirements (Requires-Dist, a profile's requirements), their specifiers and
// markers, evaluated for a lock's target. A requirement that parses must read back from
// the text dlenv writes for it.
#include "fuzz_input.h"
#include "pypi/requirement.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace dlenv;
    using namespace dlenv::pypi;
    static const MarkerEnvironment env
        = marker_environment(Target::linux_cpython(PythonVersion::parse("3.11.7"), "x86_64", 2, 28));
    static const std::vector<Pep440Version> versions = { Pep440Version::parse("1.0"),
        Pep440Version::parse("2.1.2+cu118"), Pep440Version::parse("2.2.0rc1"), Pep440Version::parse("1!0.1.dev3") };
    std::string_view text = fuzz::text_of(data, size);

    fuzz::expect_only_error([&] {
        Requirement requirement = Requirement::parse(text);
        std::string written = requirement.str();
        try {
            Requirement::parse(written);
        } catch (const Error& e) {
            fuzz::finding("requirement written as '" + written + "' does not read back: " + e.what());
        }
        requirement.applies(env);
        requirement.applies(env, "test");
    });
    fuzz::expect_only_error([&] {
        SpecifierSet set = SpecifierSet::parse(text);
        set.filter(versions);
        set.filter(versions, true);
    });
    fuzz::expect_only_error([&] { Marker::parse(text).evaluate(env, "cuda"); });
    return 0;
}
