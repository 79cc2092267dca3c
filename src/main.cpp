#include "cli/commands.h"

int main(int argc, char** argv)
{
    return dlenv::cli::run(argc, argv);
}
