// The host fast paths of field<P> (x86-64 inline assembly, x86_64.hpp)
// against the portable limb code and against GMP, on the raw Montgomery
// limbs: mont_mul(a, b) = a·b·R⁻¹ mod p, mont_sqr(a) = a²·R⁻¹ mod p, and
// a ± b, −a mod p. Operands: random values, values near 0 and p, values
// with all-ones limbs below p, limb patterns built from 0, 1, 2^64 − 1 and
// the limbs of p, and every aliasing of the output with the inputs.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using cuzk::test::mpz;

namespace {

template <class F>
using raw = bigint<F::N>;

template <class F>
bool below_p(const raw<F>& v)
{
    return v < F::params::modulus;
}

template <class F>
raw<F> random_below_p(std::mt19937_64& rng)
{
    for (;;) {
        raw<F> v;
        for (auto& x : v.l) x = rng();
        v.l[F::N - 1] &= (uint64_t{1} << (F::params::bits % 64)) - 1;
        if (below_p<F>(v)) return v;
    }
}

// Hand-picked operands, all < p.
template <class F>
std::vector<raw<F>> edge_operands(std::mt19937_64& rng)
{
    constexpr size_t N = F::N;
    const raw<F> p = F::params::modulus;
    std::vector<raw<F>> v;
    auto push = [&](const raw<F>& x) {
        if (below_p<F>(x)) v.push_back(x);
    };
    for (uint64_t k = 0; k < 4; ++k) push(raw<F>::from_u64(k));
    for (uint64_t k = 1; k < 5; ++k) push(sub_small(p, k));             // p − 1 … p − 4
    push(shr(sub_small(p, 1), 1));                                      // (p − 1)/2
    push(shr(add_small(p, 1), 1));                                      // (p + 1)/2
    push(F::params::one);                                               // R mod p
    push(F::params::r2);                                                // R² mod p
    // 2^k − 1 (all-ones limbs) and 2^k for k up to bits − 1.
    for (unsigned k = 1; k < F::params::bits; k += (k < 70 ? 1 : 29)) {
        raw<F> ones = raw<F>::zero(), pow2 = raw<F>::zero();
        for (unsigned b = 0; b < k; ++b) ones.l[b / 64] |= uint64_t{1} << (b % 64);
        pow2.l[k / 64] = uint64_t{1} << (k % 64);
        push(ones);
        push(pow2);
    }
    {
        raw<F> ones = raw<F>::zero();   // 2^(bits−1) − 1 and 2^(bits−1)
        for (unsigned b = 0; b + 1 < F::params::bits; ++b) ones.l[b / 64] |= uint64_t{1} << (b % 64);
        push(ones);
        push(add_small(ones, 1));
    }
    // Every limb 2^64 − 1 except the top one, which is p's top limb or one less.
    for (uint64_t d = 0; d < 2; ++d) {
        raw<F> x;
        for (size_t i = 0; i + 1 < N; ++i) x.l[i] = ~uint64_t{0};
        x.l[N - 1] = p.l[N - 1] - d;
        push(x);
    }
    // p with one limb lowered, zeroed or raised-and-borrowed: just below p.
    for (size_t i = 0; i < N; ++i) {
        raw<F> x = p;
        x.l[i] = 0;
        push(x);
        x = p;
        x.l[i] -= 1;
        push(x);
    }
    // Random mixtures of the limb values 0, 1, 2^64 − 1, p_i, p_i ± 1.
    for (int n = 0; n < 200; ++n) {
        raw<F> x;
        for (size_t i = 0; i < N; ++i) {
            const uint64_t choices[6] = {0, 1, ~uint64_t{0}, p.l[i], p.l[i] - 1, p.l[i] + 1};
            x.l[i] = choices[rng() % 6];
        }
        push(x);
    }
    // Just below p by a random 64-bit amount.
    for (int n = 0; n < 8; ++n) {
        raw<F> x = p;
        x.sub_assign(raw<F>::from_u64(rng() | 1));
        push(x);
    }
    return v;
}

// Reference values from GMP.
template <class F>
struct gmp_ref {
    mpz p, rinv, t;
    gmp_ref() : p(test::to_mpz(F::params::modulus))
    {
        mpz r;
        mpz_ui_pow_ui(r, 2, 64 * F::N);
        mpz_invert(rinv, r, p);
    }
    std::string mul(const raw<F>& a, const raw<F>& b)
    {
        mpz_mul(t, test::to_mpz(a), test::to_mpz(b));
        mpz_mul(t, t, rinv);
        mpz_mod(t, t, p);
        return t.hex();
    }
    std::string add(const raw<F>& a, const raw<F>& b)
    {
        mpz_add(t, test::to_mpz(a), test::to_mpz(b));
        mpz_mod(t, t, p);
        return t.hex();
    }
    std::string sub(const raw<F>& a, const raw<F>& b)
    {
        mpz_sub(t, test::to_mpz(a), test::to_mpz(b));
        mpz_mod(t, t, p);
        return t.hex();
    }
    std::string neg(const raw<F>& a)
    {
        mpz_neg(t, test::to_mpz(a));
        mpz_mod(t, t, p);
        return t.hex();
    }
};

template <class F>
std::string hex(const raw<F>& v)
{
    return test::to_mpz(v).hex();
}

// One pair (a, b): every operation, fast against portable, optionally
// against GMP, including the aliased forms r = a, r = b, a = b.
template <class F>
void check_pair(const raw<F>& a, const raw<F>& b, gmp_ref<F>* ref)
{
    raw<F> f, s, x;
    F::mont_mul(f.l, a.l, b.l);
    F::mont_mul_portable(s.l, a.l, b.l);
    REQUIRE(hex<F>(f) == hex<F>(s));
    if (ref) REQUIRE(hex<F>(f) == ref->mul(a, b));
    x = a;
    F::mont_mul(x.l, x.l, b.l);
    REQUIRE(x == f);
    x = b;
    F::mont_mul(x.l, a.l, x.l);
    REQUIRE(x == f);

    F::add_mod(f.l, a.l, b.l);
    F::add_mod_portable(s.l, a.l, b.l);
    REQUIRE(hex<F>(f) == hex<F>(s));
    if (ref) REQUIRE(hex<F>(f) == ref->add(a, b));
    x = a;
    F::add_mod(x.l, x.l, b.l);
    REQUIRE(x == f);
    x = b;
    F::add_mod(x.l, a.l, x.l);
    REQUIRE(x == f);

    F::sub_mod(f.l, a.l, b.l);
    F::sub_mod_portable(s.l, a.l, b.l);
    REQUIRE(hex<F>(f) == hex<F>(s));
    if (ref) REQUIRE(hex<F>(f) == ref->sub(a, b));
    x = a;
    F::sub_mod(x.l, x.l, b.l);
    REQUIRE(x == f);
    x = b;
    F::sub_mod(x.l, a.l, x.l);
    REQUIRE(x == f);
}

template <class F>
void check_single(const raw<F>& a, gmp_ref<F>* ref)
{
    raw<F> f, s, x;
    F::mont_sqr(f.l, a.l);
    F::mont_mul_portable(s.l, a.l, a.l);
    REQUIRE(hex<F>(f) == hex<F>(s));
    if (ref) REQUIRE(hex<F>(f) == ref->mul(a, a));
    x = a;
    F::mont_sqr(x.l, x.l);
    REQUIRE(x == f);
    F::mont_mul(x.l, a.l, a.l);
    REQUIRE(x == f);

    F::neg_mod(f.l, a.l);
    F::neg_mod_portable(s.l, a.l);
    REQUIRE(hex<F>(f) == hex<F>(s));
    if (ref) REQUIRE(hex<F>(f) == ref->neg(a));
    x = a;
    F::neg_mod(x.l, x.l);
    REQUIRE(x == f);

    // a + (p − a) = p must come back as 0; a − a = 0; a + a = 2a.
    F::add_mod(x.l, a.l, f.l);
    REQUIRE(x.is_zero());
    F::sub_mod(x.l, a.l, a.l);
    REQUIRE(x.is_zero());
    F::add_mod(f.l, a.l, a.l);
    F::add_mod_portable(s.l, a.l, a.l);
    REQUIRE(f == s);
}

template <class F>
void check_edges()
{
    std::mt19937_64 rng(test::test_seed() + 7);
    gmp_ref<F> ref;
    const auto ops = edge_operands<F>(rng);
    INFO("edge operands: " << ops.size());
    REQUIRE(ops.size() > 100);
    for (const auto& a : ops) {
        check_single<F>(a, &ref);
        for (const auto& b : ops) check_pair<F>(a, b, &ref);
    }
}

template <class F>
void check_random(int rounds, int gmp_every)
{
    std::mt19937_64 rng(test::test_seed() + 11);
    gmp_ref<F> ref;
    const raw<F> p = F::params::modulus;
    for (int i = 0; i < rounds; ++i) {
        raw<F> a = random_below_p<F>(rng), b = random_below_p<F>(rng);
        // A quarter of the operands sit just below p.
        if (i % 4 == 1) {
            a = p;
            a.sub_assign(raw<F>::from_u64(rng() >> (rng() % 64)));
            if (!below_p<F>(a) || a.is_zero()) a = sub_small(p, 1);
        }
        gmp_ref<F>* r = (i % gmp_every == 0) ? &ref : nullptr;
        check_pair<F>(a, b, r);
        check_single<F>(a, r);
    }
}

} // namespace

