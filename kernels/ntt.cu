// cuzk kernels — the NTT entry point of the bridge: twiddle tables cached per
// (size, convention, schedule), coset power tables per call, then ntt_run
// (kernels/ntt_device.cuh) on the context's stream.
#include <cstdlib>

#include "backend/bridge/cuda_bridge.hpp"
#include "cuda_backend.cuh"

namespace cuzk::cuda_bridge {

using namespace cuzk::dev;

namespace {
// d[i] ← d[i]·mul[i]·f − sub[i] (mul, sub: null for none).
template <class dfr>
struct scale_elements {
    dfr* d;
    dfr f;
    const dfr* mul;
    const dfr* sub;
    CUZK_HD void operator()(size_t i) const
    {
        dfr x = d[i] * f;
        if (mul) x = x * mul[i];
        if (sub) x = x - sub[i];
        d[i] = x;
    }
};

// The transform over the host field Fr (device field dfr); field_tag tells
// the two curves' twiddle tables apart in the context's cache.
// Stages whose tables the low-memory schedule keeps: 2^20 − 1 entries (32 MiB).
constexpr unsigned low_memory_table_log = 20;

// The twiddles of a transform of 2^log_n, cached in the context per (size,
// convention, field, schedule): all the stage tables (2^L − 1 elements), or
// for the low-memory schedule those of the first stages and the power
// tables the others are made from.
template <class dfr>
ntt_twiddles<dfr> cached_twiddles(context& c, cuda_be& be, unsigned log_n, unsigned key, const dfr& omega,
                                  dfr* tables, bool low_memory)
{
    const unsigned table_log = low_memory && log_n > low_memory_table_log ? low_memory_table_log : log_n;
    const size_t table = ntt_twiddle_count(table_log), powers = table_log < log_n ? ntt_power_count(log_n) : 0;
    auto& tw = c.twiddles[{log_n, key | (table_log < log_n ? 1u << 16 : 0u)}];
    if (!tw.p) {
        tw.bytes = (table + powers) * sizeof(dfr);
        tw.p = scratch_malloc(tw.bytes, "NTT twiddles");
        dfr* t = static_cast<dfr*>(tw.p);
        if (powers) {
            ntt_build_power_tables(be, t + table, log_n, omega);
            ntt_build_stage_tables(be, t, table_log, log_n, t + table);
        } else {
            ntt_build_twiddles(be, t, log_n, omega, tables);
        }
    }
    const dfr* t = static_cast<const dfr*>(tw.p);
    const unsigned h = ntt_power_split(log_n);
    return {t, table_log, powers ? t + table : nullptr, powers ? t + table + (size_t{1} << h) : nullptr, h};
}

template <class Fr, class dfr>
void ntt_on(Fr* data, unsigned log_n, unsigned field_tag, root_convention conv, const Fr& omega, bool inverse,
            bool coset, const Fr& shift, const Fr& scale, const Fr* in_mul, const Fr* out_sub, bool low_memory)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    cuda_be be{c};
    if (log_n == 0) {   // one element: shift^0 = 1 and 1/n = 1, so only the scale is left
        if (!scale.is_one() || in_mul || out_sub) {
            be.each(1, scale_elements<dfr>{reinterpret_cast<dfr*>(data), dfr::from_host(scale),
                                           reinterpret_cast<const dfr*>(in_mul),
                                           reinterpret_cast<const dfr*>(out_sub)});
            CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
        }
        return;
    }
    const size_t n = size_t{1} << log_n;
    // Small tables: 2^ceil(L/2) + 2^floor(L/2) elements at most, for twiddle
    // construction and for the coset powers.
    const size_t small = (size_t{2} << ((log_n + 1) / 2)) + 16;
    dfr* tables = be.buffer<dfr>(slot_ntt_tables, 2 * small);

    const ntt_twiddles<dfr> tw = cached_twiddles(c, be, log_n, unsigned(conv) | field_tag << 8, dfr::from_host(omega),
                                                 tables, low_memory);
    ntt_scaling_t<dfr> sc;
    const Fr n_inv = Fr::from_u64(n).inverse() * scale;   // the inverse's factor, with the caller's
    if (!inverse) {
        if (coset) {
            sc.in_shift = ntt_build_powers(be, tables, tables + small, log_n, dfr::from_host(shift),
                                           dfr::from_host(scale));
            sc.in_lo = tables;
            sc.in_hi = tables + small;
        } else if (!scale.is_one()) {
            sc.out_mode = 1;
            sc.out_c = dfr::from_host(scale);
        }
    } else if (!coset) {
        if (!n_inv.is_one()) {   // scale = n: no multiplication at all
            sc.out_mode = 1;
            sc.out_c = dfr::from_host(n_inv);
        }
    } else {
        sc.out_mode = 2;
        sc.out_shift = ntt_build_powers(be, tables, tables + small, log_n, dfr::from_host(shift.inverse()),
                                        dfr::from_host(n_inv));
        sc.out_lo = tables;
        sc.out_hi = tables + small;
    }
    sc.in_mul = reinterpret_cast<const dfr*>(in_mul);
    sc.out_sub = reinterpret_cast<const dfr*>(out_sub);
    dfr* scratch = log_n > ntt_block_log && !low_memory ? be.buffer<dfr>(slot_ntt_scratch, n) : nullptr;
    // Stages per shared-memory round trip: 2 (default; the fastest on the H200:
    // 2^27 forward 49.8 ms against 56.8 ms with 1 and 53.4 ms with 3) or
    // CUZK_NTT_RADIX = 1, 3 (a tuning knob for benchmarks; the result is the same).
    unsigned radix = 2;
    if (const char* e = std::getenv("CUZK_NTT_RADIX"); e && *e >= '1' && *e <= '3') radix = unsigned(*e - '0');
    ntt_run(be, reinterpret_cast<dfr*>(data), scratch, tw, log_n, inverse, sc, radix);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

} // namespace

void ntt(fr* data, unsigned log_n, root_convention conv, const fr& omega, bool inverse, bool coset, const fr& shift,
         const fr& scale, const fr* in_mul, const fr* out_sub, bool low_memory)
{
    ntt_on<fr, dfr>(data, log_n, 0, conv, omega, inverse, coset, shift, scale, in_mul, out_sub, low_memory);
}

void ntt(bn254::fr* data, unsigned log_n, root_convention conv, const bn254::fr& omega, bool inverse, bool coset,
         const bn254::fr& shift, const bn254::fr& scale, const bn254::fr* in_mul, const bn254::fr* out_sub,
         bool low_memory)
{
    ntt_on<bn254::fr, dbn_fr>(data, log_n, 1, conv, omega, inverse, coset, shift, scale, in_mul, out_sub, low_memory);
}

} // namespace cuzk::cuda_bridge
