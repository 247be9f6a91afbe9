// cuzk — incremental construction of a PCE, one constraint at a time.
//
// Used by recording_cs (tagged columns: aux j is given as aux_tag | j because
// the final input count is not known until the end) and by readers of other
// formats (unified columns). Each row is canonicalised on arrival: sorted by
// column, repeated columns summed, zero coefficients dropped, coefficients
// coded (+1, −1, or an index into a deduplicated table; see pce.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "cuzk/r1cs/pce.hpp"

namespace cuzk::r1cs {

class pce_builder {
public:
    enum class columns : uint8_t {
        unified,   // column = final unified index
        tagged,    // input i = i; aux j = aux_tag | j (j < 2^31)
    };
    static constexpr uint32_t aux_tag = 0x8000'0000u;

    struct entry {
        uint32_t col;
        fr coeff;
    };

    explicit pce_builder(columns mode = columns::unified) : mode_(mode)
    {
        for (auto& m : m_) m.row_ptr.push_back(0);
    }

    columns mode() const noexcept { return mode_; }
    uint64_t num_constraints() const noexcept { return m_[0].row_ptr.size() - 1; }

    // Pre-sizes for `rows` constraints and `nnz` entries per matrix.
    void reserve(size_t rows, size_t nnz_a, size_t nnz_b, size_t nnz_c);

    // Appends a·b = c. The spans are scratch: they are sorted in place.
    void add_constraint(std::span<entry> a, std::span<entry> b, std::span<entry> c);

    // The finished PCE; the builder is left empty. Columns are checked against
    // the counts (errc::invalid_argument naming the constraint and matrix).
    pce finish(uint32_t num_inputs, uint32_t num_aux);

    // A row in canonical form, in place: sorted by column, repeated columns
    // summed, zero sums dropped. Returns the entries kept (at the front).
    static size_t canonical(std::span<entry> row);

    // Coefficient table lookups (here and in pce_parts): a coefficient's
    // limbs as the key, and its hash.
    using coef_key = std::array<uint64_t, 4>;
    static coef_key key_of(const fr& c) noexcept { return {c.l[0], c.l[1], c.l[2], c.l[3]}; }
    struct key_hash {
        size_t operator()(const coef_key& k) const noexcept
        {
            return size_t(k[0] ^ (k[1] * 0x9E3779B97F4A7C15ull) ^ (k[2] >> 7) ^ (k[3] << 11));
        }
    };

private:
    struct matrix {
        std::vector<uint64_t> row_ptr;
        std::vector<uint32_t> col;
        std::vector<uint32_t> coef;
    };
    void add_row(matrix& m, std::span<entry> row);
    uint32_t code_of(const fr& c);

    columns mode_;
    matrix m_[3];
    std::vector<fr> table_;
    std::unordered_map<coef_key, uint32_t, key_hash> index_;
};

// The names of the matrices, for messages.
inline constexpr const char* pce_matrix_name[3] = {"A", "B", "C"};

// The density bitmaps of a PCE (pce.hpp) from its A and B entries' unified
// columns over num_inputs inputs: words[0] a_aux, words[1] b_input,
// words[2] b_aux (sized here), on `threads` threads (0 = all cores).
void pce_density_words(std::span<const uint32_t> a_col, std::span<const uint32_t> b_col, uint32_t num_inputs,
                       uint32_t num_aux, std::vector<uint64_t> (&words)[3], unsigned threads);
// The three density_bitmaps viewing those words (popcounts taken).
void pce_set_densities(pce& p, const std::vector<uint64_t> (&words)[3]);

} // namespace cuzk::r1cs