TEST_CASE("field fast path: chosen by the documented rule, and runnable here", "[ff]")
{
    // field.hpp: host code for x86-64 takes the assembly unless
    // CUZK_PORTABLE_FIELD is defined; everything else the portable code.
#if defined(__x86_64__) && !defined(CUZK_PORTABLE_FIELD)
    constexpr bool expect_fast = true;
#else
    constexpr bool expect_fast = false;
#endif
    CHECK(bool(CUZK_FIELD_X86) == expect_fast);
#if CUZK_FIELD_X86
    // Both moduli meet the assembly's preconditions, and this processor has
    // the instructions it uses (mulx: BMI2, adcx/adox: ADX).
    CHECK(x86::supported<fp_params>);
    CHECK(x86::supported<fr_params>);
    __builtin_cpu_init();
    CHECK(__builtin_cpu_supports("bmi2"));
    CHECK(__builtin_cpu_supports("adx"));
#endif
}

TEST_CASE("Fp fast path equals portable code and GMP on edge operands", "[ff]")
{
    check_edges<fp>();
}

TEST_CASE("Fr fast path equals portable code and GMP on edge operands", "[ff]")
{
    check_edges<fr>();
}

TEST_CASE("Fp fast path equals portable code on random operands", "[ff]")
{
    check_random<fp>(100000, 50);
}

TEST_CASE("Fr fast path equals portable code on random operands", "[ff]")
{
    check_random<fr>(100000, 50);
}

TEST_CASE("Fp and Fr fast path, many random operands", "[ff][slow]")
{
    check_random<fp>(5000000, 1000);
    check_random<fr>(5000000, 1000);
}
