// Constraint-system benchmarks on the SHA-256 preimage circuit (bits-heavy
// like Filecoin's PoRep): witness generation with witness_cs, a = A·w,
// b = B·w, c = C·w with the PCE, the rows' shape order and the matrices
// rewritten in it (the host part of a grouped gpu_pce upload), and the
// one-time recording.
//
// Arguments: blocks (2 → ~2^15.7 constraints, 9 → ~2^17.9), threads (0 = all).
// Witness generation of one circuit is sequential; with T threads the bench
// synthesizes T circuits at once (one per thread, like partitions) and counts
// all their constraints. PCE evaluation splits the rows of one circuit.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_order.hpp"
#include "cuzk/util/parallel.hpp"

using namespace cuzk;
using namespace cuzk::r1cs;
using namespace cuzk::r1cs::gadgets;

namespace {

struct fixture {
    sha256_preimage_circuit circ;
    pce p;
    std::vector<fr> inputs, aux;
};

const fixture& get(size_t blocks)
{
    static std::map<size_t, std::unique_ptr<fixture>> cache;
    auto& f = cache[blocks];
    if (!f) {
        auto circ = sha256_preimage_circuit::blank(blocks);
        // A non-trivial message: byte i = i·37 + 11.
        std::vector<uint8_t> m(circ.message().size());
        for (size_t i = 0; i < m.size(); ++i) m[i] = uint8_t(i * 37 + 11);
        sha256_preimage_circuit c(m);
        pce p = record(c);
        witness_cs w;
        c.synthesize(w);
        f = std::make_unique<fixture>(fixture{std::move(c), std::move(p), w.take_inputs(), w.take_aux()});
    }
    return *f;
}

void bm_witness(benchmark::State& st)
{
    const fixture& f = get(size_t(st.range(0)));
    const unsigned threads = resolve_threads(unsigned(st.range(1)));
    for (auto _ : st) {
        parallel_for(threads, threads, [&](size_t, size_t, unsigned) {
            witness_cs w;
            w.reserve(f.p.num_inputs, f.p.num_aux);
            f.circ.synthesize(w);
            benchmark::DoNotOptimize(w.aux().data());
        });
    }
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(f.p.num_constraints) * threads);
    st.counters["constraints"] = double(f.p.num_constraints);
    st.counters["circuits"] = threads;
}

void bm_pce_evaluate(benchmark::State& st)
{
    const fixture& f = get(size_t(st.range(0)));
    const unsigned threads = unsigned(st.range(1));
    const size_t m = f.p.num_constraints;
    std::vector<fr> a(m), b(m), c(m);
    for (auto _ : st) {
        evaluate(f.p, f.inputs, f.aux, a, b, c, threads);
        benchmark::DoNotOptimize(a.data());
    }
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(m));
    st.counters["constraints"] = double(m);
    st.counters["nnz"] = double(f.p.nnz());
    st.counters["threads"] = resolve_threads(threads);
}

void bm_check(benchmark::State& st)
{
    const fixture& f = get(size_t(st.range(0)));
    const unsigned threads = unsigned(st.range(1));
    for (auto _ : st) benchmark::DoNotOptimize(first_unsatisfied(f.p, f.inputs, f.aux, threads));
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(f.p.num_constraints));
}

void bm_record(benchmark::State& st)
{
    const auto circ = sha256_preimage_circuit::blank(size_t(st.range(0)));
    size_t m = 0;
    for (auto _ : st) {
        const pce p = record(circ);
        m = p.num_constraints;
        benchmark::DoNotOptimize(p.a.col.data());
    }
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(m));
}

// The host work of a grouped PCE upload (gpu_pce with group_tile_log 32):
// the shape order, then each matrix's offsets and entries in that order.
void bm_pce_group(benchmark::State& st)
{
    const fixture& f = get(size_t(st.range(0)));
    const unsigned threads = unsigned(st.range(1));
    const csr_matrix* mats[3] = {&f.p.a, &f.p.b, &f.p.c};
    for (auto _ : st) {
        const std::vector<uint32_t> order = pce_shape_order(f.p, 32, threads);
        for (const csr_matrix* m : mats) {
            const std::vector<uint64_t> off = reordered_offsets(*m, order, threads);
            std::vector<uint32_t> col(m->nnz()), code(m->nnz());
            reordered_entries(*m, order, off, 0, order.size(), col, code, threads);
            benchmark::DoNotOptimize(col.data());
        }
    }
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(f.p.num_constraints));
    st.counters["constraints"] = double(f.p.num_constraints);
    st.counters["threads"] = resolve_threads(threads);
}

void size_args(benchmark::internal::Benchmark* b)
{
    b->ArgNames({"blocks", "threads"});
    for (int64_t blocks : {2, 9})
        for (int64_t t : {1, 0}) b->Args({blocks, t});
    b->UseRealTime()->Unit(benchmark::kMillisecond);
}

} // namespace

BENCHMARK(bm_witness)->Apply(size_args);
BENCHMARK(bm_pce_evaluate)->Apply(size_args);
BENCHMARK(bm_check)->Apply(size_args);
BENCHMARK(bm_pce_group)->Apply(size_args);
BENCHMARK(bm_record)->Arg(2)->ArgNames({"blocks"})->Unit(benchmark::kMillisecond);
