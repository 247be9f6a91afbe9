// The SHA-256 gadgets against a plain SHA-256 written here (whose constants
// are re-derived from the primes and which is checked on FIPS 180 vectors):
// digests read back from the witness, all constraints satisfied, a flipped
// witness bit caught, witness_cs / test_cs / recording_cs / PCE consistent.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <random>
#include <string>

#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using namespace cuzk::r1cs;
using namespace cuzk::r1cs::gadgets;

namespace {

// ---- a plain SHA-256 ------------------------------------------------------------------------

using u128 = unsigned __int128;

// floor(n^(1/k)) for k = 2, 3 by bisection on 64-bit candidates.
uint64_t iroot(u128 n, int k)
{
    uint64_t lo = 0, hi = uint64_t(1) << 40;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        u128 p = 1;
        for (int i = 0; i < k; ++i) p *= mid;
        if (p <= n) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

std::vector<uint64_t> first_primes(size_t n)
{
    std::vector<uint64_t> ps;
    for (uint64_t x = 2; ps.size() < n; ++x) {
        bool prime = true;
        for (uint64_t p : ps)
            if (x % p == 0) prime = false;
        if (prime) ps.push_back(x);
    }
    return ps;
}

struct plain_sha256 {
    // Fractional bits: frac(p^(1/2))·2^32 = floor(sqrt(p·2^64)) mod 2^32, and
    // frac(p^(1/3))·2^32 = floor(cbrt(p·2^96)) mod 2^32.
    std::array<uint32_t, 8> iv;
    std::array<uint32_t, 64> k;
    plain_sha256()
    {
        const auto ps = first_primes(64);
        for (size_t i = 0; i < 8; ++i) iv[i] = uint32_t(iroot(u128(ps[i]) << 64, 2));
        for (size_t i = 0; i < 64; ++i) k[i] = uint32_t(iroot(u128(ps[i]) << 96, 3));
    }
    static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

    void compress(std::array<uint32_t, 8>& h, const uint8_t* blk) const
    {
        uint32_t w[64];
        for (int t = 0; t < 16; ++t)
            w[t] = uint32_t(blk[4 * t]) << 24 | uint32_t(blk[4 * t + 1]) << 16 | uint32_t(blk[4 * t + 2]) << 8 |
                   blk[4 * t + 3];
        for (int t = 16; t < 64; ++t) {
            const uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
            const uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int t = 0; t < 64; ++t) {
            const uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[t] + w[t];
            const uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        const uint32_t x[8] = {a, b, c, d, e, f, g, hh};
        for (int i = 0; i < 8; ++i) h[i] += x[i];
    }

    std::array<uint8_t, 32> hash(const std::vector<uint8_t>& m) const
    {
        std::vector<uint8_t> p = m;
        p.push_back(0x80);
        while (p.size() % 64 != 56) p.push_back(0);
        const uint64_t bits = uint64_t(m.size()) * 8;
        for (int i = 7; i >= 0; --i) p.push_back(uint8_t(bits >> (8 * i)));
        std::array<uint32_t, 8> h = iv;
        for (size_t off = 0; off < p.size(); off += 64) compress(h, p.data() + off);
        std::array<uint8_t, 32> d;
        for (int i = 0; i < 32; ++i) d[i] = uint8_t(h[i / 4] >> (24 - 8 * (i % 4)));
        return d;
    }
};

const plain_sha256& ref()
{
    static const plain_sha256 r;
    return r;
}

std::string hex(std::span<const uint8_t> b)
{
    std::string s;
    char buf[3];
    for (uint8_t x : b) {
        std::snprintf(buf, sizeof buf, "%02x", x);
        s += buf;
    }
    return s;
}

std::vector<uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

std::vector<uint8_t> random_bytes(std::mt19937_64& rng, size_t n)
{
    std::vector<uint8_t> v(n);
    for (auto& x : v) x = uint8_t(rng());
    return v;
}

// The value of a boolean as the witness says (not the gadget's own bookkeeping).
bool witness_bit(const test_cs& cs, const boolean& b)
{
    if (b.is_constant()) return b.value();
    const fr v = cs.aux()[b.var().index];
    REQUIRE((v.is_zero() || v.is_one()));
    return (b.get_kind() == boolean::kind::is) == v.is_one();
}

uint32_t witness_word(const test_cs& cs, const uint32& w)
{
    uint32_t v = 0;
    for (unsigned j = 0; j < 32; ++j) v |= uint32_t(witness_bit(cs, w.bits()[j])) << j;
    return v;
}

std::vector<boolean> alloc_message(constraint_system& cs, const std::vector<uint8_t>& m)
{
    std::vector<boolean> bits;
    for (uint8_t byte : m)
        for (int j = 7; j >= 0; --j) bits.push_back(boolean::alloc(cs, (byte >> j) & 1u));
    return bits;
}

} // namespace

TEST_CASE("the plain reference SHA-256 meets FIPS 180 and the gadget's constants", "[sha256]")
{
    CHECK(hex(ref().hash(bytes("abc"))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(hex(ref().hash({})) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(hex(ref().hash(bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))) ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    CHECK(ref().iv == sha256_iv_words());
    CHECK(ref().k == sha256_round_constants());
}

TEST_CASE("SHA-256 gadget digests equal the plain SHA-256", "[sha256]")
{
    std::mt19937_64 rng(test::test_seed());
    std::vector<std::vector<uint8_t>> msgs = {{}, bytes("abc"), random_bytes(rng, 55), random_bytes(rng, 56),
                                              random_bytes(rng, 64), random_bytes(rng, 119)};
    for (int i = 0; i < 3; ++i) msgs.push_back(random_bytes(rng, rng() % 120));
    for (const auto& m : msgs) {
        INFO("message length " << m.size());
        const auto want = ref().hash(m);
        test_cs cs;
        const std::vector<boolean> msg = alloc_message(cs, m);
        const std::vector<boolean> digest = sha256(cs, msg);
        REQUIRE(digest.size() == 256);
        std::array<uint8_t, 32> got{};
        for (size_t i = 0; i < 256; ++i) got[i / 8] |= uint8_t(witness_bit(cs, digest[i]) << (7 - i % 8));
        CHECK(hex(got) == hex(want));
        CHECK(cs.is_satisfied());
    }
}

TEST_CASE("one compression: values, constraint count, constant folding", "[sha256]")
{
    std::mt19937_64 rng(test::test_seed() + 1);
    std::array<uint32_t, 8> st;
    for (auto& x : st) x = uint32_t(rng());
    const std::vector<uint8_t> blk = random_bytes(rng, 64);
    std::array<uint32_t, 8> want = st;
    ref().compress(want, blk.data());

    // Variable state and block.
    test_cs cs;
    std::array<uint32, 8> state;
    for (size_t i = 0; i < 8; ++i) state[i] = uint32::alloc(cs, st[i]);
    const std::vector<boolean> bits = alloc_message(cs, blk);
    const size_t before = cs.num_constraints();
    CHECK(before == 8 * 32 + 512);   // booleanity of the allocated bits
    const auto out = sha256_compression_bits(cs, state, std::span<const boolean, 512>(bits.data(), 512));
    const size_t per = cs.num_constraints() - before;
    for (size_t i = 0; i < 8; ++i) {
        CHECK(out[i].value() == want[i]);
        CHECK(witness_word(cs, out[i]) == want[i]);
    }
    CHECK(cs.is_satisfied());
    INFO("SHA-256 compression (variable state and block): " << per << " constraints, "
         << cs.num_aux() - 8 * 32 - 512 << " aux variables");
    CHECK(per > 20000);
    CHECK(per < 30000);

    // Constant state and block: the value comes out with no constraints at all.
    test_cs k;
    std::array<uint32, 8> cst;
    for (size_t i = 0; i < 8; ++i) cst[i] = uint32::constant(st[i]);
    std::array<uint32, 16> words;
    for (size_t t = 0; t < 16; ++t)
        words[t] = uint32::constant(uint32_t(blk[4 * t]) << 24 | uint32_t(blk[4 * t + 1]) << 16 |
                                    uint32_t(blk[4 * t + 2]) << 8 | blk[4 * t + 3]);
    const auto kout = sha256_compression(k, cst, words);
    for (size_t i = 0; i < 8; ++i) CHECK(kout[i].value() == want[i]);
    CHECK(k.num_constraints() == 0);
    CHECK(k.num_aux() == 0);
}

TEST_CASE("preimage circuit: satisfied, public digest, systems and PCE agree", "[sha256]")
{
    std::mt19937_64 rng(test::test_seed() + 2);
    for (size_t len : {size_t(0), size_t(20), size_t(55), size_t(56), size_t(100), size_t(119)}) {
        INFO("message length " << len);
        const std::vector<uint8_t> m = random_bytes(rng, len);
        const sha256_preimage_circuit circ(m);
        CHECK(circ.blocks() == (len + 9 + 63) / 64);
        const auto digest = ref().hash(m);
        const auto pub = sha256_preimage_circuit::public_inputs(digest);
        // Input 1 = big-endian digest bytes 0..15, checked through GMP.
        {
            test::mpz want, t;
            for (int i = 0; i < 16; ++i) {
                mpz_mul_2exp(want, want, 8);
                mpz_add_ui(want, want, digest[i]);
            }
            CHECK(test::to_mpz(pub[0].to_repr()).hex() == want.hex());
        }

        test_cs t;
        circ.synthesize(t);
        REQUIRE(t.num_inputs() == 3);
        CHECK(t.inputs()[1] == pub[0]);
        CHECK(t.inputs()[2] == pub[1]);
        CHECK(t.is_satisfied());

        witness_cs w;
        circ.synthesize(w);
        recording_cs r;
        circ.synthesize(r);
        CHECK(w.num_constraints() == t.num_constraints());
        CHECK(r.num_constraints() == t.num_constraints());
        CHECK(w.num_aux() == t.num_aux());
        CHECK(r.num_aux() == t.num_aux());
        REQUIRE(std::equal(w.aux().begin(), w.aux().end(), t.aux().begin()));
        REQUIRE(std::equal(w.inputs().begin(), w.inputs().end(), t.inputs().begin()));

        const pce p = r.finish();
        CHECK(!first_unsatisfied(p, w.inputs(), w.aux(), 2));
        // A wrong public digest is caught by one of the two packing constraints (the last two).
        std::vector<fr> in(w.inputs().begin(), w.inputs().end());
        in[2] += fr::one();
        CHECK(first_unsatisfied(p, in, w.aux()) == std::optional<size_t>(p.num_constraints - 1));
        if (len == 0) CHECK(p.num_constraints == 2);   // everything constant but the packing
    }
}

TEST_CASE("a flipped witness bit makes a constraint unsatisfied", "[sha256]")
{
    std::mt19937_64 rng(test::test_seed() + 3);
    const sha256_preimage_circuit circ(random_bytes(rng, 100));   // 2 blocks
    const pce p = record(circ);
    witness_cs w;
    circ.synthesize(w);
    REQUIRE(!first_unsatisfied(p, w.inputs(), w.aux()));
    std::vector<fr> aux(w.aux().begin(), w.aux().end());
    size_t tried = 0;
    for (int round = 0; round < 40; ++round) {
        // First a message bit, then random aux variables (all of them are bits).
        const size_t j = round == 0 ? 0 : round == 1 ? aux.size() - 1 : rng() % aux.size();
        REQUIRE((aux[j].is_zero() || aux[j].is_one()));
        aux[j] = aux[j].is_zero() ? fr::one() : fr::zero();
        const auto bad = first_unsatisfied(p, w.inputs(), aux, 2);
        CHECK(bad.has_value());
        if (round < 4) {   // the test system names the same constraint
            test_cs t;
            circ.synthesize(t);
            t.set_aux(j, aux[j]);
            CHECK(t.first_unsatisfied() == bad);
        }
        aux[j] = w.aux()[j];
        ++tried;
    }
    CHECK(tried == 40);
}

TEST_CASE("preimage circuit size grows by one compression per block", "[sha256]")
{
    size_t prev = 0;
    for (size_t blocks = 1; blocks <= 3; ++blocks) {
        witness_cs w;
        sha256_preimage_circuit::blank(blocks).synthesize(w);
        INFO("sha256_preimage_circuit, " << blocks << " block(s): " << w.num_constraints() << " constraints, "
             << w.num_aux() << " aux, " << w.num_inputs() << " inputs");
        CHECK(w.num_constraints() > prev);
        prev = w.num_constraints();
    }
}
