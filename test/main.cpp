// The Catch2 main shared by every test program. Tests draw their random
// operands from one seed per run (test_seed(), gmp_util.hpp); the seed is
// printed only when something failed, next to the failure, so that a green
// run prints nothing and a red one can be repeated with CUZK_TEST_SEED.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

#include "gmp_util.hpp"

namespace {

void print_seed_once()
{
    static bool printed = false;
    if (printed) return;
    printed = true;
    std::fprintf(stderr, "cuzk tests: random seed 0x%016llx (set CUZK_TEST_SEED to repeat)\n",
                 static_cast<unsigned long long>(cuzk::test::test_seed()));
}

// Prints the seed at the first failed assertion (a crash inside a test is
// reported as one too) and after any failed test case.
struct seed_on_failure final : Catch::TestEventListenerBase {
    using TestEventListenerBase::TestEventListenerBase;
    bool assertionEnded(const Catch::AssertionStats& stats) override
    {
        if (!stats.assertionResult.isOk()) print_seed_once();
        return true;
    }
    void testCaseEnded(const Catch::TestCaseStats& stats) override
    {
        if (stats.totals.assertions.failed > 0 || stats.totals.testCases.failed > 0) print_seed_once();
    }
};

} // namespace

CATCH_REGISTER_LISTENER(seed_on_failure)

int main(int argc, char* argv[])
{
    // Not "print the seed on a non-zero exit": listing the cases
    // (--list-test-names-only) exits with their number.
    return Catch::Session().run(argc, argv);
}
