// cuzk — the synthetic PoRep-shaped circuit (filecoin/porep/synthetic_circuit.hpp).
#include "cuzk/filecoin/porep/synthetic_circuit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>

#include "cuzk/error.hpp"
#include "cuzk/util/parallel.hpp"
#include "cuzk/util/random.hpp"

namespace cuzk::r1cs {

namespace {

using splitmix = splitmix64;   // util/random.hpp

uint64_t mix_seed(uint64_t seed, uint64_t stream)
{
    splitmix m{seed ^ (stream * 0xd1342543de82ef95ull)};
    m();
    return m();
}

enum kind : int { k_and = 0, k_xor = 1, k_lin = 2, k_bool = 3, k_count = 4 };

// Coefficient codes: table[0] = μ, table[j] = 2^j (j = 1 … 62).
constexpr uint32_t code_mu = coef_table_base;
constexpr uint32_t code_pow2(unsigned j) { return j == 0 ? coef_plus_one : coef_table_base + j; }
constexpr unsigned max_k = 64;

struct entry {
    uint32_t col;
    uint32_t code;
};

struct plan {
    uint32_t ni = 0;
    uint64_t m = 0;            // constraints
    uint64_t chunks = 0;
    double p[k_count] = {};
    double k = 0;              // A entries per LIN row
    double exempt_rate = 0;    // per new bit: not used in A
    double mark_rate = 0;      // per new bit (not BOOL): marked for B
    uint64_t seed = 0;
    fr mu;
    const fr* mu_table = nullptr;   // the coefficient table (μ, 2, 4, …)
    std::vector<fr> inputs;
    const fr& mu_pow2(unsigned j) const { return mu_table[j]; }
    uint64_t rows_of(uint64_t c) const { return std::min<uint64_t>(synthetic_chunk_rows, m - c * synthetic_chunk_rows); }
    // Aux per chunk: the seeds, one per row, one fresh bit per refresh period.
    static uint64_t aux_of_rows(uint64_t rows)
    {
        return synthetic_chunk_seeds + rows + (rows + synthetic_refresh_rows - 1) / synthetic_refresh_rows;
    }
    uint64_t aux_base(uint64_t c) const { return c * aux_of_rows(synthetic_chunk_rows); }
    uint64_t num_aux() const { return aux_base(chunks - 1) + aux_of_rows(rows_of(chunks - 1)); }
};

// A FIFO + recent-ring operand source for one chunk.
struct pool {
    std::vector<uint32_t> queue;   // local ids not yet used, oldest first
    size_t head = 0;
    uint32_t ring[64];
    uint32_t ring_n = 0, ring_pos = 0;

    void add(uint32_t id, bool need)
    {
        if (need) queue.push_back(id);
        ring[ring_pos] = id;
        ring_pos = (ring_pos + 1) & 63;
        if (ring_n < 64) ++ring_n;
    }
    bool empty() const { return ring_n == 0; }
    // The oldest unused id, else a random recent one; `avoid` (if not ~0u)
    // is never returned while another choice exists (returns ~0u if none).
    uint32_t pick(splitmix& rng, uint32_t avoid = ~0u)
    {
        if (head < queue.size() && queue[head] != avoid) return queue[head++];
        for (int t = 0; t < 8 && ring_n; ++t) {
            const uint32_t id = ring[rng.below(ring_n)];
            if (id != avoid) return id;
        }
        return ~0u;
    }
    void reset()
    {
        queue.clear();
        head = 0;
        ring_n = ring_pos = 0;
    }
};

// Sink of pass 1: counts entries per matrix.
struct count_sink {
    static constexpr bool values = false;
    uint64_t nnz[3] = {0, 0, 0};
    void row(std::span<const entry> a, std::span<const entry> b, std::span<const entry> c)
    {
        nnz[0] += a.size();
        nnz[1] += b.size();
        nnz[2] += c.size();
    }
    void value(uint64_t, const fr&) {}
};

// Sink of pass 2: writes rows at their offsets and the witness.
struct write_sink {
    static constexpr bool values = true;
    uint64_t row_idx;          // global row of the next row
    uint64_t pos[3];           // next entry per matrix
    uint64_t* row_ptr[3];
    uint32_t* col[3];
    uint32_t* code[3];
    fr* aux;
    void row(std::span<const entry> a, std::span<const entry> b, std::span<const entry> c)
    {
        const std::span<const entry> r[3] = {a, b, c};
        for (int i = 0; i < 3; ++i) {
            for (const entry& e : r[i]) {
                col[i][pos[i]] = e.col;
                code[i][pos[i]] = e.code;
                ++pos[i];
            }
            row_ptr[i][row_idx + 1] = pos[i];
        }
        ++row_idx;
    }
    void value(uint64_t aux_index, const fr& v) { aux[aux_index] = v; }
};

void sort_row(entry* e, size_t n)
{
    for (size_t i = 1; i < n; ++i) {
        const entry x = e[i];
        size_t j = i;
        while (j > 0 && x.col < e[j - 1].col) {
            e[j] = e[j - 1];
            --j;
        }
        e[j] = x;
    }
}

// Generates chunk c into the sink. Local ids: 0 … seeds−1 the seeds, then one
// per row; the unified column of local id t is ni + aux_base(c) + t. The
// generator's state lives across the rows of the chunk; run() makes them.
template <class Sink>
struct chunk_generator {
    const plan& pl;
    const uint64_t c;
    Sink& sink;
    splitmix rng;
    const uint64_t rows, base;
    const uint32_t col0;
    std::vector<uint8_t> bit;
    pool pa, pb;
    std::vector<std::pair<uint32_t, fr>> gen;   // general values not yet used (local id, value)
    size_t gen_head = 0;
    std::pair<uint32_t, fr> last_gen;
    uint32_t next = 0;
    double deficit[k_count] = {0, 0, 0, 0};
    double k_acc = 0, exempt_acc = 0, mark_acc = 0;
    entry ra[max_k + 4], rb[4], rc[4];
    uint64_t r = 0;

