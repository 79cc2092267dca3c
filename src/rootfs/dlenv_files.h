#pragma once

#include <string>
#include <string_view>

namespace dlenv::rootfs {

// Where dlenv puts its own files in an image, each spelled here once for `dlenv build`
// (layers and Dockerfile), `dlenv verify` and the profile rules that keep users' files
// out of this directory.
constexpr std::string_view k_dlenv_dir = "/opt/dlenv";
// The lock the image was built from, as it was written.
constexpr std::string_view k_lock_file = "/opt/dlenv/dlenv.lock.json";
// The pinned requirements a Dockerfile build installs with pip.
constexpr std::string_view k_requirements_file = "/opt/dlenv/requirements.lock.txt";
// The validation kit: Python scripts `dlenv verify` runs in the container.
constexpr std::string_view k_kit_dir = "/opt/dlenv/kit";

static_assert(k_lock_file.starts_with(k_dlenv_dir) && k_requirements_file.starts_with(k_dlenv_dir)
    && k_kit_dir.starts_with(k_dlenv_dir));

// The kit script of `tier` ("gpu", "framework"): /opt/dlenv/kit/<tier>_tier.py.
std::string kit_script(std::string_view tier);

} // namespace dlenv::rootfs
