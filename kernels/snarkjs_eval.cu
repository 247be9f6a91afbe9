// cuzk kernels — the evaluation of a snarkjs coefficient list on the device
// (lib/backend/bridge/snarkjs_bridge.hpp): out[r] = Σ value·w[signal] over
// the CSR row r, over BN254's Fr in Montgomery form.
//
// Method: one thread per row (the rows of A, then those of B, in one launch);
// per entry a 4-byte signal and a 32-byte value, read nearly contiguously by
// a warp (consecutive rows have consecutive entries), the witness value (a
// 32-byte gather) and one Montgomery multiplication. Field addition is exact
// and canonical, so any order of the terms gives snarkjs_evaluate_ab's
// values bit for bit. circom rows are short (a few entries); a long row costs
// its thread its whole length while the warp waits.
#include <cuda_runtime.h>

#include "backend/bridge/snarkjs_bridge.hpp"
#include "cuda_backend.cuh"

namespace cuzk::dev {

namespace {

struct snarkjs_rows {
    const uint32_t* __restrict__ row_ptr;
    const uint32_t* __restrict__ signal;
    const dbn_fr* __restrict__ value;
    const dbn_fr* __restrict__ w;
    dbn_fr* __restrict__ out;

    CUZK_HD void operator()(size_t r) const
    {
        const uint32_t e = row_ptr[r + 1];
        dbn_fr acc = dbn_fr::zero();
        for (uint32_t j = row_ptr[r]; j < e; ++j) acc += value[j] * w[signal[j]];
        out[r] = acc;
    }
};

} // namespace

} // namespace cuzk::dev

namespace cuzk::snarkjs_bridge {

using namespace cuzk::dev;

void eval_rows(const csr_device& m, uint64_t rows, const bn254::fr* w, bn254::fr* out)
{
    if (rows == 0) return;
    if ((rows + 255) / 256 > 0x7fffffffull)
        throw error(errc::invalid_argument, "snarkjs eval_rows: too many rows for one launch");
    context& cx = ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    cuda_be{cx}.each(size_t(rows),
                     snarkjs_rows{m.row_ptr, m.signal, reinterpret_cast<const dbn_fr*>(m.value),
                                  reinterpret_cast<const dbn_fr*>(w), reinterpret_cast<dbn_fr*>(out)},
                     256);
}

} // namespace cuzk::snarkjs_bridge
