// An image manifest or index, as a registry or an OCI layout serves it. What parses
// must read back from the bytes dlenv writes for it.
#include "fuzz_input.h"
#include "oci/descriptor.h"

namespace {

template <typename Document> void parse_and_write_back(std::string_view bytes)
{
    using namespace dlenv;
    fuzz::expect_only_error([&] {
        Document document = Document::parse(bytes, "fuzz");
        std::string written = oci::to_blob_json(document.to_json());
        try {
            if (oci::to_blob_json(Document::parse(written, "fuzz").to_json()) != written)
                fuzz::finding("written as " + written + ", it reads back as something else");
        } catch (const Error& e) {
            fuzz::finding("written as " + written + ", it does not read back: " + e.what());
        }
    });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    parse_and_write_back<dlenv::oci::Manifest>(dlenv::fuzz::text_of(data, size));
    parse_and_write_back<dlenv::oci::Index>(dlenv::fuzz::text_of(data, size));
    return 0;
}
