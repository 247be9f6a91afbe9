// The device NTT schedule (kernels/ntt_device.cuh) run on the host: the same
// passes, stages and instruction sequences the GPU runs, on the host
// emulation of the device field (kernels/ff_device.cuh), with the blocks'
// threads run one after the other between barriers (within one phase every
// shared element is touched by one thread only, so the order does not
// matter). Compared with the CPU NTT (ntt/ntt.hpp) for every radix the
// kernels offer, so a change to the schedule is checked on a machine without
// a GPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "../kernels/ntt_device.cuh"
#include "cuzk/ntt/ntt.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using namespace cuzk::dev;

namespace {

struct host_be {
    template <class B>
    void each(size_t n, const B& body, unsigned = 256)
    {
        for (size_t i = 0; i < n; ++i) body(i);
    }
    template <class B>
    void blocks(size_t nblocks, unsigned threads, size_t smem, const B& body)
    {
        std::vector<q16> sm(smem / sizeof(q16));
        for (size_t blk = 0; blk < nblocks; ++blk) {
            for (unsigned t = 0; t < threads; ++t) body.load(blk, t, sm.data());
            for (unsigned s = 0; s < body.stages(); ++s)
                for (unsigned t = 0; t < threads; ++t) body.stage(s, blk, t, sm.data());
            for (unsigned t = 0; t < threads; ++t) body.store(blk, t, sm.data());
        }
    }
};

// The bridge's ntt (kernels/ntt.cu) on the host.
// in_mul, out_sub: the fused element-wise product before and subtraction
// after the transform (null: none).
// low >= 0: the low-memory schedule (no scratch) with the stage tables of
// stages < min(L, low) and the power tables for the rest.
void host_device_ntt(std::vector<fr>& a, unsigned L, root_convention conv, bool inverse, bool coset,
                     const fr& shift, unsigned radix, const std::vector<fr>* in_mul = nullptr,
                     const std::vector<fr>* out_sub = nullptr, int low = -1)
{
    host_be be;
    const size_t n = size_t{1} << L;
    const size_t small = (size_t{2} << ((L + 1) / 2)) + 16;
    std::vector<dfr> tables(2 * small), tw(ntt_twiddle_count(L)), powers(ntt_power_count(L)),
        scratch(low >= 0 ? 0 : n);
    const dfr omega = dfr::from_host(root_of_unity(L, conv));
    ntt_twiddles<dfr> twd{tw.data(), L};
    if (low < 0) {
        ntt_build_twiddles(be, tw.data(), L, omega, tables.data());
    } else {
        twd.table_log = std::min(L, unsigned(low));
        twd.h = ntt_build_power_tables(be, powers.data(), L, omega);
        twd.lo = powers.data();
        twd.hi = powers.data() + (size_t{1} << twd.h);
        ntt_build_stage_tables(be, tw.data(), twd.table_log, L, powers.data());
    }
    ntt_scaling sc;
    const fr n_inv = fr::from_u64(n).inverse();
    if (!inverse) {
        if (coset) {
            sc.in_shift = ntt_build_powers(be, tables.data(), tables.data() + small, L, dfr::from_host(shift),
                                           dfr::one());
            sc.in_lo = tables.data();
            sc.in_hi = tables.data() + small;
        }
    } else if (!coset) {
        sc.out_mode = 1;
        sc.out_c = dfr::from_host(n_inv);
    } else {
        sc.out_mode = 2;
        sc.out_shift = ntt_build_powers(be, tables.data(), tables.data() + small, L, dfr::from_host(shift.inverse()),
                                        dfr::from_host(n_inv));
        sc.out_lo = tables.data();
        sc.out_hi = tables.data() + small;
    }
    std::vector<dfr> d(n), mul(in_mul ? n : 0), sub(out_sub ? n : 0);
    for (size_t i = 0; i < n; ++i) d[i] = dfr::from_host(a[i]);
    for (size_t i = 0; i < mul.size(); ++i) mul[i] = dfr::from_host((*in_mul)[i]);
    for (size_t i = 0; i < sub.size(); ++i) sub[i] = dfr::from_host((*out_sub)[i]);
    sc.in_mul = in_mul ? mul.data() : nullptr;
    sc.out_sub = out_sub ? sub.data() : nullptr;
    ntt_run(be, d.data(), low >= 0 ? nullptr : scratch.data(), twd, L, inverse, sc, radix);
    for (size_t i = 0; i < n; ++i) a[i] = d[i].to_host();
}

} // namespace

