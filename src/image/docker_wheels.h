#pragma once

#include "lock/lockfile.h"
#include "store/store.h"

#include <filesystem>
#include <string>
#include <vector>

namespace dlenv::image {

// Where the Dockerfile's pip finds each wheel the lock pins:
//   context  every wheel in wheels/ of the build context, copied from the store's
//            artifacts, so the build needs no network (after `dlenv fetch`)
//   urls     a wheel from an http(s) index by the URL the lock pins; a wheelhouse's
//            (file://, a path on the machine that locked) is still copied, as nothing
//            inside a build can reach it
enum class DockerWheels { context, urls };

// "context" or "urls"; anything else is Error(invalid_input) naming both.
DockerWheels parse_docker_wheels(const std::string& text);

// The packages whose wheels go into the context, in the lock's order; none when the lock
// pins none.
std::vector<lock::LockedPackage> context_wheels(const lock::Lockfile& lock, DockerWheels wheels);

// What pip reads in the build (wheels/requirements.txt of the context), one line per
// package in the lock's order: `name==version --hash=sha256:HEX` for a wheel in the
// context (pip finds it with --find-links and checks its hash), `name @ URL
// --hash=sha256:HEX` for one fetched by its URL.
std::string docker_requirements(const lock::Lockfile& lock, DockerWheels wheels);

// Copies the context's wheels from `store`'s artifacts to `dir`/<wheel file name>, each
// whole or not at all. A wheel the store lacks (or any, when `store` is null: there is
// none) is Error(not_found) saying to run `dlenv fetch`.
void copy_context_wheels(
    const lock::Lockfile& lock, DockerWheels wheels, const store::Store* store, const std::filesystem::path& dir);

} // namespace dlenv::image
