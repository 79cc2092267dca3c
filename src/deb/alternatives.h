#pragma once

#include <map>
#include <string>
#include <vector>

namespace dlenv::deb {

// One link group a maintainer script installs with
// "update-alternatives --install LINK NAME PATH PRIORITY [--slave LINK NAME PATH]...".
struct Alternative {
    struct Slave {
        std::string link;
        std::string name;
        std::string path;
    };
    std::string link; // "/usr/lib/x86_64-linux-gnu/libblas.so.3"
    std::string name; // "libblas.so.3-x86_64-linux-gnu"
    std::string path; // "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3"
    long priority = 0;
    std::vector<Slave> slaves;
};

// The update-alternatives --install commands of a maintainer script whose arguments are
// all literal (no '$', quotes or backquotes: what the script would compute is not
// guessed), lines joined at a trailing backslash. Other commands are not looked at.
std::vector<Alternative> installed_alternatives(const std::string& script);

// What update-alternatives leaves in auto mode once every one of `alternatives` is
// installed: for each name the highest priority wins (the first listed on a tie). By
// path in the image: symlinks LINK -> /etc/alternatives/NAME and /etc/alternatives/NAME
// -> PATH (slaves alike) and the administrative file var/lib/dpkg/alternatives/NAME.
struct AlternativeFiles {
    std::map<std::string, std::string> symlinks; // relative path -> target
    std::map<std::string, std::string> admin_files; // relative path -> contents
};
AlternativeFiles alternative_files(const std::vector<Alternative>& alternatives);

} // namespace dlenv::deb
