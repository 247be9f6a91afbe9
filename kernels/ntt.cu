// cuzk kernels — the NTT entry point of the bridge: twiddle tables cached per
// (size, convention), coset power tables per call, then ntt_run
// (kernels/ntt_device.cuh) on the context's stream.
#include <cstdlib>

#include "backend/bridge/cuda_bridge.hpp"
#include "cuda_backend.cuh"

namespace cuzk::cuda_bridge {

using namespace cuzk::dev;

namespace {
template <class dfr>
struct scale_elements {
    dfr* d;
    dfr f;
    CUZK_HD void operator()(size_t i) const { d[i] = d[i] * f; }
};

// Small tables: 2^ceil(L/2) + 2^floor(L/2) elements at most, for twiddle
// construction and for the coset powers.
inline size_t small_table(unsigned log_n) { return (size_t{2} << ((log_n + 1) / 2)) + 16; }

// The stage twiddle tables of (log_n, conv) for the field field_tag (0:
// BLS12-381's Fr, 1: BN254's), built on first use and cached in the context.
template <class dfr>
const dfr* stage_twiddles(context& c, cuda_be& be, unsigned log_n, unsigned field_tag, root_convention conv,
                          const dfr& omega, dfr* tables)
{
    auto& tw = c.twiddles[{log_n, unsigned(conv) | field_tag << 8}];
    if (!tw.p) {
        tw.bytes = ntt_twiddle_count(log_n) * sizeof(dfr);
        CUZK_CUDA_CHECK(cudaMalloc(&tw.p, tw.bytes));
        ntt_build_twiddles(be, static_cast<dfr*>(tw.p), log_n, omega, tables);
    }
    return static_cast<const dfr*>(tw.p);
}

// Stages per shared-memory round trip: 2 (default; the fastest on the H200:
// 2^27 forward 49.8 ms against 56.8 ms with 1 and 53.4 ms with 3) or
// CUZK_NTT_RADIX = 1, 3 (a tuning knob for benchmarks; the result is the same).
unsigned ntt_radix()
{
    if (const char* e = std::getenv("CUZK_NTT_RADIX"); e && *e >= '1' && *e <= '3') return unsigned(*e - '0');
    return 2;
}

// One element: the powers and 1/n are all 1, so only the scale is left.
template <class Fr, class dfr>
void scale_one(context& c, cuda_be& be, Fr* data, const Fr& scale)
{
    if (scale.is_one()) return;
    be.each(1, scale_elements<dfr>{reinterpret_cast<dfr*>(data), dfr::from_host(scale)});
    CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

// The transform over the host field Fr (device field dfr); field_tag tells
// the two curves' twiddle tables apart in the context's cache.
template <class Fr, class dfr>
void ntt_on(Fr* data, unsigned log_n, unsigned field_tag, root_convention conv, const Fr& omega, bool inverse,
            bool coset, const Fr& shift, const Fr& scale)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    cuda_be be{c};
    if (log_n == 0) return scale_one<Fr, dfr>(c, be, data, scale);
    const size_t n = size_t{1} << log_n;
    const size_t small = small_table(log_n);
    dfr* tables = be.buffer<dfr>(slot_ntt_tables, 2 * small);
    const dfr* tw = stage_twiddles(c, be, log_n, field_tag, conv, dfr::from_host(omega), tables);
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
    dfr* scratch = log_n > ntt_block_log ? be.buffer<dfr>(slot_ntt_scratch, n) : nullptr;
    ntt_run(be, reinterpret_cast<dfr*>(data), scratch, tw, log_n, inverse, sc, ntt_radix());
    CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

// Values on ⟨ω⟩ to values on shift·⟨ω⟩, times scale (ntt_run_to_coset; the
// 1/n and the scale join the powers of shift).
template <class Fr, class dfr>
void to_coset_on(Fr* data, unsigned log_n, unsigned field_tag, root_convention conv, const Fr& omega,
                 const Fr& shift, const Fr& scale)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    cuda_be be{c};
    if (log_n == 0) return scale_one<Fr, dfr>(c, be, data, scale);
    const size_t small = small_table(log_n);
    dfr* tables = be.buffer<dfr>(slot_ntt_tables, 2 * small);
    const dfr* tw = stage_twiddles(c, be, log_n, field_tag, conv, dfr::from_host(omega), tables);
    const Fr f = Fr::from_u64(uint64_t{1} << log_n).inverse() * scale;
    const unsigned h =
        ntt_build_powers(be, tables, tables + small, log_n, dfr::from_host(shift), dfr::from_host(f));
    ntt_run_to_coset(be, reinterpret_cast<dfr*>(data), tw, log_n, tables, tables + small, h, ntt_radix());
    CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

} // namespace

void ntt(fr* data, unsigned log_n, root_convention conv, const fr& omega, bool inverse, bool coset, const fr& shift,
         const fr& scale)
{
    ntt_on<fr, dfr>(data, log_n, 0, conv, omega, inverse, coset, shift, scale);
}

void ntt(bn254::fr* data, unsigned log_n, root_convention conv, const bn254::fr& omega, bool inverse, bool coset,
         const bn254::fr& shift, const bn254::fr& scale)
{
    ntt_on<bn254::fr, dbn_fr>(data, log_n, 1, conv, omega, inverse, coset, shift, scale);
}

void ntt_to_coset(fr* data, unsigned log_n, root_convention conv, const fr& omega, const fr& shift, const fr& scale)
{
    to_coset_on<fr, dfr>(data, log_n, 0, conv, omega, shift, scale);
}

void ntt_to_coset(bn254::fr* data, unsigned log_n, root_convention conv, const bn254::fr& omega,
                  const bn254::fr& shift, const bn254::fr& scale)
{
    to_coset_on<bn254::fr, dbn_fr>(data, log_n, 1, conv, omega, shift, scale);
}

} // namespace cuzk::cuda_bridge
