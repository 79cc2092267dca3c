#pragma once

#include "resolve/base_contents.h"

#include <string>
#include <vector>

namespace dlenv::testing {

// What a base whose config holds `env` carries, read against the embedded matrix.
inline resolve::BaseContents base_of(std::vector<std::string> env, std::string reference = "registry.team/cuda:base")
{
    return resolve::base_contents_of(
        { std::move(reference), std::move(env), {}, std::nullopt, {} }, matrix::Matrix::embedded());
}

} // namespace dlenv::testing
