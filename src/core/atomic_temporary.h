#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace dlenv {

// The temporary files of atomic writes (file.h), named so that whoever finds one after a
// kill knows it for a leftover.

// The mkstemp template of the temporary file for `target`, in its directory:
// "." NAME ".tmp-XXXXXX".
std::string atomic_temporary_template(const std::filesystem::path& target);

// Whether `name` is a file name that template gives.
bool is_atomic_temporary(std::string_view name);

} // namespace dlenv
