#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <clocale>

int main(int argc, char** argv)
{
    // As dlenv's own main: UTF-8 paths (src/main.cpp).
    std::setlocale(LC_CTYPE, "C.UTF-8");
    return Catch::Session().run(argc, argv);
}
