#include "image/templates.h"

#include "core/embedded_file.h"
#include "core/error.h"

#include <vector>

namespace dlenv::image {

const std::vector<EmbeddedFile>& embedded_templates();

std::string embedded_template(std::string_view name)
{
    for (const auto& file : embedded_templates())
        if (file.name == name)
            return std::string(file.contents);
    throw Error(ErrorCode::environment, "templates/" + std::string(name) + " was not compiled in");
}

} // namespace dlenv::image
