#pragma once

#include "http/client.h"
#include "http/retry.h"
#include "pypi/index.h"

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace dlenv::pypi {

// The most bytes a project page and a PEP 658 metadata file may have (0: no bound); a
// larger one is refused with Error(invalid_input) naming its URL and the limit.
struct PageLimits {
    std::size_t page_bytes = 0;
    std::size_t metadata_bytes = 0;
};

// A PEP 691 / PEP 503 simple-API index at `url` ("https://pypi.org/simple/"). A project's
// page is `url` + normalised name + "/", asked for as JSON and taken as HTML when the
// server answers HTML; a 404 means the index does not know the project. Only wheels are
// listed: files without a sha256 are left out (nothing unverifiable is locked), and a
// project whose files are all source distributions is refused with Error(not_found).
// Metadata comes from the PEP 658 `.metadata` file when the index advertises one (its
// sha256 checked when given); else from the wheel's METADATA read through HTTP range
// requests (remote_wheel.h: the zip's tail, central directory and METADATA, not all of
// a 2 GB wheel; checked by CRC-32 only, the wheel's sha256 being pinned by the lock and
// checked at install); else, from a
// server that does not honour ranges, from the whole wheel downloaded to a temporary
// file, checked against its sha256, read and removed. Errors carry "index <url>".
class SimpleIndex : public Index {
public:
    SimpleIndex(
        std::string url, http::ClientOptions options = {}, http::RetryPolicy retry = {}, PageLimits limits = {});

    const std::string& name() const override { return m_url; }
    std::vector<DistributionFile> files(const std::string& project) override;
    Metadata metadata(const DistributionFile& file) override;

private:
    http::Response get(const std::string& url, const std::vector<http::Header>& headers, std::size_t max_bytes) const;
    Metadata pep658_metadata(const DistributionFile& file) const;
    Metadata downloaded_metadata(const DistributionFile& file) const;

    std::string m_url; // ends in '/'
    http::Client m_client;
    http::RetryPolicy m_retry;
    PageLimits m_limits;
    std::map<std::string, std::vector<DistributionFile>> m_files; // project -> wheels
};

} // namespace dlenv::pypi
