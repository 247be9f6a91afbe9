// Writes the BN254 inputs of test_capi_bn254.c (run by ctest as the fixture
// capi_bn254_fixture before it): a bn128 .zkey made with a development setup
// (fixed toxic waste) and the witnesses of two partitions.
//
// The circuit (circom's order: 0 = ONE, public y, x, then private a, v_1 … v_K):
//   a · a = v_1;   (v_i + x) · a = v_(i+1) for 1 <= i < K;   (v_K + x) · 1 = y.
// Partition p's witness has a = 5 + p, x = 7 + p.
//
// Usage: test_capi_bn254_fixture <out.zkey> <out.bin>. out.bin holds the two
// full witnesses (ONE, public, private) one after the other, each scalar 32
// bytes little-endian canonical: the form cuzk.h's scalars take.
#include <cstdio>
#include <exception>
#include <fstream>
#include <functional>
#include <tuple>
#include <vector>

#include "cuzk/groth16/setup.hpp"
#include "cuzk/io/snarkjs.hpp"

using namespace cuzk;
using bfr = bn254::fr;

namespace {

constexpr uint32_t K = 6;   // K + 1 constraints, 3 inputs: a domain of 16

groth16::r1cs_description_t<bfr> describe(std::vector<std::tuple<int, uint32_t, uint32_t, bfr>>& e)
{
    const bfr one = bfr::one();
    e.emplace_back(0, 0, 3, one);   // a · a = v_1
    e.emplace_back(1, 0, 3, one);
    e.emplace_back(2, 0, 4, one);
    for (uint32_t i = 1; i < K; ++i) {   // (v_i + x) · a = v_(i+1)
        e.emplace_back(0, i, 3 + i, one);
        e.emplace_back(0, i, 2, one);
        e.emplace_back(1, i, 3, one);
        e.emplace_back(2, i, 4 + i, one);
    }
    e.emplace_back(0, K, 3 + K, one);   // (v_K + x) · 1 = y
    e.emplace_back(0, K, 2, one);
    e.emplace_back(1, K, 0, one);
    e.emplace_back(2, K, 1, one);
    groth16::r1cs_description_t<bfr> d;
    d.num_inputs = 3;
    d.num_aux = 1 + K;
    d.num_constraints = K + 1;
    d.for_each_entry = [&e](const std::function<void(int, uint32_t, uint32_t, const bfr&)>& fn) {
        for (const auto& [m, row, col, v] : e) fn(m, row, col, v);
    };
    return d;
}

std::vector<bfr> witness(uint64_t a_, uint64_t x_)
{
    const bfr a = bfr::from_u64(a_), x = bfr::from_u64(x_);
    std::vector<bfr> w = {bfr::one(), bfr::zero(), x, a, a * a};
    for (uint32_t i = 1; i < K; ++i) w.push_back((w.back() + x) * a);
    w[1] = w.back() + x;
    return w;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s <out.zkey> <out.bin>\n", argv[0]);
        return 2;
    }
    try {
        std::vector<std::tuple<int, uint32_t, uint32_t, bfr>> entries;
        const auto tw = groth16::toxic_waste_t<bfr>::from_seed(254);
        groth16::setup_options_t<bn254_curve> opt;
        opt.threads = 1;
        opt.waste = &tw;
        io::write_zkey(argv[1], groth16::setup_snarkjs<bn254_curve>(describe(entries), opt));
        std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
        for (uint64_t p = 0; p < 2; ++p)
            for (const bfr& v : witness(5 + p, 7 + p)) {
                uint8_t b[32];
                v.to_bytes_le(b);
                out.write(reinterpret_cast<const char*>(b), sizeof b);
            }
        out.close();
        if (!out) {
            std::fprintf(stderr, "%s: writing failed\n", argv[2]);
            return 1;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
