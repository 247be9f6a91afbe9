// cuzk — the FallbackPoSt circuit's witness and R1CS in parallel
// (post_circuit::witness, witness_packed, record_post_pce).
//
// Every circuit sector allocates the same number of aux variables and
// inputs and adds the same constraints with the same number of entries
// (its shape does not depend on values), and sectors share nothing. One
// blank sector recorded on its own gives that shape once per config (and
// the coefficient table, in the order a sequential recording meets it: the
// first sector holds every coefficient the others use); then every sector
// is synthesized on its own slice system, concurrently, straight into its
// place: slice_witness_cs for the witness, the packed sink's slices for the
// engine, slice_recording_cs for the R1CS. The sectors that fill a short
// partition (repeats of its last) get the last sector's values, copied.
#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/post/circuit.hpp"
#include "cuzk/r1cs/slice_recording_cs.hpp"
#include "cuzk/r1cs/slice_witness_cs.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::filecoin {

namespace {

// One circuit sector's R1CS, recorded alone (ONE, its inputs, its aux): its
// counts are every sector's share, and its table holds every coefficient.
struct sector_layout {
    r1cs::pce part;
    size_t aux() const { return part.num_aux; }
    size_t inputs() const { return part.num_inputs - 1; }
    uint64_t rows() const { return part.num_constraints; }
    uint64_t nnz(int m) const { return (m == 0 ? part.a : m == 1 ? part.b : part.c).nnz(); }
};

sector_layout measure(const post_config& c)
{
    // A circuit of one sector of c's shape (WinningPoSt's sectors are
    // WindowPoSt-shaped sectors of one challenge).
    post_config one = c;
    one.type = post_type::window;
    one.sector_count = 1;
    one.challenge_count = c.circuit_challenges();
    r1cs::recording_cs cs(1, 0);
    post_synthesize_sector(cs, post_circuit::tree_shape_of(c), post_circuit(one).sectors()[0]);
    return {cs.finish()};
}

// Cached per shape (what one sector depends on).
std::shared_ptr<const sector_layout> layout_of(const post_config& c)
{
    using key = std::tuple<uint64_t, unsigned, unsigned, unsigned, unsigned>;
    static std::mutex mu;
    static std::map<key, std::shared_ptr<const sector_layout>> cache;
    const key k{c.nodes, c.tree.base, c.tree.sub, c.tree.top, c.circuit_challenges()};
    {
        std::lock_guard lk(mu);
        if (auto it = cache.find(k); it != cache.end()) return it->second;
    }
    auto L = std::make_shared<const sector_layout>(measure(c));
    std::lock_guard lk(mu);
    return cache.emplace(k, std::move(L)).first->second;
}

void expect_full(bool full, size_t sector, const char* what)
{
    if (!full)
        throw error(errc::internal, fmt::format("post circuit: sector {} {} less than one sector's layout", sector, what));
}

std::vector<fr> sized_inputs(size_t sectors, const sector_layout& L)
{
    std::vector<fr> inputs(1 + sectors * L.inputs(), fr::zero());
    inputs[0] = fr::one();
    return inputs;
}

} // namespace

bool post_circuit::witness(std::vector<fr>& inputs, std::vector<fr>& aux, unsigned threads) const
{
    const std::shared_ptr<const sector_layout> L = layout_of(config_);
    const r1cs::gadgets::tree_shape shape = tree_shape_of(config_);
    const size_t n = sectors_.size(), d = distinct_, na = L->aux(), ni = L->inputs();
    inputs = sized_inputs(n, *L);
    r1cs::size_for_slices(aux, n * na);
    parallel_tasks(threads, d, [&](size_t i, unsigned) {
        r1cs::slice_witness_cs cs(std::span<fr>(aux).subspan(i * na, na), i * na,
                                  std::span<fr>(inputs).subspan(1 + i * ni, ni), 1 + i * ni);
        post_synthesize_sector(cs, shape, sectors_[i]);
        expect_full(cs.full(), i, "wrote");
    });
    // The repeats of sector d − 1: its values (they do not depend on where
    // the variables are).
    parallel_tasks(threads, n - d, [&](size_t k, unsigned) {
        const size_t i = d + k;
        std::copy_n(aux.begin() + (d - 1) * na, na, aux.begin() + i * na);
        std::copy_n(inputs.begin() + 1 + (d - 1) * ni, ni, inputs.begin() + 1 + i * ni);
    });
    return true;
}

bool post_circuit::witness_packed(std::vector<fr>& inputs, r1cs::packed_aux_sink& aux, unsigned threads) const
{
    const std::shared_ptr<const sector_layout> L = layout_of(config_);
    const r1cs::gadgets::tree_shape shape = tree_shape_of(config_);
    const size_t n = sectors_.size(), d = distinct_, na = L->aux(), ni = L->inputs();
    inputs = sized_inputs(n, *L);
    aux.begin(n * na);
    // Sector d − 1 and its repeats: synthesized once into plain values, then
    // handed to each of their slices.
    const bool repeats = d > 0 && d < n;
    std::vector<fr> last_aux, last_inputs;
    if (repeats) {
        last_aux.resize(na);
        last_inputs.resize(ni);
        r1cs::slice_witness_cs cs(last_aux, (d - 1) * na, last_inputs, 1 + (d - 1) * ni);
        post_synthesize_sector(cs, shape, sectors_[d - 1]);
        expect_full(cs.full(), d - 1, "wrote");
    }
    const size_t synthesized = repeats ? d - 1 : d;
    parallel_tasks(threads, n, [&](size_t i, unsigned) {
        const std::unique_ptr<r1cs::packed_slice> s =
            aux.open(i * na, na, std::span<fr>(inputs).subspan(1 + i * ni, ni), 1 + i * ni);
        if (i < synthesized) {
            post_synthesize_sector(s->cs(), shape, sectors_[i]);
        } else {
            for (const fr& v : last_aux) s->cs().alloc(v);
            for (const fr& v : last_inputs) s->cs().alloc_input(v);
        }
        expect_full(s->full(), i, "wrote");
        s->close();
    });
    aux.finish(threads);
    return true;
}

std::shared_ptr<const r1cs::pce> record_post_pce(const post_config& config, unsigned threads)
{
    const std::shared_ptr<const sector_layout> L = layout_of(config);
    const size_t n = config.circuit_sectors();
    const uint64_t inputs = 1 + n * L->inputs(), aux = n * L->aux();
    if (inputs + aux > (uint64_t(1) << 32))
        throw error(errc::unsupported, fmt::format("record_post_pce: {} variables exceed 2^32", inputs + aux));
    std::array<uint64_t, 3> nnz{};
    for (int m = 0; m < 3; ++m) nnz[m] = n * L->nnz(m);
    r1cs::pce_parts parts(uint32_t(inputs), uint32_t(aux), n * L->rows(), nnz,
                          {L->part.coeffs.begin(), L->part.coeffs.end()});
    // Every sector's rows are the first sector's with its variables moved.
    parallel_tasks(threads, n, [&](size_t i, unsigned) {
        r1cs::pce_slice at;
        at.aux_begin = i * L->aux();
        at.aux_count = L->aux();
        at.input_begin = 1 + i * L->inputs();
        at.input_count = L->inputs();
        at.row_begin = i * L->rows();
        at.row_count = L->rows();
        for (int m = 0; m < 3; ++m) {
            at.nnz_begin[m] = i * L->nnz(m);
            at.nnz_count[m] = L->nnz(m);
        }
        parts.place(L->part, at);
    });
    return std::make_shared<const r1cs::pce>(parts.finish(threads));
}

} // namespace cuzk::filecoin
