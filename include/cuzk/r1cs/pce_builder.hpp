// cuzk — incremental construction of a PCE, one constraint at a time.
//
// Used by recording_cs (tagged columns: aux j is given as aux_tag | j because
// the final input count is not known until the end) and by readers of other
// formats (unified columns). Each row is canonicalised on arrival: sorted by
// column, repeated columns summed, zero coefficients dropped, coefficients
// coded (+1, −1, or an index into a deduplicated table; see pce.hpp).
#pragma once

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

private:
    struct matrix {
        std::vector<uint64_t> row_ptr;
        std::vector<uint32_t> col;
        std::vector<uint32_t> coef;
    };
    struct key_hash {
        size_t operator()(const std::array<uint64_t, 4>& k) const noexcept
        {
            return size_t(k[0] ^ (k[1] * 0x9E3779B97F4A7C15ull) ^ (k[2] >> 7) ^ (k[3] << 11));
        }
    };
    void add_row(matrix& m, std::span<entry> row);
    uint32_t code_of(const fr& c);

    columns mode_;
    matrix m_[3];
    std::vector<fr> table_;
    std::unordered_map<std::array<uint64_t, 4>, uint32_t, key_hash> index_;
};

} // namespace cuzk::r1cs
