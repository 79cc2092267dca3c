#pragma once

#include "core/pep440.h"
#include "http/client.h"

#include <cstddef>
#include <string>
#include <vector>

namespace dlenv::refresh {

// The final releases of `project` that PyPI's JSON API (`pypi_url` + project + "/json")
// lists with at least one file not yanked, oldest first; empty when PyPI does not know
// the project. Throws Error(invalid_input) naming the URL and the field of a document
// that is not PyPI's, or the URL and the limit of one past `max_bytes`.
std::vector<Pep440Version> pypi_releases(
    const http::Client& client, const std::string& pypi_url, const std::string& project, std::size_t max_bytes);

// The same, from the document's text.
std::vector<Pep440Version> parse_pypi_releases(const std::string& body, const std::string& url);

} // namespace dlenv::refresh
