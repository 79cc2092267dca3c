#pragma once

#include "core/version.h"

#include <string>
#include <string_view>
#include <vector>

namespace dlenv::pypi {

// One script a wheel's entry_points.txt asks for: `name = module:attribute.path`.
struct ScriptEntry {
    std::string name; // the file name in the scripts directory
    std::string module; // "demo_pkg.cli"
    std::string attribute; // "Group.run"; empty means the module itself is not allowed
};

// The console_scripts and gui_scripts of an entry_points.txt, as pip generates them
// for `python`: pip's own `pip` entry becomes pip, pipX and pipX.Y (other pipN entries
// dropped), setuptools' `easy_install` becomes easy_install and easy_install-X.Y.
// Sorted by name. Throws Error(invalid_input) naming `source` for an entry that is not
// `name = module:attribute`.
std::vector<ScriptEntry> scripts_of_entry_points(
    std::string_view text, const PythonVersion& python, const std::string& source);

// The text of the script pip writes for `entry` (distlib's template), with the
// shebang `#!<interpreter>`.
std::string script_text(const ScriptEntry& entry, const std::string& interpreter);

} // namespace dlenv::pypi
