// NTT over Fr: roots re-derived with GMP, transforms against the O(n²) DFT and
// naive polynomial evaluation, and — for the sizes where the cache schedule
// has several passes — a randomized check of the whole output vector against
// the definition (below). Round trips, linearity and thread-count invariance
// are metamorphic checks on top.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/io/decimal.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using cuzk::test::mpz;

namespace {

const char* const R_DEC = "52435875175126190479447740508185965837690552500527637822603658699938581184513";
const root_convention both[] = {root_convention::bellperson, root_convention::snarkjs};

const char* conv_name(root_convention c) { return c == root_convention::snarkjs ? "snarkjs" : "bellperson"; }

// 64 hex digits, zero padded, of the canonical value.
std::string hex64(const fr& a)
{
    std::string h = test::to_mpz(a.to_repr()).hex();
    return std::string(64 - h.size(), '0') + h;
}

// g^(t·2^(32−k)) mod r with GMP, t = (r − 1)/2^32: the 2^k-th root of the
// convention, computed without the library.
fr gmp_root(unsigned g, unsigned k)
{
    const mpz r(R_DEC);
    mpz e, base, out;
    mpz_sub_ui(e, r, 1);
    mpz_fdiv_q_2exp(e, e, 32);
    mpz_mul_2exp(e, e, 32 - k);
    mpz_set_ui(base, g);
    mpz_powm(out, base, e, r);
    return fr::from_repr(test::from_mpz<4>(out));
}

std::vector<fr> random_vec(size_t n, std::mt19937_64& rng)
{
    std::vector<fr> v(n);
    for (auto& x : v) x = fr::random(rng);
    return v;
}

// out_i = c · Σ_j a_j w^{ij}, quadratic.
std::vector<fr> naive_dft(const std::vector<fr>& a, const fr& w, const fr& c)
{
    const size_t n = a.size();
    std::vector<fr> out(n);
    fr wi = fr::one();
    for (size_t i = 0; i < n; ++i) {
        fr x = fr::one(), s = fr::zero();
        for (size_t j = 0; j < n; ++j) {
            s += a[j] * x;
            x *= wi;
        }
        out[i] = c * s;
        wi *= w;
    }
    return out;
}

// Σ_j a_j x^j by Horner.
fr horner(const std::vector<fr>& a, const fr& x)
{
    fr s = fr::zero();
    for (size_t j = a.size(); j-- > 0;) s = s * x + a[j];
    return s;
}

// Randomized check that out_i = c · Σ_j a_j w^{ij} for every i (w of order n).
// For a random z, Σ_i out_i z^i = c · Σ_j a_j Σ_i (z w^j)^i
//                               = c · (z^n − 1) · Σ_j a_j / (z w^j − 1),
// because (w^j)^n = 1. Both sides cost O(n); the denominators are inverted in
// one batch (Montgomery's trick). A wrong output passes with probability
// at most about n/r.
bool dft_matches(const std::vector<fr>& a, const std::vector<fr>& out, const fr& w, const fr& c,
                 std::mt19937_64& rng)
{
    const size_t n = a.size();
    const fr z = fr::random(rng);
    fr lhs = fr::zero();
    for (size_t i = n; i-- > 0;) lhs = lhs * z + out[i];

    std::vector<fr> den(n), prefix(n);
    fr wj = fr::one(), acc = fr::one();
    for (size_t j = 0; j < n; ++j) {
        den[j] = z * wj - fr::one();
        prefix[j] = acc;
        acc *= den[j];
        wj *= w;
    }
    REQUIRE(!acc.is_zero());
    fr inv = acc.inverse();   // 1 / Π den
    fr sum = fr::zero();
    for (size_t j = n; j-- > 0;) {
        const fr dj_inv = inv * prefix[j];
        inv *= den[j];
        sum += a[j] * dj_inv;
    }
    fr zn = z;
    for (size_t m = 1; m < n; m *= 2) zn = zn.sqr();
    const fr rhs = c * (zn - fr::one()) * sum;
    return lhs == rhs;
}

std::vector<fr> times_powers(std::vector<fr> a, const fr& g)
{
    fr x = fr::one();
    for (auto& v : a) {
        v *= x;
        x *= g;
    }
    return a;
}

template <class F>
errc code_of(F&& f)
{
    try {
        f();
    } catch (const error& e) {
        return e.code();
    }
    return errc::ok;
}

// The coset shifts the two Groth16 provers use for a domain of size 2^k.
fr prover_shift(root_convention c, unsigned k)
{
    return c == root_convention::snarkjs ? root_of_unity(k + 1, c) : fr::from_u64(7);
}

} // namespace

