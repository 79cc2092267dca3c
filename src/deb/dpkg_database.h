#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dlenv::deb {

// A package as dlenv unpacked it: its control.tar's files and the paths its data.tar put
// down, as dpkg records them.
struct UnpackedPackage {
    std::string name;
    std::string architecture;
    std::string multi_arch; // "same" names its database files NAME:ARCH, as dpkg does
    std::map<std::string, std::string> control; // "control", "md5sums", "postinst", ...
    std::vector<std::string> paths; // "/.", "/usr", "/usr/bin/python3.11": data.tar's order
    // The MD5 of each conffile as it was unpacked ("/etc/mime.types" -> hex): a .deb's
    // md5sums leaves its conffiles out, and dpkg records these.
    std::map<std::string, std::string> conffile_md5;
};

struct DatabaseFile {
    std::string contents;
    std::uint32_t mode = 0644;
};

// What dpkg's database holds once `packages` are installed over a base whose status file
// is `base_status` (empty for a base without dpkg), by path in the image
// ("var/lib/dpkg/status", "var/lib/dpkg/info/python3.list"): the status file, the base's
// stanzas as they were plus each package's control stanza with "Status: install ok
// installed" after its Package field and its Conffiles (with the MD5 of each as unpacked,
// else from the package's md5sums), sorted by package name as dpkg writes it; and for each package its
// .list (one path per line, "/." first) and the control files dpkg keeps (md5sums,
// conffiles, triggers, shlibs, symbols, templates, and the maintainer scripts, 0755), and
// info/format "1", the layout those NAME:ARCH names belong to.
// Throws Error(invalid_input) naming the package for a control file that does not parse.
std::map<std::string, DatabaseFile> dpkg_database(
    const std::string& base_status, const std::vector<UnpackedPackage>& packages);

// The paths a package's conffiles control file lists ("/etc/mime.types"), in its order;
// dpkg 1.20's flagged lines ("remove-on-upgrade /etc/old.conf") name files the package
// does not ship and are left out.
std::vector<std::string> conffile_paths(const std::string& conffiles);

// The name dpkg files a package's database entries under: "libc6:amd64" for Multi-Arch:
// same, else "python3".
std::string database_name(const UnpackedPackage& package);

} // namespace dlenv::deb
