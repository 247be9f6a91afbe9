// cuzk — the PoRep partition circuit's layout (layout.hpp).
#include "layout.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include "cuzk/filecoin/porep/circuit.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/util/parallel.hpp"
#include "circuit_parts.hpp"

namespace cuzk::filecoin::porep_parts {

void run_stages(unsigned threads, size_t n, unsigned layers, const std::vector<unsigned>& order,
                const std::function<void(size_t challenge, unsigned segment)>& run)
{
    parallel_tasks(threads, n, [&](size_t t, unsigned) { run(t, 1); });
    parallel_tasks(threads, n * order.size(), [&](size_t t, unsigned) { run(t % n, order[t / n]); });
    parallel_tasks(threads, n, [&](size_t t, unsigned) { run(t, layers + 2); });
}

std::vector<unsigned> stage2_order(unsigned layers, const std::vector<size_t>& seg_aux)
{
    std::vector<unsigned> order{0};
    for (unsigned s = 2; s <= layers + 1; ++s) order.push_back(s);
    if (!seg_aux.empty())
        std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return seg_aux[a] > seg_aux[b]; });
    return order;
}

namespace {

layout measure_variables(const seal_config& c, unsigned threads)
{
    seal_config one = c;
    one.challenges_per_partition = 1;
    const porep_circuit blank(one);
    r1cs::counting_cs gcs;
    const globals gl = synthesize_globals(gcs, fr::zero(), fr::zero(), fr::zero(), fr::zero(), fr::zero());
    layout L;
    L.global_aux = gcs.num_aux();
    L.global_inputs = gcs.num_inputs();
    const unsigned segments = segment_count(c);
    L.seg_aux.assign(segments, 0);
    L.seg_inputs.assign(segments, 0);
    challenge_state st;
    st.labels.resize(c.layers);
    run_stages(threads, 1, c.layers, stage2_order(c.layers, {}), [&](size_t, unsigned s) {
        r1cs::counting_cs cs;
        synthesize_segment(cs, c, blank.challenges()[0], gl, st, s);
        L.seg_aux[s] = cs.num_aux();
        L.seg_inputs[s] = cs.num_inputs() - 1;
    });
    for (unsigned s = 0; s < segments; ++s) {
        L.seg_aux_at.push_back(L.challenge_aux);
        L.seg_inputs_at.push_back(L.challenge_inputs);
        L.challenge_aux += L.seg_aux[s];
        L.challenge_inputs += L.seg_inputs[s];
    }
    return L;
}

// The constraints of the global part and of each segment of one challenge,
// each part recorded on its own system starting at the part's variables
// (layout_of), the segments concurrently in the witness's stages: a part's
// rows and entries from its recording, and the coefficients other than ±1
// from the parts' tables taken in the order of a sequential recording (the
// global part, then the segments in order), each new one once.
constraint_layout measure_constraints(const seal_config& c, unsigned threads)
{
    seal_config one = c;
    one.challenges_per_partition = 1;
    const porep_circuit blank(one);
    const std::shared_ptr<const layout> v = layout_of(c, threads);
    const unsigned segments = segment_count(c);
    std::vector<r1cs::pce> parts(segments + 1);   // the global part last
    r1cs::recording_cs gcs;
    const globals gl = synthesize_globals(gcs, fr::zero(), fr::zero(), fr::zero(), fr::zero(), fr::zero());
    parts[segments] = gcs.finish();
    challenge_state st;
    st.labels.resize(c.layers);
    run_stages(threads, 1, c.layers, stage2_order(c.layers, v->seg_aux), [&](size_t, unsigned s) {
        r1cs::recording_cs cs(v->global_inputs + v->seg_inputs_at[s], v->global_aux + v->seg_aux_at[s]);
        synthesize_segment(cs, c, blank.challenges()[0], gl, st, s);
        parts[s] = cs.finish();
    });
    auto nnz_of = [](const r1cs::pce& p) { return constraint_layout::counts{p.a.nnz(), p.b.nnz(), p.c.nnz()}; };
    constraint_layout L;
    L.global_rows = parts[segments].num_constraints;
    L.global_nnz = nnz_of(parts[segments]);
    for (unsigned s = 0; s < segments; ++s) {
        const constraint_layout::counts n = nnz_of(parts[s]);
        L.seg_rows_at.push_back(L.challenge_rows);
        L.seg_nnz_at.push_back(L.challenge_nnz);
        L.seg_rows.push_back(parts[s].num_constraints);
        L.seg_nnz.push_back(n);
        L.challenge_rows += parts[s].num_constraints;
        for (int m = 0; m < 3; ++m) L.challenge_nnz[m] += n[m];
    }
    std::set<std::array<uint64_t, 4>> seen;
    for (unsigned i = 0; i <= segments; ++i)
        for (const fr& k : parts[i == 0 ? segments : i - 1].coeffs)
            if (seen.insert({k.l[0], k.l[1], k.l[2], k.l[3]}).second) L.table.push_back(k);
    return L;
}

// One cache per layout kind, by the shape the circuit depends on.
template <class T, class Make>
std::shared_ptr<const T> cached(const seal_config& c, Make&& make)
{
    using key = std::tuple<uint64_t, unsigned, unsigned, unsigned, unsigned>;
    static std::mutex mu;
    static std::map<key, std::shared_ptr<const T>> cache;
    const key k{c.nodes, c.layers, c.tree.base, c.tree.sub, c.tree.top};
    {
        std::lock_guard lk(mu);
        if (auto it = cache.find(k); it != cache.end()) return it->second;
    }
    auto L = std::make_shared<const T>(make());
    std::lock_guard lk(mu);
    return cache.emplace(k, std::move(L)).first->second;
}

} // namespace

std::shared_ptr<const layout> layout_of(const seal_config& c, unsigned threads)
{
    return cached<layout>(c, [&] { return measure_variables(c, threads); });
}

std::shared_ptr<const constraint_layout> constraint_layout_of(const seal_config& c, unsigned threads)
{
    return cached<constraint_layout>(c, [&] { return measure_constraints(c, threads); });
}

} // namespace cuzk::filecoin::porep_parts
