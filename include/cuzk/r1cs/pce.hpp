// cuzk — the pre-compiled constraint evaluator (PCE).
//
// The matrices A, B, C of an R1CS depend only on the circuit's shape, not on
// the witness. A PCE records them once (recording_cs, pce_builder or
// pce_from_constraints), and per proof the prover computes
//     a = A·w,  b = B·w,  c = C·w,   w = [inputs | aux]
// with a sparse matrix-vector product instead of re-running the circuit's
// constraint code (witness_cs then only produces w).
//
// Layout (compressed sparse rows): row r = constraint r; column = variable in
// the unified index (input i → i, aux j → num_inputs + j). Each entry is a
// 32-bit column plus a 32-bit coefficient code:
//     code 0   coefficient +1   (acc += w: no multiplication)
//     code 1   coefficient −1   (acc −= w)
//     code k≥2 coefficient coeffs[k − 2], a deduplicated table
// so an entry costs 8 bytes instead of 36, and the ±1 entries (most of them in
// bit-decomposition circuits) cost one field addition. Rows hold each column
// at most once, sorted, with non-zero coefficients.
//
// Densities (what bellperson's prover needs to pick query points):
//     a_aux_density    bit j: aux j has a non-zero coefficient somewhere in A
//     b_input_density  bit i: input i occurs in B
//     b_aux_density    bit j: aux j occurs in B
// (Inputs are always dense in A because of the input constraints the Groth16
// layer appends; a PCE holds only the circuit's own constraints.)
//
// Ownership: a pce views its arrays through spans; `storage` keeps them alive
// (heap vectors for a built PCE, a read-only file mapping for a loaded one).
// Copying a pce is cheap and shares the storage; the arrays are immutable.
//
// File format (save_pce / load_pce), version 1, little-endian:
//     header, 128 bytes
//       0  u8[8]  magic "cuzk-pce"
//       8  u32    version = 1
//      12  u32    header size = 128
//      16  u64    num_inputs      24 u64 num_aux      32 u64 num_constraints
//      40  u64    nnz A           48 u64 nnz B        56 u64 nnz C
//      64  u64    number of coefficient-table entries
//      72  u64    payload size in bytes (file size − 128)
//      80  u64    checksum chunk size in bytes
//      88  u64    payload checksum
//      96  u64    header checksum (of bytes 0..95)
//     104  u8[24] zero
//     payload: these arrays, each starting at a multiple of 64 bytes (zero
//     padding in between), in this order:
//       A row_ptr u64[m+1], A col u32[nnz], A code u32[nnz], the same for B, C,
//       coefficient table (32-byte Montgomery limbs, as in memory),
//       a_aux_density u64[⌈num_aux/64⌉], b_input_density u64[⌈num_inputs/64⌉],
//       b_aux_density u64[⌈num_aux/64⌉].
//   Checksum: the payload is cut into chunks of `chunk size` bytes; each
//   chunk is hashed with pce_hash64 (a 4-lane multiply-rotate hash, several
//   GB/s per core) and the payload checksum is pce_hash64 of the list of chunk
//   hashes, so loading verifies the chunks in parallel.
//   The loader maps the file, checks sizes, magic, version, both checksums,
//   then the structure (row pointers monotone and in range, columns below
//   num_inputs + num_aux, codes below 2 + table size, coefficients canonical,
//   no density bits past the end), so a bad file is an error, never a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <array>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk::r1cs {

inline constexpr uint32_t coef_plus_one = 0;
inline constexpr uint32_t coef_minus_one = 1;
inline constexpr uint32_t coef_table_base = 2;

struct csr_matrix {
    std::span<const uint64_t> row_ptr;   // rows + 1 offsets into col/coef
    std::span<const uint32_t> col;       // unified column per entry
    std::span<const uint32_t> coef;      // coefficient code per entry
    size_t nnz() const noexcept { return col.size(); }
    size_t rows() const noexcept { return row_ptr.empty() ? 0 : row_ptr.size() - 1; }
};

