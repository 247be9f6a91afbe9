// cuzk — PCE construction and evaluation (pce.hpp, pce_builder.hpp).
#include "cuzk/r1cs/pce.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/r1cs/pce_builder.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::r1cs {

namespace {

// The arrays of a PCE built in memory; pce::storage owns one of these.
struct pce_heap {
    std::vector<uint64_t> row_ptr[3];
    std::vector<uint32_t> col[3];
    std::vector<uint32_t> coef[3];
    std::vector<fr> table;
    std::vector<uint64_t> dens[3];   // a_aux, b_input, b_aux
};

uint64_t popcount_words(std::span<const uint64_t> w)
{
    uint64_t n = 0;
    for (uint64_t x : w) n += uint64_t(std::popcount(x));
    return n;
}

// Rows per task of the parallel loops: large enough that handing out a task
// (an atomic increment) is noise, small enough to balance rows of uneven
// length over workers that a shared machine slows down unevenly.
constexpr size_t rows_per_task = 4096;

// One row of one matrix times the witness. Cost per entry: a load of the
// column and code, a load of the 32-byte value, then one field addition for
// ±1 entries; a table entry needs a Montgomery multiplication (~16 64-bit
// products) unless the value is 0 (skip) or 1 (add the coefficient), which is
// most of them in bit-decomposition circuits (SHA-256: every one). On the
// SHA-256 circuit (a third of the entries are table entries, e.g. the 2^j of
// the additions) the 0/1 shortcut halves the time of a pass. The input/aux
// choice is a compare on the column (well predicted: inputs are few).
struct row_evaluator {
    uint32_t ni;
    const fr* inputs;
    const fr* aux;
    const fr* table;

    CUZK_INLINE fr operator()(const csr_matrix& m, size_t r) const
    {
        fr acc = fr::zero();
        const uint64_t e = m.row_ptr[r + 1];
        const uint32_t* col = m.col.data();
        const uint32_t* code = m.coef.data();
        for (uint64_t k = m.row_ptr[r]; k < e; ++k) {
            const uint32_t c = col[k];
            const fr& w = c < ni ? inputs[c] : aux[c - ni];
            const uint32_t t = code[k];
            if (t == coef_plus_one) acc += w;
            else if (t == coef_minus_one) acc -= w;
            else if (w.is_zero()) continue;
            else if (w.is_one()) acc += table[t - coef_table_base];
            else acc += table[t - coef_table_base] * w;
        }
        return acc;
    }
};

void check_witness_sizes(const pce& p, std::span<const fr> inputs, std::span<const fr> aux, const char* who)
{
    if (inputs.size() != p.num_inputs || aux.size() != p.num_aux)
        throw error(errc::invalid_argument, std::string(who) + ": the witness has " + std::to_string(inputs.size()) +
                                                " inputs and " + std::to_string(aux.size()) +
                                                " aux values, the PCE expects " + std::to_string(p.num_inputs) +
                                                " and " + std::to_string(p.num_aux));
}

} // namespace

size_t pce::memory_bytes() const noexcept
{
    size_t n = coeffs.size_bytes() + a_aux_density.words.size_bytes() + b_input_density.words.size_bytes() +
               b_aux_density.words.size_bytes();
    for (const csr_matrix* m : {&a, &b, &c}) n += m->row_ptr.size_bytes() + m->col.size_bytes() + m->coef.size_bytes();
    return n;
}

// ---- builder -----------------------------------------------------------------------------------

void pce_builder::reserve(size_t rows, size_t nnz_a, size_t nnz_b, size_t nnz_c)
{
    const size_t nnz[3] = {nnz_a, nnz_b, nnz_c};
    for (int i = 0; i < 3; ++i) {
        m_[i].row_ptr.reserve(rows + 1);
        m_[i].col.reserve(nnz[i]);
        m_[i].coef.reserve(nnz[i]);
    }
}