TEST_CASE("roots of unity: exact order 2^k and the published values", "[ntt]")
{
    // The published snarkjs / ICICLE 2^32-th root (docs/FORMATS.md §4).
    CHECK(hex64(root_of_unity(32, root_convention::snarkjs)) ==
          "0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f");
    // blstrs' ROOT_OF_UNITY starts 0x16a2a19e… and ends …439f0d2b (docs/FORMATS.md §4).
    const std::string bp = hex64(root_of_unity(32, root_convention::bellperson));
    CHECK(bp.substr(0, 8) == "16a2a19e");
    CHECK(bp.substr(56) == "439f0d2b");

    // 5 and 7 are quadratic non-residues, so g^t has order exactly 2^32.
    const mpz r(R_DEC);
    mpz g;
    mpz_set_ui(g, 5);
    CHECK(mpz_legendre(g, r) == -1);
    mpz_set_ui(g, 7);
    CHECK(mpz_legendre(g, r) == -1);

    for (const auto c : both) {
        INFO(conv_name(c));
        const unsigned gen = c == root_convention::snarkjs ? 5 : 7;
        CHECK(root_of_unity(0, c) == fr::one());
        for (unsigned k = 1; k <= 32; ++k) {
            INFO("k = " << k);
            const fr w = root_of_unity(k, c);
            CHECK(w == gmp_root(gen, k));
            fr x = w;
            for (unsigned i = 1; i < k; ++i) x = x.sqr();   // w^(2^(k−1))
            CHECK(x == -fr::one());                          // hence order exactly 2^k
        }
        CHECK(code_of([&] { (void)root_of_unity(33, c); }) == errc::invalid_argument);
        CHECK(code_of([&] { ntt_domain d(33, c); }) == errc::invalid_argument);
    }
}

TEST_CASE("ntt_domain accessors", "[ntt]")
{
    for (const auto c : both)
        for (unsigned k : {0u, 1u, 5u, 13u}) {
            const ntt_domain d(k, c);
            CHECK(d.size() == (size_t{1} << k));
            CHECK(d.log_size() == k);
            CHECK(d.omega() == root_of_unity(k, c));
            CHECK(d.omega() * d.omega_inv() == fr::one());
            CHECK(d.size_inv() * fr::from_u64(d.size()) == fr::one());
            REQUIRE(d.twiddles().size() == d.size() / 2);
            fr x = fr::one();
            for (const fr& t : d.twiddles()) {
                REQUIRE(t == x);
                x *= d.omega();
            }
        }
}

TEST_CASE("ntt and intt equal the naive DFT for n = 1 .. 2^10", "[ntt]")
{
    std::mt19937_64 rng(test::test_seed() + 10);
    for (const auto c : both)
        for (unsigned k = 0; k <= 10; ++k) {
            INFO(conv_name(c) << " n = 2^" << k);
            const ntt_domain d(k, c);
            const auto a = random_vec(d.size(), rng);
            const fr w = gmp_root(c == root_convention::snarkjs ? 5 : 7, k);
            for (unsigned threads : {1u, 2u}) {
                auto f = a;
                ntt(f, d, threads);
                CHECK(f == naive_dft(a, w, fr::one()));
                auto g = a;
                intt(g, d, threads);
                CHECK(g == naive_dft(a, w.inverse(), fr::from_u64(d.size()).inverse()));
            }
        }
}

TEST_CASE("coset_ntt equals naive evaluation at shift·ω^i", "[ntt]")
{
    std::mt19937_64 rng(test::test_seed() + 11);
    for (const auto c : both)
        for (unsigned k = 0; k <= 8; ++k) {
            INFO(conv_name(c) << " n = 2^" << k);
            const ntt_domain d(k, c);
            const auto a = random_vec(d.size(), rng);
            for (const fr& shift : {prover_shift(c, k), fr::random(rng), fr::zero()}) {
                auto f = a;
                coset_ntt(f, d, shift, 2);
                fr x = shift;
                for (size_t i = 0; i < d.size(); ++i) {
                    REQUIRE(f[i] == horner(a, x));
                    x *= d.omega();
                }
            }
        }
}

