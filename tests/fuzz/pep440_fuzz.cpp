// A PEP 440 version, as an index or a profile spells it. A version that parses must
// read back from its normalised form as the same version.
#include "core/pep440.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace dlenv;
    auto version = Pep440Version::try_parse(fuzz::text_of(data, size));
    if (!version)
        return 0;
    std::string normal = version->str();
    auto again = Pep440Version::try_parse(normal);
    if (!again || *again != *version || again->str() != normal)
        fuzz::finding("the normalised form " + normal + " does not read back as the same version");
    return 0;
}
