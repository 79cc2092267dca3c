#pragma once

#include "core/json_reader.h"
#include "lock/base_image_section.h"
#include "lock/image_section.h"
#include "lock/locked_stack.h"
#include "lock/packages.h"
#include "lock/platform_section.h"
#include "lock/provenance.h"
#include "lock/system_packages.h"
#include "lock/validation.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace dlenv::lock {

// The JSON of each section of dlenv.lock/v1, written as the format says and read back
// checked, with no field left unread: errors name the file and field
// ("x.lock.json: stack.cuda: expected a string, got 11.8 (number)"). Each is defined
// beside its type. Only the lock module includes this header, so no other module reads
// a lock through its JSON (tests/unit/dependencies_test.cpp checks).
LockedProfile read_locked_profile(const JsonReader& profile);
LockedStack read_locked_stack(const JsonReader& stack);
BaseImageSection read_base_image_section(const JsonReader& base);
BaseCarries read_base_carries(const JsonReader& carries);
PlatformSection read_platform_section(const JsonReader& field);
ImageSection read_image_section(const JsonReader& image);
LockedPackage read_locked_package(const JsonReader& field);
// A closure as the lock writes it: a list, or null when it was not locked (absent reads so too).
std::optional<std::vector<LockedPackage>> read_locked_packages(const std::optional<JsonReader>& field);
PackageSources read_package_sources(const JsonReader& field);
PythonEnvironment read_python_environment(const JsonReader& field);
Validation read_validation(const JsonReader& validation);
std::vector<LockedWarning> read_locked_warnings(const JsonReader& warnings);
LockedHost read_locked_host(const JsonReader& host);
SystemPackagesSection read_system_packages(const JsonReader& field);
// A sha256 the lock pins, as 64 lowercase hexadecimal digits.
std::string read_sha256_hex(const JsonReader& field);

nlohmann::json to_json(const LockedProfile& profile);
nlohmann::json to_json(const LockedStack& stack);
nlohmann::json to_json(const BaseImageSection& base);
nlohmann::json to_json(const BaseCarries& carries);
nlohmann::json to_json(const PlatformSection& section);
nlohmann::json to_json(const ImageSection& image);
nlohmann::json to_json(const LockedPackage& package);
nlohmann::json packages_json(const std::optional<std::vector<LockedPackage>>& packages);
nlohmann::json to_json(const PackageSources& sources);
nlohmann::json to_json(const PythonEnvironment& environment);
nlohmann::json to_json(const Thresholds& thresholds);
nlohmann::json to_json(const Validation& validation);
nlohmann::json to_json(const std::vector<LockedWarning>& warnings);
nlohmann::json to_json(const LockedHost& host);
nlohmann::json to_json(const SystemPackagesSection& section);

} // namespace dlenv::lock