TEST_CASE("snarkjs odd coset: coset_ntt with ω_2n gives the odd entries of the size-2n ntt", "[ntt]")
{
    std::mt19937_64 rng(test::test_seed() + 12);
    const auto c = root_convention::snarkjs;
    for (unsigned k = 0; k <= 12; ++k) {
        INFO("n = 2^" << k);
        const ntt_domain d(k, c), d2(k + 1, c);
        const auto a = random_vec(d.size(), rng);
        auto f = a;
        coset_ntt(f, d, root_of_unity(k + 1, c));
        std::vector<fr> big(2 * d.size(), fr::zero());
        std::copy(a.begin(), a.end(), big.begin());
        ntt(big, d2);
        for (size_t i = 0; i < d.size(); ++i) {
            REQUIRE(f[i] == big[2 * i + 1]);
        }
    }
}

TEST_CASE("intt∘ntt = id and coset_intt∘coset_ntt = id up to 2^16 with 1, 2, 3, 7 threads", "[ntt]")
{
    std::mt19937_64 rng(test::test_seed() + 13);
    for (const auto c : both)
        for (unsigned k = 0; k <= 16; ++k) {
            const ntt_domain d(k, c);
            const auto a = random_vec(d.size(), rng);
            const fr shift = prover_shift(c, k);
            for (unsigned threads : {1u, 2u, 3u, 7u}) {
                INFO(conv_name(c) << " n = 2^" << k << " threads = " << threads);
                auto f = a;
                ntt(f, d, threads);
                if (k > 0) CHECK(f != a);
                intt(f, d, threads);
                CHECK(f == a);
                f = a;
                coset_ntt(f, d, shift, threads);
                coset_intt(f, d, shift, threads);
                CHECK(f == a);
                f = a;
                intt(f, d, threads);
                ntt(f, d, threads);
                CHECK(f == a);
            }
        }
}

TEST_CASE("every transform matches its definition on the whole vector, 2^11 .. 2^17", "[ntt]")
{
    // Sizes above 2^12 run through the multi-pass cache schedule.
    std::mt19937_64 rng(test::test_seed() + 14);
    for (const auto c : both)
        for (unsigned k = 11; k <= 17; ++k) {
            INFO(conv_name(c) << " n = 2^" << k);
            const ntt_domain d(k, c);
            const fr w = gmp_root(c == root_convention::snarkjs ? 5 : 7, k);
            const fr winv = w.inverse();
            const fr ninv = fr::from_u64(d.size()).inverse();
            const fr s = prover_shift(c, k);
            const auto a = random_vec(d.size(), rng);
            const unsigned threads = k % 2 ? 3 : 0;

            auto f = a;
            ntt(f, d, threads);
            CHECK(dft_matches(a, f, w, fr::one(), rng));
            f = a;
            intt(f, d, threads);
            CHECK(dft_matches(a, f, winv, ninv, rng));
            f = a;
            coset_ntt(f, d, s, threads);   // f_i = Σ_j (a_j s^j) w^{ij}
            CHECK(dft_matches(times_powers(a, s), f, w, fr::one(), rng));
            f = a;
            coset_intt(f, d, s, threads);   // f_j s^j = (1/n) Σ_i a_i w^{−ij}
            CHECK(dft_matches(a, times_powers(f, s), winv, ninv, rng));
            // The check itself must be able to fail.
            f = a;
            ntt(f, d, threads);
            f[d.size() / 3] += fr::one();
            CHECK_FALSE(dft_matches(a, f, w, fr::one(), rng));
        }
}

TEST_CASE("large transforms match their definition", "[ntt][slow]")
{
    std::mt19937_64 rng(test::test_seed() + 15);
    for (const auto c : both)
        for (unsigned k : {18u, 20u, 21u}) {
            INFO(conv_name(c) << " n = 2^" << k);
            const ntt_domain d(k, c);
            const auto a = random_vec(d.size(), rng);
            auto f = a;
            ntt(f, d);
            CHECK(dft_matches(a, f, d.omega(), fr::one(), rng));
            const fr s = prover_shift(c, k);
            f = a;
            coset_ntt(f, d, s);
            CHECK(dft_matches(times_powers(a, s), f, d.omega(), fr::one(), rng));
            coset_intt(f, d, s);
            CHECK(f == a);
        }
}