TEST_CASE("device NTT schedule equals the CPU NTT for every radix (host emulation)")
{
    std::mt19937_64 rng(test::test_seed() + 40);
    // 2^12, 2^14, 2^16 take two passes (the second with 1, 3, 5 stages); 2^11 is one full block.
    for (unsigned L : {1u, 2u, 3u, 5u, 8u, 11u, 12u, 14u, 16u}) {
        const size_t n = size_t{1} << L;
        std::vector<fr> in(n);
        for (auto& x : in) x = fr::random(rng);
        for (auto conv : {root_convention::bellperson, root_convention::snarkjs}) {
            const ntt_domain dom(L, conv);
            const fr shift = fr::from_u64(7);
            for (int kind = 0; kind < 4; ++kind) {
                std::vector<fr> want = in;
                if (kind == 0) ntt(want, dom, 1);
                else if (kind == 1) intt(want, dom, 1);
                else if (kind == 2) coset_ntt(want, dom, shift, 1);
                else coset_intt(want, dom, shift, 1);
                for (unsigned radix : {1u, 2u, 3u}) {
                    INFO("L " << L << " conv " << int(conv) << " kind " << kind << " radix " << radix);
                    std::vector<fr> got = in;
                    host_device_ntt(got, L, conv, kind == 1 || kind == 3, kind >= 2, shift, radix);
                    REQUIRE(got == want);
                }
            }
        }
    }
}

TEST_CASE("device NTT schedule: the fused product before and subtraction after (host emulation)")
{
    // The GPU prover's last transform of the H step: cosetINTT(a∘b) − c, with
    // a∘b taken on the first pass's load and c subtracted on the last pass's
    // store; one pass (2^8, 2^11) and several (2^12, 2^16).
    std::mt19937_64 rng(test::test_seed() + 41);
    for (unsigned L : {1u, 8u, 11u, 12u, 16u}) {
        const size_t n = size_t{1} << L;
        std::vector<fr> a(n), b(n), c(n);
        for (size_t i = 0; i < n; ++i) {
            a[i] = fr::random(rng);
            b[i] = fr::random(rng);
            c[i] = fr::random(rng);
        }
        const ntt_domain dom(L, root_convention::bellperson);
        const fr shift = fr::from_u64(7);
        for (int kind = 0; kind < 4; ++kind) {
            std::vector<fr> want(n);
            for (size_t i = 0; i < n; ++i) want[i] = a[i] * b[i];
            if (kind == 0) ntt(want, dom, 1);
            else if (kind == 1) intt(want, dom, 1);
            else if (kind == 2) coset_ntt(want, dom, shift, 1);
            else coset_intt(want, dom, shift, 1);
            for (size_t i = 0; i < n; ++i) want[i] -= c[i];
            for (unsigned radix : {1u, 2u}) {
                INFO("L " << L << " kind " << kind << " radix " << radix);
                std::vector<fr> got = a;
                host_device_ntt(got, L, root_convention::bellperson, kind == 1 || kind == 3, kind >= 2, shift, radix,
                                &b, &c);
                REQUIRE(got == want);
            }
        }
    }
}

TEST_CASE("device NTT low-memory schedule: in place, late twiddles made as used, the same bits (host emulation)")
{
    // No scratch array; stage tables of stages < T only (T = 0: none, every
    // twiddle from the power tables; T = 5; T = L: all), for every kind, with
    // and without the fused product and subtraction, one pass and several.
    std::mt19937_64 rng(test::test_seed() + 42);
    for (unsigned L : {1u, 11u, 12u, 14u}) {
        const size_t n = size_t{1} << L;
        std::vector<fr> a(n), b(n), c(n);
        for (size_t i = 0; i < n; ++i) {
            a[i] = fr::random(rng);
            b[i] = fr::random(rng);
            c[i] = fr::random(rng);
        }
        const fr shift = fr::from_u64(7);
        for (int kind = 0; kind < 4; ++kind) {
            const bool inv = kind == 1 || kind == 3, coset = kind >= 2;
            for (bool fused : {false, true}) {
                std::vector<fr> want = a;
                host_device_ntt(want, L, root_convention::bellperson, inv, coset, shift, 2, fused ? &b : nullptr,
                                fused ? &c : nullptr);
                for (int T : {0, 5, int(L)})
                    for (unsigned radix : {1u, 2u, 3u}) {
                        if (T && radix != 2) continue;   // every radix once, with no tables
                        INFO("L " << L << " kind " << kind << " fused " << fused << " tables " << T << " radix "
                                  << radix);
                        std::vector<fr> got = a;
                        host_device_ntt(got, L, root_convention::bellperson, inv, coset, shift, radix,
                                        fused ? &b : nullptr, fused ? &c : nullptr, T);
                        REQUIRE(got == want);
                    }
            }
        }
    }
    // And against the CPU NTT at a size with three passes (2^20: 11 + 5 + 4 stages).
    const unsigned L = 20;
    std::vector<fr> in(size_t{1} << L);
    for (auto& x : in) x = fr::random(rng);
    const ntt_domain dom(L, root_convention::snarkjs);
    std::vector<fr> want = in, got = in;
    coset_ntt(want, dom, fr::from_u64(5), 0);
    host_device_ntt(got, L, root_convention::snarkjs, false, true, fr::from_u64(5), 2, nullptr, nullptr, 12);
    REQUIRE(got == want);
}
