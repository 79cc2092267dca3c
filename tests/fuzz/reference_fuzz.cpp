// An image reference (dlenv pull REF, a lock's base image). A reference that parses
// must read back from its full text as the same image.
#include "core/image_reference.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace dlenv;
    fuzz::expect_only_error([&] {
        ImageReference reference = ImageReference::parse(fuzz::text_of(data, size));
        std::string text = reference.text();
        ImageReference again;
        try {
            again = ImageReference::parse(text);
        } catch (const Error& e) {
            fuzz::finding("reference written as '" + text + "' does not read back: " + e.what());
        }
        bool same_tag = reference.digest || again.tag == reference.tag;
        if (again.registry != reference.registry || again.repository != reference.repository
            || again.digest != reference.digest || !same_tag || again.text() != text)
            fuzz::finding("reference written as '" + text + "' reads back as '" + again.text() + "'");
        reference.api_host();
        reference.familiar_name();
    });
    return 0;
}
