#pragma once

#include "pypi/index.h"

#include <string>
#include <string_view>
#include <vector>

namespace dlenv::pypi {

// The files a simple-API project page lists, as the index describes them; relative URLs
// are resolved against `page_url` and a "#sha256=..." fragment becomes the file's hash.
// `project` is the normalised name the page was fetched for; it names the page in errors
// (Error(invalid_input) for a page that does not parse).

// PEP 691 JSON: files[].filename, url, hashes.sha256, requires-python, yanked, size and
// core-metadata (or its older spelling dist-info-metadata): true or {"sha256": ...}.
std::vector<DistributionFile> parse_simple_json(
    std::string_view text, const std::string& page_url, const std::string& project);

// PEP 503 HTML: one anchor per file, its text the file name, its href the URL; the
// attributes data-requires-python (HTML entities decoded), data-yanked and
// data-core-metadata or data-dist-info-metadata ("true" or "sha256=...").
std::vector<DistributionFile> parse_simple_html(
    std::string_view text, const std::string& page_url, const std::string& project);

} // namespace dlenv::pypi
