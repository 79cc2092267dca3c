#include "core/sha256.h"
#include "lock/section_json.h"

namespace dlenv::lock {

std::string read_sha256_hex(const JsonReader& field)
{
    std::string text = field.string();
    if (!is_sha256_hex(text))
        field.fail("expected 64 lowercase hexadecimal digits", "run `dlenv lock` again");
    return text;
}

} // namespace dlenv::lock