// values_on_coset is intt followed by coset_ntt without the permutations
// between them; both orders of the work give the same field elements.
template <class F>
void check_values_on_coset(unsigned k, root_convention c, const F& shift, std::mt19937_64& rng)
{
    INFO(conv_name(c) << " n = 2^" << k);
    const ntt_domain_t<F> d(k, c);
    std::vector<F> a(d.size());
    for (F& x : a) x = F::random(rng);
    const unsigned threads = k % 3 == 0 ? 0u : k % 3 == 1 ? 1u : 3u;
    auto want = a;
    intt<F>(want, d, threads);
    coset_ntt<F>(want, d, shift, threads);
    auto got = a;
    values_on_coset<F>(got, d, shift, threads);
    CHECK(got == want);
}

TEST_CASE("values_on_coset equals intt then coset_ntt, 2^0 .. 2^17, both fields", "[ntt]")
{
    std::mt19937_64 rng(test::test_seed() + 16);
    for (const auto c : both)
        for (unsigned k = 0; k <= 17; ++k) {
            check_values_on_coset<fr>(k, c, prover_shift(c, k), rng);
            check_values_on_coset<fr>(k, c, fr::random(rng), rng);
        }
    for (unsigned k = 0; k <= 15; ++k) {
        using bfr = bn254::fr;
        check_values_on_coset<bfr>(k, root_convention::snarkjs,
                                   root_of_unity_of<bfr>(k + 1, root_convention::snarkjs), rng);
    }
    check_values_on_coset<fr>(5, root_convention::snarkjs, fr::zero(), rng);   // every value becomes p(0)
}

TEST_CASE("values_on_coset evaluates the interpolating polynomial on the coset (n <= 2^6)", "[ntt]")
{
    // Independent of the transforms: coefficients by the quadratic inverse
    // DFT, then Horner at shift·ω^i.
    std::mt19937_64 rng(test::test_seed() + 17);
    for (const auto c : both)
        for (unsigned k = 0; k <= 6; ++k) {
            INFO(conv_name(c) << " n = 2^" << k);
            const ntt_domain d(k, c);
            const fr w = gmp_root(c == root_convention::snarkjs ? 5 : 7, k);
            const auto a = random_vec(d.size(), rng);
            const auto coef = naive_dft(a, w.inverse(), fr::from_u64(d.size()).inverse());
            const fr s = prover_shift(c, k);
            auto got = a;
            values_on_coset(got, d, s, 2);
            fr x = s;
            for (size_t i = 0; i < d.size(); ++i, x *= w) CHECK(got[i] == horner(coef, x));
        }
}

TEST_CASE("values_on_coset with two column passes (2^21)", "[ntt][slow]")
{
    std::mt19937_64 rng(test::test_seed() + 18);
    check_values_on_coset<fr>(21, root_convention::snarkjs, prover_shift(root_convention::snarkjs, 21), rng);
    check_values_on_coset<fr>(21, root_convention::bellperson, fr::from_u64(7), rng);
}

TEST_CASE("ntt is linear", "[ntt]")
{
    std::mt19937_64 rng(test::test_seed() + 16);
    for (const auto c : both)
        for (unsigned k : {3u, 13u}) {
            const ntt_domain d(k, c);
            const auto a = random_vec(d.size(), rng), b = random_vec(d.size(), rng);
            const fr al = fr::random(rng), be = fr::random(rng);
            std::vector<fr> m(d.size());
            for (size_t i = 0; i < m.size(); ++i) m[i] = al * a[i] + be * b[i];
            auto fa = a, fb = b;
            ntt(fa, d);
            ntt(fb, d);
            ntt(m, d);
            for (size_t i = 0; i < m.size(); ++i) REQUIRE(m[i] == al * fa[i] + be * fb[i]);
        }
}

TEST_CASE("threads = 1 and threads = 4 give identical outputs at 2^14", "[ntt]")
{
    std::mt19937_64 rng(test::test_seed() + 17);
    for (const auto c : both) {
        const ntt_domain d(14, c);
        const fr s = prover_shift(c, 14);
        const auto a = random_vec(d.size(), rng);
        auto x1 = a, x4 = a;
        ntt(x1, d, 1);
        ntt(x4, d, 4);
        CHECK(x1 == x4);
        x1 = x4 = a;
        intt(x1, d, 1);
        intt(x4, d, 4);
        CHECK(x1 == x4);
        x1 = x4 = a;
        coset_ntt(x1, d, s, 1);
        coset_ntt(x4, d, s, 4);
        CHECK(x1 == x4);
        x1 = x4 = a;
        coset_intt(x1, d, s, 1);
        coset_intt(x4, d, s, 4);
        CHECK(x1 == x4);
    }
}

