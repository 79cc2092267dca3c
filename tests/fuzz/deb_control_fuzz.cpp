// The control format as an archive and a base send it: Packages and Release files, dpkg's
// status, relation fields and Debian versions. A version that parses compares equal to
// itself and to its own spelling read again.
#include "deb/index.h"
#include "deb/relation.h"
#include "deb/version.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace dlenv;
    using namespace dlenv::deb;
    std::string_view text = fuzz::text_of(data, size);
    fuzz::expect_only_error([&] { parse_packages("Packages", text, "bookworm/main"); });
    fuzz::expect_only_error([&] { parse_status("status", text); });
    fuzz::expect_only_error([&] { parse_release("Release", text); });
    fuzz::expect_only_error([&] {
        for (const auto& group : parse_relations(text, "Depends"))
            for (const auto& relation : group)
                if (relation.version && !relation.admits(*relation.version) && relation.op == Relation::Op::equal)
                    fuzz::finding("'" + relation.text() + "' does not admit its own version");
    });
    fuzz::expect_only_error([&] {
        DebVersion version = DebVersion::parse(text);
        if (!(version == DebVersion::parse(version.text())))
            fuzz::finding("version '" + version.text() + "' differs from itself read again");
    });
    return 0;
}
