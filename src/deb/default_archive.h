#pragma once

#include "deb/archive.h"

#include <map>
#include <string>
#include <string_view>

namespace dlenv::deb {

// os-release(5): KEY=value lines, values optionally quoted; comments and blank lines
// skipped. Unparsable lines are skipped as systemd does.
std::map<std::string, std::string> parse_os_release(std::string_view text);

// The archive apt in a base of this distribution reads by default, from its
// os-release's ID and VERSION_CODENAME:
//  - debian: https://deb.debian.org/debian, suites CODENAME and CODENAME-updates,
//    component main, as the debian images' /etc/apt/sources.list.d/debian.sources has
//    it (https://wiki.debian.org/SourcesList; https rather than the image's http, since
//    dlenv does not check the Release's signature);
//  - ubuntu: http://archive.ubuntu.com/ubuntu, suites CODENAME and CODENAME-updates,
//    components main and universe, as the ubuntu images' /etc/apt/sources.list
//    (https://help.ubuntu.com/community/Repositories/Ubuntu) lists them for amd64.
// The security suites are not included. Error(invalid_input) for another distribution
// or an os-release without VERSION_CODENAME, saying to name system_archive.
ArchiveSource default_archive(const std::map<std::string, std::string>& os_release);

} // namespace dlenv::deb