TEST_CASE("bit_reverse and scale_by_powers against simple loops", "[ntt]")
{
    std::mt19937_64 rng(test::test_seed() + 18);
    for (unsigned k = 0; k <= 14; ++k) {
        const size_t n = size_t{1} << k;
        const auto a = random_vec(n, rng);
        for (unsigned threads : {1u, 3u}) {
            auto f = a;
            bit_reverse(f, threads);
            for (size_t i = 0; i < n; ++i) {
                size_t r = 0;
                for (unsigned b = 0; b < k; ++b)
                    if (i >> b & 1) r |= size_t{1} << (k - 1 - b);
                REQUIRE(f[i] == a[r]);
            }
        }
    }
    for (size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{1000}, size_t{4097}, size_t{50001}}) {
        const auto a = random_vec(n, rng);
        const fr g = fr::random(rng);
        for (unsigned threads : {1u, 3u, 0u}) {
            auto f = a;
            scale_by_powers(f, g, threads);
            CHECK(f == times_powers(a, g));
        }
    }
}

TEST_CASE("bad sizes and a zero coset shift throw invalid_argument", "[ntt]")
{
    const ntt_domain d(4, root_convention::bellperson);
    for (size_t n : {size_t{0}, size_t{8}, size_t{15}, size_t{17}, size_t{32}}) {
        std::vector<fr> v(n, fr::one());
        const fr s = fr::from_u64(7);
        CHECK(code_of([&] { ntt(v, d); }) == errc::invalid_argument);
        CHECK(code_of([&] { intt(v, d); }) == errc::invalid_argument);
        CHECK(code_of([&] { coset_ntt(v, d, s); }) == errc::invalid_argument);
        CHECK(code_of([&] { coset_intt(v, d, s); }) == errc::invalid_argument);
        CHECK(code_of([&] { values_on_coset(v, d, s); }) == errc::invalid_argument);
        CHECK(v == std::vector<fr>(n, fr::one()));   // untouched
    }
    std::vector<fr> v(16, fr::one());
    CHECK(code_of([&] { coset_intt(v, d, fr::zero()); }) == errc::invalid_argument);
    std::vector<fr> odd(12, fr::one());
    CHECK(code_of([&] { bit_reverse(odd); }) == errc::invalid_argument);
    std::vector<fr> empty;
    CHECK(code_of([&] { bit_reverse(empty); }) == errc::ok);
}

TEST_CASE("BN254 Fr: snarkjs's root of unity, transforms against the naive DFT, round trips", "[ntt][bn254]")
{
    using bfr = bn254::fr;
    // ffjavascript's bn128 Fr.w[28] (snarkjs's and circom's 2^28-th root).
    const bfr w28 = root_of_unity_of<bfr>(28, root_convention::snarkjs);
    bfr::repr want;
    REQUIRE(io::from_decimal("19103219067921713944291392827692070036145651957329286315305642004821462161904", want));
    CHECK(w28 == bfr::from_repr(want));
    bfr h = w28;
    for (int i = 0; i < 27; ++i) h = h.sqr();
    CHECK(h == -bfr::one());   // primitive
    CHECK_THROWS_AS(root_of_unity_of<bfr>(29, root_convention::snarkjs), error);

    std::mt19937_64 rng(test::test_seed() + 254);
    for (unsigned k = 0; k <= 9; ++k) {
        INFO("n = 2^" << k);
        const ntt_domain_t<bfr> d(k, root_convention::snarkjs);
        std::vector<bfr> a(d.size());
        for (bfr& x : a) x = bfr::random(rng);
        // Σ_j a_j ω^{ij}, quadratic.
        std::vector<bfr> want_f(d.size(), bfr::zero());
        for (size_t i = 0; i < d.size(); ++i) {
            const bfr wi = d.omega().pow(uint64_t(i));
            bfr x = bfr::one();
            for (size_t j = 0; j < d.size(); ++j, x *= wi) want_f[i] += a[j] * x;
        }
        std::vector<bfr> f = a;
        ntt<bfr>(f, d, 2);
        CHECK(f == want_f);
        intt<bfr>(f, d, 3);
        CHECK(f == a);
        const bfr shift = bfr::random(rng);
        coset_ntt<bfr>(f, d, shift, 2);
        coset_intt<bfr>(f, d, shift, 1);
        CHECK(f == a);
    }
}