    chunk_generator(const plan& pl_, uint64_t c_, Sink& sink_)
        : pl(pl_), c(c_), sink(sink_), rng{mix_seed(pl.seed, c + 1)}, rows(pl.rows_of(c)), base(pl.aux_base(c)),
          col0(uint32_t(pl.ni + base)), bit(plan::aux_of_rows(rows))
    {
        pa.queue.reserve(rows / 2 + 64);
        pb.queue.reserve(rows / 2 + 64);
        seeds();
        // The accumulators start at random phases (drawn after the seeds).
        exempt_acc = rng.unit();
        mark_acc = rng.unit();
    }

    void put_bit(uint32_t id)
    {
        if constexpr (Sink::values) sink.value(base + id, bit[id] ? fr::one() : fr::zero());
    }
    void put_general(uint32_t id, const fr& v)
    {
        last_gen = {id, v};
        gen.push_back(last_gen);
        if constexpr (Sink::values) sink.value(base + id, v);
    }

    // Seeds: 16 bits (used in A and B), one general value.
    void seeds()
    {
        for (; next + 1 < synthetic_chunk_seeds; ++next) {
            bit[next] = uint8_t(rng() & 1);
            pa.add(next, true);
            pb.add(next, true);
            put_bit(next);
        }
        const fr g = fr::random(rng);
        put_general(next, g);
        ++next;
    }

    // A new bit (output of AND/XOR/BOOL): exemption and marking by running
    // accumulators (exact rates, no drift).
    void new_bit(uint32_t id, bool in_b_already)
    {
        if (in_b_already) {   // BOOL's x: in A and B by its own row
            pa.add(id, false);
            pb.add(id, false);
            return;
        }
        exempt_acc += pl.exempt_rate;
        const bool exempt = exempt_acc >= 1;
        if (exempt) exempt_acc -= 1;
        if (!exempt) pa.add(id, true);
        mark_acc += pl.mark_rate;
        if (mark_acc >= 1) {
            mark_acc -= 1;
            pb.add(id, true);
        }
    }
    std::pair<uint32_t, fr> take_gen()
    {
        if (gen_head < gen.size()) return gen[gen_head++];
        return last_gen;
    }

    // A fresh random bit every synthetic_refresh_rows rows: without it a
    // chunk's bits can fall into the all-zero state, which AND and XOR
    // never leave.
    void refresh()
    {
        if (r % synthetic_refresh_rows != 0) return;
        const uint32_t id = next++;
        bit[id] = uint8_t(rng() & 1);
        pa.add(id, true);
        put_bit(id);
    }

    // Chunk 0 starts with the COPY rows of the public inputs.
    void copy_rows()
    {
        for (uint32_t i = 1; i < pl.ni && r < rows; ++i, ++r) {
            refresh();
            const uint32_t id = next++;
            ra[0] = {i, coef_plus_one};
            rb[0] = {0, coef_plus_one};
            rc[0] = {col0 + id, coef_plus_one};
            sink.row({ra, 1}, {rb, 1}, {rc, 1});
            put_general(id, pl.inputs[i]);
        }
    }