uint32_t pce_builder::code_of(const fr& c)
{
    static const fr minus_one = -fr::one();
    if (c == fr::one()) return coef_plus_one;
    if (c == minus_one) return coef_minus_one;
    auto [it, inserted] = index_.try_emplace(key_of(c), uint32_t(table_.size() + coef_table_base));
    if (inserted) {
        if (table_.size() >= 0xFFFF'FFF0u) throw error(errc::unsupported, "pce_builder: coefficient table full");
        table_.push_back(c);
    }
    return it->second;
}

// Canonical row: sort by column (insertion sort for the short rows that are
// the rule, std::sort beyond 32 entries), sum repeated columns, drop zeros.
size_t pce_builder::canonical(std::span<entry> row)
{
    auto less = [](const entry& x, const entry& y) { return x.col < y.col; };
    if (row.size() <= 32) {
        for (size_t i = 1; i < row.size(); ++i) {
            entry e = row[i];
            size_t j = i;
            while (j > 0 && e.col < row[j - 1].col) {
                row[j] = row[j - 1];
                --j;
            }
            row[j] = e;
        }
    } else {
        std::sort(row.begin(), row.end(), less);
    }
    size_t kept = 0;
    for (size_t i = 0; i < row.size();) {
        const uint32_t col = row[i].col;
        fr v = row[i++].coeff;
        while (i < row.size() && row[i].col == col) v += row[i++].coeff;
        if (!v.is_zero()) row[kept++] = {col, v};
    }
    return kept;
}

void pce_builder::add_row(matrix& m, std::span<entry> row)
{
    const size_t kept = canonical(row);
    for (size_t i = 0; i < kept; ++i) {
        m.col.push_back(row[i].col);
        m.coef.push_back(code_of(row[i].coeff));
    }
    m.row_ptr.push_back(m.col.size());
}

void pce_builder::add_constraint(std::span<entry> a, std::span<entry> b, std::span<entry> c)
{
    add_row(m_[0], a);
    add_row(m_[1], b);
    add_row(m_[2], c);
}

namespace {

// Sets bit j of a bitmap that several threads write.
void set_density_bit(std::vector<uint64_t>& words, uint64_t j)
{
    // Most columns recur in many rows: a plain load first spares the locked
    // read-modify-write (and the cache line's ping-pong between threads)
    // when the bit is set already.
    std::atomic_ref<uint64_t> w(words[size_t(j / 64)]);
    const uint64_t bit = uint64_t(1) << (j % 64);
    if (!(w.load(std::memory_order_relaxed) & bit)) w.fetch_or(bit, std::memory_order_relaxed);
}

} // namespace

void pce_density_words(std::span<const uint32_t> a_col, std::span<const uint32_t> b_col, uint32_t num_inputs,
                       uint32_t num_aux, std::vector<uint64_t> (&words)[3], unsigned threads)
{
    // Word counts in 64 bits: num_aux + 63 overflows 32 bits for num_aux
    // near 2^32 and would leave an empty bitmap that the loops below write to.
    const size_t aux_words = size_t((uint64_t(num_aux) + 63) / 64);
    words[0].assign(aux_words, 0);
    words[1].assign(size_t((uint64_t(num_inputs) + 63) / 64), 0);
    words[2].assign(aux_words, 0);
    parallel_for(threads, a_col.size(), [&](size_t b, size_t e, unsigned) {
        for (size_t k = b; k < e; ++k)
            if (a_col[k] >= num_inputs) set_density_bit(words[0], a_col[k] - num_inputs);
    });
    parallel_for(threads, b_col.size(), [&](size_t b, size_t e, unsigned) {
        for (size_t k = b; k < e; ++k) {
            const uint32_t c = b_col[k];
            if (c < num_inputs) set_density_bit(words[1], c);
            else set_density_bit(words[2], c - num_inputs);
        }
    });
}

void pce_set_densities(pce& p, const std::vector<uint64_t> (&words)[3])
{
    const uint64_t lens[3] = {p.num_aux, p.num_inputs, p.num_aux};
    density_bitmap* dens[3] = {&p.a_aux_density, &p.b_input_density, &p.b_aux_density};
    for (int i = 0; i < 3; ++i) *dens[i] = {words[i], lens[i], popcount_words(words[i])};
}

pce pce_builder::finish(uint32_t num_inputs, uint32_t num_aux)
{
    if (uint64_t(num_inputs) + num_aux > (uint64_t(1) << 32))
        throw error(errc::unsupported, "pce: num_inputs + num_aux exceeds 2^32 columns");
    const uint64_t nv = uint64_t(num_inputs) + num_aux;

    // Columns: check and map to the unified index.
    for (int mi = 0; mi < 3; ++mi) {
        matrix& m = m_[mi];
        size_t row = 0;
        for (size_t k = 0; k < m.col.size(); ++k) {
            while (m.row_ptr[row + 1] <= k) ++row;
            uint32_t& c = m.col[k];
            bool ok;
            if (mode_ == columns::tagged) {
                if (c & aux_tag) {
                    const uint32_t j = c & ~aux_tag;
                    ok = j < num_aux;
                    c = num_inputs + j;
                } else {
                    ok = c < num_inputs;
                }
            } else {
                ok = c < nv;
            }
            if (!ok)
                throw error(errc::invalid_argument, "pce: constraint " + std::to_string(row) + ", matrix " +
                                                        pce_matrix_name[mi] + ": column out of range (" +
                                                        std::to_string(num_inputs) + " inputs, " +
                                                        std::to_string(num_aux) + " aux)");
        }
    }

    auto h = std::make_shared<pce_heap>();
    for (int i = 0; i < 3; ++i) {
        h->row_ptr[i] = std::move(m_[i].row_ptr);
        h->col[i] = std::move(m_[i].col);
        h->coef[i] = std::move(m_[i].coef);
    }
    h->table = std::move(table_);
    index_.clear();

    // Densities from the (canonical: non-zero) entries.
    pce_density_words(h->col[0], h->col[1], num_inputs, num_aux, h->dens, 1);

    pce p;
    p.num_inputs = num_inputs;
    p.num_aux = num_aux;
    p.num_constraints = h->row_ptr[0].size() - 1;
    csr_matrix* mats[3] = {&p.a, &p.b, &p.c};
    for (int i = 0; i < 3; ++i) *mats[i] = {h->row_ptr[i], h->col[i], h->coef[i]};
    p.coeffs = h->table;
    pce_set_densities(p, h->dens);
    p.storage = std::move(h);

    for (auto& m : m_) {
        m = matrix{};
        m.row_ptr.push_back(0);
    }
    return p;
}

pce pce_from_constraints(uint32_t num_inputs, uint32_t num_aux,
                         const std::vector<std::array<pce_row, 3>>& constraints)
{
    pce_builder b(pce_builder::columns::unified);
    std::vector<pce_builder::entry> s[3];
    size_t nnz[3] = {0, 0, 0};
    for (const auto& k : constraints)
        for (int i = 0; i < 3; ++i) nnz[i] += k[i].size();
    b.reserve(constraints.size(), nnz[0], nnz[1], nnz[2]);
    for (const auto& k : constraints) {
        for (int i = 0; i < 3; ++i) {
            s[i].clear();
            for (const auto& [col, v] : k[i]) s[i].push_back({col, v});
        }
        b.add_constraint(s[0], s[1], s[2]);
    }
    return b.finish(num_inputs, num_aux);
}

// ---- evaluation ------------------------------------------------------------------------------------

void evaluate(const pce& p, std::span<const fr> inputs, std::span<const fr> aux, std::span<fr> a, std::span<fr> b,
              std::span<fr> c, unsigned threads)
{
    check_witness_sizes(p, inputs, aux, "pce evaluate");
    const size_t m = size_t(p.num_constraints);
    if (a.size() < m || b.size() < m || (!c.empty() && c.size() < m))
        throw error(errc::invalid_argument, "pce evaluate: output buffers hold " + std::to_string(a.size()) + "/" +
                                                std::to_string(b.size()) + "/" + std::to_string(c.size()) +
                                                " elements, the PCE has " + std::to_string(m) + " constraints");
    const row_evaluator ev{p.num_inputs, inputs.data(), aux.data(), p.coeffs.data()};
    const bool do_c = !c.empty();
    // Rows of A, B and C of the same constraint are done together: they read
    // nearby witness values, so the second and third reads hit the cache.
    parallel_tasks(threads, (m + rows_per_task - 1) / rows_per_task, [&](size_t task, unsigned) {
        const size_t r0 = task * rows_per_task, r1 = std::min(m, r0 + rows_per_task);
        for (size_t r = r0; r < r1; ++r) {
            a[r] = ev(p.a, r);
            b[r] = ev(p.b, r);
            if (do_c) c[r] = ev(p.c, r);
        }
    });
}

std::optional<size_t> first_unsatisfied(std::span<const fr> a, std::span<const fr> b, std::span<const fr> c,
                                        unsigned threads)
{
    if (a.size() != b.size() || a.size() != c.size())
        throw error(errc::invalid_argument, "first_unsatisfied: a, b, c have different lengths");
    const size_t m = a.size();
    std::atomic<size_t> best{m};
    parallel_tasks(threads, (m + rows_per_task - 1) / rows_per_task, [&](size_t task, unsigned) {
        const size_t r0 = task * rows_per_task, r1 = std::min(m, r0 + rows_per_task);
        if (r0 >= best.load(std::memory_order_relaxed)) return;
        for (size_t r = r0; r < r1; ++r)
            if (a[r] * b[r] != c[r]) {
                size_t cur = best.load();
                while (r < cur && !best.compare_exchange_weak(cur, r)) {}
                return;
            }
    });
    const size_t r = best.load();
    return r < m ? std::optional<size_t>(r) : std::nullopt;
}

std::optional<size_t> first_unsatisfied(const pce& p, std::span<const fr> inputs, std::span<const fr> aux,
                                         unsigned threads)
{
    check_witness_sizes(p, inputs, aux, "first_unsatisfied");
    const size_t m = size_t(p.num_constraints);
    const row_evaluator ev{p.num_inputs, inputs.data(), aux.data(), p.coeffs.data()};
    std::atomic<size_t> best{m};
    parallel_tasks(threads, (m + rows_per_task - 1) / rows_per_task, [&](size_t task, unsigned) {
        const size_t r0 = task * rows_per_task, r1 = std::min(m, r0 + rows_per_task);
        if (r0 >= best.load(std::memory_order_relaxed)) return;
        for (size_t r = r0; r < r1; ++r)
            if (ev(p.a, r) * ev(p.b, r) != ev(p.c, r)) {
                size_t cur = best.load();
                while (r < cur && !best.compare_exchange_weak(cur, r)) {}
                return;
            }
    });
    const size_t r = best.load();
    return r < m ? std::optional<size_t>(r) : std::nullopt;
}

void check_satisfied(const pce& p, std::span<const fr> inputs, std::span<const fr> aux, unsigned threads,
                     const std::string& what)
{
    if (auto r = first_unsatisfied(p, inputs, aux, threads))
        throw error(errc::unsatisfied, (what.empty() ? std::string() : what + ": ") + "constraint " +
                                           std::to_string(*r) + " of " + std::to_string(p.num_constraints) +
                                           " is not satisfied (a·b != c)");
}

} // namespace cuzk::r1cs