struct density_bitmap {
    std::span<const uint64_t> words;   // ⌈bit_len/64⌉ words, bit i = word i/64, bit i%64
    uint64_t bit_len = 0;
    uint64_t popcount = 0;
    bool test(size_t i) const noexcept { return (words[i / 64] >> (i % 64)) & 1u; }
};

struct pce {
    uint32_t num_inputs = 0;   // including ONE
    uint32_t num_aux = 0;
    uint64_t num_constraints = 0;
    csr_matrix a, b, c;
    std::span<const fr> coeffs;   // the table behind codes >= coef_table_base
    density_bitmap a_aux_density, b_input_density, b_aux_density;
    std::shared_ptr<const void> storage;   // keeps every span above alive

    size_t num_variables() const noexcept { return size_t(num_inputs) + num_aux; }
    size_t nnz() const noexcept { return a.nnz() + b.nnz() + c.nnz(); }
    fr coefficient(uint32_t code) const
    {
        return code == coef_plus_one ? fr::one() : code == coef_minus_one ? -fr::one() : coeffs[code - coef_table_base];
    }
    // Bytes held by the arrays (what a loaded file maps, minus padding).
    size_t memory_bytes() const noexcept;
};

// A constraint row given as (unified column, coefficient) pairs.
using pce_row = std::vector<std::pair<uint32_t, fr>>;

// Builds a PCE from plain constraint lists (for readers of other formats,
// e.g. circom .r1cs). Columns are in the unified index; repeated columns in a
// row are summed, zeros dropped. A column >= num_inputs + num_aux throws
// errc::invalid_argument naming the constraint.
pce pce_from_constraints(uint32_t num_inputs, uint32_t num_aux,
                         const std::vector<std::array<pce_row, 3>>& constraints);

// a = A·w, b = B·w, c = C·w. inputs.size() must equal num_inputs and
// aux.size() num_aux; a, b, c must hold at least num_constraints elements
// (only the first num_constraints are written, so a caller may pass buffers of
// the NTT domain size). c may be empty to skip C (a satisfying witness has
// c = a∘b). Rows are split over `threads` workers (0 = all hardware threads).
// Size mismatches throw errc::invalid_argument.
void evaluate(const pce& p, std::span<const fr> inputs, std::span<const fr> aux, std::span<fr> a,
              std::span<fr> b, std::span<fr> c, unsigned threads = 0);

// The smallest row r < n with a[r]·b[r] != c[r], n = the common length.
std::optional<size_t> first_unsatisfied(std::span<const fr> a, std::span<const fr> b, std::span<const fr> c,
                                        unsigned threads = 0);
// The same from a witness (evaluates the PCE first).
std::optional<size_t> first_unsatisfied(const pce& p, std::span<const fr> inputs, std::span<const fr> aux,
                                         unsigned threads = 0);
// Throws errc::unsatisfied "constraint <r> of <m> is not satisfied (a·b != c)"
// when the witness fails; `what` prefixes the message (e.g. a circuit name).
void check_satisfied(const pce& p, std::span<const fr> inputs, std::span<const fr> aux, unsigned threads = 0,
                     const std::string& what = "");

// Writes the file format above (to path + ".tmp", then renamed over path).
// errc::io when a write fails.
void save_pce(const pce& p, const std::string& path);

// Maps and validates a PCE file. errc::io (cannot open/map), errc::bad_length
// (shorter or longer than its header says), errc::bad_format (magic, version,
// checksum, structure); each message names the file and the failed check.
// With verify_checksum = false the payload checksum is skipped (the
// structural checks still run).
pce load_pce(const std::string& path, bool verify_checksum = true, unsigned threads = 0);

// The 64-bit checksum used by the file (exposed for tests and tools).
uint64_t pce_hash64(const void* data, size_t n, uint64_t seed = 0) noexcept;

} // namespace cuzk::r1cs
