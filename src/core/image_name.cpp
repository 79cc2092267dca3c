#include "core/image_name.h"

#include "core/error.h"

#include <regex>

namespace dlenv {

void check_image_name(const std::string& name)
{
    // An optional registry host with a port ("localhost:5000/"), then the path.
    static const std::regex valid(
        R"(([a-z0-9]+([.-][a-z0-9]+)*:[0-9]+/)?[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*)");
    if (name.size() > 255)
        throw Error(ErrorCode::invalid_input, "invalid image name: " + std::to_string(name.size()) + " bytes long",
            "use at most 255 bytes");
    if (!std::regex_match(name, valid))
        throw Error(ErrorCode::invalid_input, "invalid image name \"" + name + "\"",
            "use lowercase letters, digits and . _ - between them, with / between path components");
}

} // namespace dlenv
