// cuzk — recording a PCE in parts (slice_recording_cs.hpp).
#include "cuzk/r1cs/slice_recording_cs.hpp"

#include <cstdint>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/r1cs/slice_witness_cs.hpp"
#include "util/huge_pages.hpp"

namespace cuzk::r1cs {

namespace {

// What pce::storage owns for a PCE finished from parts.
struct parts_heap {
    std::unique_ptr<uint64_t[]> row_ptr[3];
    std::unique_ptr<uint32_t[]> col[3], coef[3];
    std::vector<fr> table;
    std::vector<uint64_t> dens[3];   // a_aux, b_input, b_aux
};

// n elements, not initialised (every one is written by a part), huge pages
// asked for: the 32 GiB circuit's arrays take 9 GB.
template <class T>
std::unique_ptr<T[]> uninitialised(size_t n)
{
    std::unique_ptr<T[]> p(new T[n]);
    advise_huge_pages(p.get(), n * sizeof(T));
    return p;
}

} // namespace

void size_for_slices(std::vector<fr>& v, size_t n)
{
    if (v.size() == n) return;
    std::vector<fr>().swap(v);
    v.reserve(n);
    advise_huge_pages(v.data(), n * sizeof(fr));
    v.resize(n);
}

pce_parts::pce_parts(uint32_t num_inputs, uint32_t num_aux, uint64_t rows, const std::array<uint64_t, 3>& nnz,
                     std::vector<fr> table)
    : num_inputs_(num_inputs), num_aux_(num_aux), rows_(rows), table_(std::move(table))
{
    if (uint64_t(num_inputs) + num_aux > (uint64_t(1) << 32))
        throw error(errc::unsupported, "pce_parts: num_inputs + num_aux exceeds 2^32 columns");
    for (int m = 0; m < 3; ++m) {
        row_ptr_[m] = {uninitialised<uint64_t>(size_t(rows) + 1), size_t(rows) + 1};
        row_ptr_[m].p[0] = 0;
        col_[m] = {uninitialised<uint32_t>(size_t(nnz[m])), size_t(nnz[m])};
        coef_[m] = {uninitialised<uint32_t>(size_t(nnz[m])), size_t(nnz[m])};
    }
    for (size_t i = 0; i < table_.size(); ++i) index_.emplace(pce_builder::key_of(table_[i]), uint32_t(i + coef_table_base));
    if (index_.size() != table_.size()) throw error(errc::invalid_argument, "pce_parts: the coefficient table repeats a value");
}

uint32_t pce_parts::code_of(const fr& c) const
{
    static const fr minus_one = -fr::one();
    if (c == fr::one()) return coef_plus_one;
    if (c == minus_one) return coef_minus_one;
    const auto it = index_.find(pce_builder::key_of(c));
    if (it == index_.end()) throw error(errc::internal, "slice_recording_cs: a coefficient missing from the table");
    return it->second;
}

void pce_parts::place(const pce& part, const pce_slice& at)
{
    const csr_matrix* mats[3] = {&part.a, &part.b, &part.c};
    const uint64_t part_inputs = part.num_inputs - 1;   // without ONE
    bool fits = part.num_constraints == at.row_count && part_inputs == at.input_count && part.num_aux == at.aux_count;
    for (int m = 0; m < 3; ++m) fits = fits && mats[m]->nnz() == at.nnz_count[m];
    if (!fits)
        throw error(errc::internal, fmt::format("pce_parts::place: the part ({} rows, {} inputs, {} aux) does not fit "
                                                "its slice ({}, {}, {})",
                                                part.num_constraints, part_inputs, part.num_aux, at.row_count,
                                                at.input_count, at.aux_count));
    std::vector<uint32_t> codes(coef_table_base + part.coeffs.size());
    codes[coef_plus_one] = coef_plus_one;
    codes[coef_minus_one] = coef_minus_one;
    for (size_t i = 0; i < part.coeffs.size(); ++i) codes[coef_table_base + i] = code_of(part.coeffs[i]);
    const uint64_t aux_col = uint64_t(num_inputs_) + at.aux_begin;
    for (int m = 0; m < 3; ++m) {
        const csr_matrix& x = *mats[m];
        for (uint64_t r = 0; r < at.row_count; ++r) row_ptr_[m].p[at.row_begin + r + 1] = at.nnz_begin[m] + x.row_ptr[r + 1];
        uint32_t* col = col_[m].p.get() + at.nnz_begin[m];
        uint32_t* coef = coef_[m].p.get() + at.nnz_begin[m];
        for (size_t i = 0; i < x.nnz(); ++i) {
            const uint32_t c = x.col[i];
            col[i] = c == 0 ? 0 : c < part.num_inputs ? uint32_t(at.input_begin + c - 1) : uint32_t(aux_col + c - part.num_inputs);
            coef[i] = codes.at(x.coef[i]);
        }
        nnz_written_[m] += x.nnz();
    }
    rows_written_ += at.row_count;
}

pce pce_parts::finish(unsigned threads)
{
    if (rows_written_.load() != rows_)
        throw error(errc::internal, fmt::format("pce_parts: {} of {} rows written", rows_written_.load(), rows_));
    for (int m = 0; m < 3; ++m)
        if (nnz_written_[m].load() != col_[m].n)
            throw error(errc::internal, fmt::format("pce_parts: {} of {} entries of {} written", nnz_written_[m].load(),
                                                    col_[m].n, pce_matrix_name[m]));
    auto h = std::make_shared<parts_heap>();
    size_t nnz[3];
    for (int m = 0; m < 3; ++m) {
        h->row_ptr[m] = std::move(row_ptr_[m].p);
        h->col[m] = std::move(col_[m].p);
        h->coef[m] = std::move(coef_[m].p);
        nnz[m] = col_[m].n;
    }
    h->table = std::move(table_);
    index_.clear();
    pce_density_words({h->col[0].get(), nnz[0]}, {h->col[1].get(), nnz[1]}, num_inputs_, num_aux_, h->dens, threads);

    pce p;
    p.num_inputs = num_inputs_;
    p.num_aux = num_aux_;
    p.num_constraints = rows_;
    csr_matrix* mats[3] = {&p.a, &p.b, &p.c};
    for (int m = 0; m < 3; ++m)
        *mats[m] = {{h->row_ptr[m].get(), size_t(rows_) + 1}, {h->col[m].get(), nnz[m]}, {h->coef[m].get(), nnz[m]}};
    p.coeffs = h->table;
    pce_set_densities(p, h->dens);
    p.storage = std::move(h);
    for (int m = 0; m < 3; ++m) row_ptr_[m].n = col_[m].n = coef_[m].n = 0;
    rows_ = 0;
    rows_written_ = 0;
    for (auto& n : nnz_written_) n = 0;
    return p;
}

variable slice_recording_cs::alloc(const fr&)
{
    if (aux_used_ == at_.aux_count) overflow("aux variables");
    return variable::aux(uint32_t(at_.aux_begin + aux_used_++));
}

variable slice_recording_cs::alloc_input(const fr&)
{
    if (inputs_used_ == at_.input_count) overflow("inputs");
    return variable::input(uint32_t(at_.input_begin + inputs_used_++));
}

uint64_t slice_recording_cs::put_row(int m, const linear_combination& lc)
{
    const uint32_t ni = dst_.num_inputs_;
    scratch_.clear();
    for (const auto& t : lc.terms()) {
        if (t.var.index >= (t.var.is_input ? ni : dst_.num_aux_))
            throw error(errc::internal, fmt::format("slice_recording_cs: matrix {} uses {} {}, past the circuit's {}",
                                                    pce_matrix_name[m], t.var.is_input ? "input" : "aux", t.var.index,
                                                    t.var.is_input ? ni : dst_.num_aux_));
        scratch_.push_back({t.var.is_input ? t.var.index : ni + t.var.index, t.coeff});
    }
    const size_t kept = pce_builder::canonical(scratch_);
    if (nnz_used_[m] + kept > at_.nnz_count[m]) overflow(pce_matrix_name[m]);
    const uint64_t at = at_.nnz_begin[m] + nnz_used_[m];
    for (size_t i = 0; i < kept; ++i) {
        dst_.col_[m].p[size_t(at + i)] = scratch_[i].col;
        dst_.coef_[m].p[size_t(at + i)] = dst_.code_of(scratch_[i].coeff);
    }
    nnz_used_[m] += kept;
    return at + kept;
}

void slice_recording_cs::enforce(const linear_combination& a, const linear_combination& b, const linear_combination& c)
{
    if (rows_used_ == at_.row_count) overflow("rows");
    const linear_combination* lcs[3] = {&a, &b, &c};
    const size_t row = size_t(at_.row_begin + rows_used_);
    for (int m = 0; m < 3; ++m) dst_.row_ptr_[m].p[row + 1] = put_row(m, *lcs[m]);
    ++rows_used_;
}

bool slice_recording_cs::full() const noexcept
{
    return aux_used_ == at_.aux_count && inputs_used_ == at_.input_count && rows_used_ == at_.row_count &&
           nnz_used_ == at_.nnz_count;
}

void slice_recording_cs::overflow(const char* what) const
{
    throw error(errc::internal, fmt::format("slice_recording_cs: the part at row {} goes past its slice ({})",
                                            at_.row_begin, what));
}

} // namespace cuzk::r1cs