    // Kind: the largest deficit after adding the shares (with jitter).
    int next_kind()
    {
        int kd = 0;
        double best = -1e300;
        for (int t = 0; t < k_count; ++t) {
            if (pl.p[t] <= 0) continue;
            deficit[t] += pl.p[t];
            const double score = deficit[t] + 0.25 * rng.unit();
            if (score > best) {
                best = score;
                kd = t;
            }
        }
        deficit[kd] -= 1;
        return kd;
    }

    // BOOL: x·(1 − x) = 0 for a fresh random bit x.
    void bool_row(uint32_t id)
    {
        const uint32_t out = col0 + id;
        const uint8_t x = uint8_t(rng() & 1);
        bit[id] = x;
        ra[0] = {out, coef_plus_one};
        rb[0] = {0, coef_plus_one};
        rb[1] = {out, coef_minus_one};
        sink.row({ra, 1}, {rb, 2}, {});
        put_bit(id);
        new_bit(id, true);
    }

    // A pool bit for a LIN row's power-of-two term, in a column the row's
    // bits do not use yet (entries from n0 on); ~0u when none is found.
    uint32_t distinct_bit(size_t n0, size_t n)
    {
        for (int t = 0; t < 8; ++t) {
            const uint32_t cand = pa.pick(rng);
            if (cand == ~0u) break;
            bool dup = false;
            for (size_t q = n0; q < n; ++q) dup |= ra[q].col == col0 + cand;
            if (!dup) return cand;
        }
        return ~0u;
    }

    // LIN: y = μ·(general values) + Σ 2^j·bits, about pl.k entries in A.
    void lin_row(uint32_t id)
    {
        k_acc += pl.k;
        unsigned k = unsigned(k_acc);
        k_acc -= k;
        k = std::clamp(k, 2u, max_k);
        // One general value, or up to four while a backlog is waiting
        // (the COPY rows of chunk 0), each in place of a bit.
        size_t n = 0;
        fr y = fr::zero();
        const size_t ng = std::min<size_t>({4, k - 1, std::max<size_t>(1, gen.size() - gen_head)});
        for (size_t q = 0; q < ng; ++q) {
            const auto g = take_gen();
            ra[n++] = {col0 + g.first, code_mu};
            if constexpr (Sink::values) y += pl.mu * g.second;
        }
        for (unsigned j = unsigned(ng) - 1; j + 1 < k; ++j) {
            const uint32_t x = distinct_bit(ng, n);
            if (x == ~0u) continue;
            ra[n++] = {col0 + x, code_pow2(j)};
            if constexpr (Sink::values)
                if (bit[x]) y += j == 0 ? fr::one() : pl.mu_pow2(j);
        }
        sort_row(ra, n);
        rb[0] = {0, coef_plus_one};
        rc[0] = {col0 + id, coef_plus_one};
        sink.row({ra, n}, {rb, 1}, {rc, 1});
        put_general(id, y);
    }

    // AND (a·b = out) or XOR (2a·b = a + b − out) of two pool bits.
    void logic_row(int kd, uint32_t id)
    {
        const uint32_t out = col0 + id;
        uint32_t a = pa.pick(rng);
        uint32_t b = pb.pick(rng, a);
        if (b == ~0u) b = a;
        const bool xr = kd == k_xor && a != b;
        const uint8_t v = xr ? uint8_t(bit[a] ^ bit[b]) : uint8_t(bit[a] & bit[b]);
        bit[id] = v;
        rb[0] = {col0 + b, coef_plus_one};
        if (xr) {
            ra[0] = {col0 + a, code_pow2(1)};
            rc[0] = {col0 + a, coef_plus_one};
            rc[1] = {col0 + b, coef_plus_one};
            rc[2] = {out, coef_minus_one};
            sort_row(rc, 3);
            sink.row({ra, 1}, {rb, 1}, {rc, 3});
        } else {
            ra[0] = {col0 + a, coef_plus_one};
            rc[0] = {out, coef_plus_one};
            sink.row({ra, 1}, {rb, 1}, {rc, 1});
        }
        put_bit(id);
        new_bit(id, false);
    }

