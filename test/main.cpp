#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

#include "gmp_util.hpp"

int main(int argc, char* argv[])
{
    std::fprintf(stderr, "cuzk tests: random seed 0x%016llx (set CUZK_TEST_SEED to repeat)\n",
                static_cast<unsigned long long>(cuzk::test::test_seed()));
    return Catch::Session().run(argc, argv);
}
