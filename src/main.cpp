#include "cli/commands.h"

#include <clocale>

int main(int argc, char** argv)
{
    // Paths in images and packages are bytes that PAX records carry as UTF-8: with the
    // character type C.UTF-8, whatever the environment's locale, libarchive writes a
    // UTF-8 name as it is (ca-certificates' "Főtanúsítvány.crt") and refuses only one
    // that is not UTF-8; in the "C" locale it refuses every byte above 0x7f.
    std::setlocale(LC_CTYPE, "C.UTF-8");
    return dlenv::cli::run(argc, argv);
}