    void run()
    {
        if (c == 0) copy_rows();
        for (; r < rows; ++r) {
            refresh();
            const int kd = next_kind();
            const uint32_t id = next++;
            if (kd == k_bool) bool_row(id);
            else if (kd == k_lin) lin_row(id);
            else logic_row(kd, id);
        }
        if (next != plan::aux_of_rows(rows))
            throw error(errc::internal, fmt::format("synthetic_porep: chunk {} allocated {} aux, its layout has {}", c,
                                                    next, plan::aux_of_rows(rows)));
    }
};

template <class Sink>
void generate_chunk(const plan& pl, uint64_t c, Sink& sink)
{
    chunk_generator<Sink>(pl, c, sink).run();
}

struct synth_storage {
    std::vector<uint64_t> row_ptr[3];
    std::vector<uint32_t> col[3];
    std::vector<uint32_t> code[3];
    std::vector<fr> table;
    std::vector<uint64_t> dens[3];
};

} // namespace

namespace {

[[noreturn]] void bad_params(const std::string& msg)
{
    throw error(errc::invalid_argument, "synthetic_porep: " + msg);
}

// The checks on the parameters that do not need the plan.
void check_params(const synthetic_params& prm)
{
    if (prm.log2_domain < 6 || prm.log2_domain > 31)
        bad_params(fmt::format("log2_domain = {} is outside 6 … 31", prm.log2_domain));
    if (prm.num_inputs < 1) bad_params("num_inputs must count ONE (>= 1)");
    const uint64_t n = uint64_t{1} << prm.log2_domain;
    if (uint64_t(prm.num_inputs) + prm.margin + 64 > n)
        bad_params(fmt::format("num_inputs + margin = {} leaves too few rows in a 2^{} domain",
                               uint64_t(prm.num_inputs) + prm.margin, prm.log2_domain));
    if (!(prm.frac01 > 0 && prm.frac01 < 1)) bad_params(fmt::format("frac01 = {} is outside (0, 1)", prm.frac01));
    if (!(prm.nnz_a > 0 && prm.nnz_b > 0 && prm.nnz_c > 0)) bad_params("nnz targets must be positive");
    if (!(prm.a_aux_density >= 0 && prm.a_aux_density <= 1))
        bad_params(fmt::format("a_aux_density = {} is outside [0, 1]", prm.a_aux_density));
    if (!(prm.b_aux_density >= 0 && prm.b_aux_density <= 1))
        bad_params(fmt::format("b_aux_density = {} is outside [0, 1]", prm.b_aux_density));
}

// The shares of the row kinds and the A entries per LIN row, from the
// targets: BOOL rows give B its second entry, XOR rows C's extra ones.
void plan_kinds(const synthetic_params& prm, plan& pl)
{
    // LIN rows make the non-0/1 values, less those that the public inputs,
    // their COPY rows and the chunks' general seeds already are.
    const double extra_general = 2.0 * (prm.num_inputs - 1) + double(pl.chunks);
    const double total_vars = double(pl.num_aux() + prm.num_inputs);
    const double p_lin = std::max(0.25 * (1 - prm.frac01),
                                  ((1 - prm.frac01) * total_vars - extra_general) / double(pl.m));
    const double p_bool = prm.nnz_b - 1;
    const double p_xor = (prm.nnz_c - 1 + p_bool) / 2;
    const double p_and = 1 - p_lin - p_bool - p_xor;
    if (p_bool < -1e-12 || p_bool > 1 - p_lin)
        bad_params(fmt::format("nnz_b = {} is outside [1, 1 + frac01]", prm.nnz_b));
    if (p_xor < -1e-12 || p_and < -1e-12)
        bad_params(fmt::format("nnz_c = {} cannot be reached with nnz_b = {} and frac01 = {}", prm.nnz_c, prm.nnz_b,
                               prm.frac01));
    pl.p[k_and] = std::max(0.0, p_and);
    pl.p[k_xor] = std::max(0.0, p_xor);
    pl.p[k_lin] = p_lin;
    pl.p[k_bool] = std::max(0.0, p_bool);
    pl.k = (prm.nnz_a - 1 + p_lin) / p_lin;
    if (pl.k < 2 || pl.k > max_k)
        bad_params(fmt::format("nnz_a = {} needs {} A entries per LIN row (2 … 64)", prm.nnz_a, pl.k));
}

// Rates over the AND/XOR output bits (the candidates): leave
// (1 − dA)·num_aux out of A, and put dB·num_aux in B less the bits that
// are in B anyway (the 16 seed bits of each chunk, the BOOL rows' bits).
void plan_densities(const synthetic_params& prm, plan& pl)
{
    const double na = double(pl.num_aux());
    const double cand = std::max(1.0, (pl.p[k_and] + pl.p[k_xor]) * double(pl.m));
    pl.exempt_rate = std::clamp((1 - prm.a_aux_density) * na / cand, 0.0, 1.0);
    const double in_b = double(pl.chunks) * (synthetic_chunk_seeds - 1) + pl.p[k_bool] * double(pl.m);
    if (prm.b_aux_density * na > in_b + cand + 1)
        bad_params(fmt::format("b_aux_density = {} exceeds the share of bits that B can use", prm.b_aux_density));
    pl.mark_rate = std::clamp((prm.b_aux_density * na - in_b) / cand, 0.0, 1.0);
}

// The whole plan (everything but the coefficient table), or the reason the
// parameters cannot be met.
plan make_plan(const synthetic_params& prm)
{
    check_params(prm);
    const uint64_t n = uint64_t{1} << prm.log2_domain;
    plan pl;
    pl.ni = prm.num_inputs;
    pl.m = n - prm.num_inputs - prm.margin;
    pl.chunks = (pl.m + synthetic_chunk_rows - 1) / synthetic_chunk_rows;
    if (pl.m < prm.num_inputs + 16) bad_params("too few rows for the COPY rows of the public inputs");
    plan_kinds(prm, pl);
    plan_densities(prm, pl);
    pl.seed = prm.seed;
    splitmix g{mix_seed(prm.seed, 0)};
    pl.mu = fr::random(g);
    pl.inputs.resize(prm.num_inputs);
    pl.inputs[0] = fr::one();
    for (uint32_t i = 1; i < prm.num_inputs; ++i) pl.inputs[i] = fr::random(g);
    if (uint64_t(prm.num_inputs) + pl.num_aux() >= (uint64_t{1} << 32)) bad_params("more than 2^32 variables");
    return pl;
}

// The coefficient table: μ, then 2^j for j = 1 … 62.
std::vector<fr> coefficient_table(const fr& mu)
{
    std::vector<fr> table(63);
    table[0] = mu;
    fr t = fr::one();
    for (unsigned j = 1; j < 63; ++j) table[j] = (t = t + t);
    return table;
}

// Pass 1: the entries of each chunk, as running offsets per matrix
// (off[c] = the entries before chunk c).
std::vector<std::array<uint64_t, 3>> count_entries(const plan& pl, unsigned threads)
{
    std::vector<std::array<uint64_t, 3>> off(pl.chunks + 1, {0, 0, 0});
    parallel_tasks(threads, pl.chunks, [&](size_t c, unsigned) {
        count_sink s;
        generate_chunk(pl, c, s);
        off[c + 1] = {s.nnz[0], s.nnz[1], s.nnz[2]};
    });
    for (uint64_t c = 0; c < pl.chunks; ++c)
        for (int i = 0; i < 3; ++i) off[c + 1][i] += off[c][i];
    return off;
}

// Pass 2: rows and witness at their offsets.
void write_entries(const plan& pl, const std::vector<std::array<uint64_t, 3>>& off, unsigned threads,
                   synth_storage& st, std::vector<fr>& aux)
{
    for (int i = 0; i < 3; ++i) {
        st.row_ptr[i].resize(pl.m + 1);
        st.row_ptr[i][0] = 0;
        st.col[i].resize(off[pl.chunks][i]);
        st.code[i].resize(off[pl.chunks][i]);
    }
    parallel_tasks(threads, pl.chunks, [&](size_t c, unsigned) {
        write_sink s;
        s.row_idx = c * synthetic_chunk_rows;
        for (int i = 0; i < 3; ++i) {
            s.pos[i] = off[c][i];
            s.row_ptr[i] = st.row_ptr[i].data();
            s.col[i] = st.col[i].data();
            s.code[i] = st.code[i].data();
        }
        s.aux = aux.data();
        generate_chunk(pl, c, s);
        for (int i = 0; i < 3; ++i)
            if (s.pos[i] != off[c + 1][i])
                throw error(errc::internal, fmt::format("synthetic_porep: chunk {} wrote a different number of "
                                                        "entries than it counted", c));
    });
}

// Density bitmaps: A's aux columns (dens[0]) from matrix 0; B's input
// (dens[1]) and aux (dens[2]) columns from matrix 1.
void density_bitmaps(uint32_t ni, uint64_t num_aux, unsigned threads, synth_storage& st)
{
    st.dens[0].assign((num_aux + 63) / 64, 0);
    st.dens[1].assign(size_t((uint64_t(ni) + 63) / 64), 0);
    st.dens[2].assign((num_aux + 63) / 64, 0);
    const auto set_bits = [&](int mat) {
        const auto& cols = st.col[mat];
        parallel_for(threads, cols.size(), [&](size_t lo, size_t hi, unsigned) {
            for (size_t k = lo; k < hi; ++k) {
                const uint32_t col = cols[k];
                uint64_t* w;
                uint64_t bitpos;
                if (col >= ni) {
                    w = &st.dens[mat == 0 ? 0 : 2][(col - ni) / 64];
                    bitpos = (col - ni) % 64;
                } else {
                    if (mat == 0) continue;
                    w = &st.dens[1][col / 64];
                    bitpos = col % 64;
                }
                const uint64_t m = uint64_t{1} << bitpos;
                std::atomic_ref<uint64_t> ref(*w);
                if (!(ref.load(std::memory_order_relaxed) & m)) ref.fetch_or(m, std::memory_order_relaxed);
            }
        });
    };
    set_bits(0);
    set_bits(1);
}

// The pce's views of the storage, which it then owns.
void assemble_pce(const plan& pl, uint64_t num_aux, std::shared_ptr<synth_storage> st, pce& p)
{
    const uint32_t ni = pl.ni;
    p.num_inputs = ni;
    p.num_aux = uint32_t(num_aux);
    p.num_constraints = pl.m;
    csr_matrix* mats[3] = {&p.a, &p.b, &p.c};
    for (int i = 0; i < 3; ++i) *mats[i] = {st->row_ptr[i], st->col[i], st->code[i]};
    p.coeffs = st->table;
    const uint64_t lens[3] = {num_aux, ni, num_aux};
    density_bitmap* dens[3] = {&p.a_aux_density, &p.b_input_density, &p.b_aux_density};
    for (int i = 0; i < 3; ++i) {
        uint64_t pc = 0;
        for (uint64_t x : st->dens[i]) pc += uint64_t(std::popcount(x));
        *dens[i] = {st->dens[i], lens[i], pc};
    }
    p.storage = std::move(st);
}

} // namespace

synthetic_circuit synthetic_porep(const synthetic_params& prm)
{
    plan pl = make_plan(prm);
    const uint64_t num_aux = pl.num_aux();
    auto st = std::make_shared<synth_storage>();
    st->table = coefficient_table(pl.mu);
    pl.mu_table = st->table.data();

    const auto off = count_entries(pl, prm.threads);
    synthetic_circuit out;
    out.aux.resize(num_aux);
    out.inputs = pl.inputs;
    write_entries(pl, off, prm.threads, *st, out.aux);
    density_bitmaps(prm.num_inputs, num_aux, prm.threads, *st);
    assemble_pce(pl, num_aux, std::move(st), out.p);
    return out;
}

synthetic_stats measure_synthetic(const pce& p, std::span<const fr> inputs, std::span<const fr> aux,
                                  unsigned threads)
{
    synthetic_stats s;
    const double m = double(std::max<uint64_t>(1, p.num_constraints));
    s.nnz_a = double(p.a.nnz()) / m;
    s.nnz_b = double(p.b.nnz()) / m;
    s.nnz_c = double(p.c.nnz()) / m;
    const double na = double(std::max<uint32_t>(1, p.num_aux));
    s.a_aux_density = double(p.a_aux_density.popcount) / na;
    s.b_aux_density = double(p.b_aux_density.popcount) / na;
    const unsigned workers = resolve_threads(threads);
    std::vector<uint64_t> zeros(workers, 0), ones(workers, 0);
    const auto count = [&](std::span<const fr> v) {
        parallel_for(threads, v.size(), [&](size_t lo, size_t hi, unsigned w) {
            uint64_t z = 0, o = 0;
            for (size_t i = lo; i < hi; ++i) {
                z += v[i].is_zero();
                o += v[i].is_one();
            }
            zeros[w] += z;
            ones[w] += o;
        });
    };
    count(inputs);
    count(aux);
    uint64_t z = 0, o = 0;
    for (unsigned w = 0; w < workers; ++w) z += zeros[w], o += ones[w];
    const double total = double(std::max<size_t>(1, inputs.size() + aux.size()));
    s.frac_zero = double(z) / total;
    s.frac_one = double(o) / total;
    s.frac01 = s.frac_zero + s.frac_one;
    return s;
}

} // namespace cuzk::r1cs
