// cuzk — snarkjs / circom binary files on BLS12-381: .zkey (Groth16), .wtns, .r1cs.
// Layouts: docs/FORMATS.md §2.1–2.6.
//
// Encodings used by these files:
//   LEM point   affine x ‖ y, each coordinate 48 bytes little-endian in
//               Montgomery form (integer x·2^384 mod q); Fp2 as c0 ‖ c1;
//               the point at infinity is all-zero bytes. This is bit for bit
//               cuzk's in-memory g1_affine / g2_affine on a little-endian host.
//   zkey coef   32 bytes LE, integer v·R² mod r with R = 2^256 mod r.
//   wtns, r1cs  32 bytes LE, the plain canonical value.
//
// Every reader checks the curve (q and r must be BLS12-381's; a bn128 file
// gives errc::unsupported "curve not supported"), every length against the
// section sizes before allocating, every field element for canonicity
// (errc::non_canonical) and every point for being on its curve
// (errc::not_on_curve). Messages name the file, the section and the index.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::io {

// ---- LEM point encoding ------------------------------------------------------------
inline constexpr size_t lem_g1_size = 96;
inline constexpr size_t lem_g2_size = 192;

void g1_to_lem(const g1_affine& p, std::span<uint8_t, 96> out);
void g2_to_lem(const g2_affine& p, std::span<uint8_t, 192> out);
// Decodes and validates (coordinates < q, on the curve, and in the subgroup
// when chk = check). All-zero bytes give the identity. Errors name `what`.
g1_affine g1_from_lem(std::span<const uint8_t, 96> in, subgroup_check chk, const std::string& what);
g2_affine g2_from_lem(std::span<const uint8_t, 192> in, subgroup_check chk, const std::string& what);

// ---- .zkey ---------------------------------------------------------------------------
// Sections (docs/FORMATS.md §2.3): 1 header (protocol 1 = Groth16), 2 Groth16
// header + vk, 3 IC, 4 coefficients, 5 A, 6 B1, 7 B2, 8 C (= L), 9 H,
// 10 MPC contributions. Sections 1–9 are required; 10 is optional on read.
struct zkey {
    groth16::proving_key pk;     // conv = snarkjs; see below for the mapping
    uint32_t n_vars = 0;         // = pk.num_inputs + pk.num_aux
    uint32_t n_public = 0;       // outputs + public inputs = pk.num_inputs − 1
    std::array<uint8_t, 64> cs_hash{};   // section 10 (zeros if absent)
    uint32_t n_contributions = 0;        // section 10 record count
};

struct zkey_read_options {
    // snarkjs checks points on the curve only; `check` adds a subgroup test
    // per point (expensive: a 255-bit scalar multiplication each).
    subgroup_check check = subgroup_check::skip;
    unsigned threads = 0;   // point decoding; 0 = hardware concurrency
};

// Mapping into groth16::proving_key:
//   num_inputs = nPublic + 1, num_aux = nVars − nPublic − 1,
//   domain_size = domainSize, a/b_g1/b_g2 = sections 5/6/7 (nVars points,
//   identity for unused signals), l = section 8, h = section 9 (domainSize
//   Lagrange points on the odd coset), coefs = section 4 converted to plain
//   values, n_constraints = the circuit's constraint count, i.e. the rows
//   before the nPublic+1 input constraints (A-entry 1 on signal s in row
//   n_constraints + s), which the reader checks are present.
zkey read_zkey(const std::string& path, const zkey_read_options& opt = {});
zkey parse_zkey(std::span<const uint8_t> data, const std::string& name, const zkey_read_options& opt = {});

struct zkey_write_options {
    // Written verbatim into section 10, followed by a contribution count of 0.
    // snarkjs fills it with the BLAKE2b-512 of the initial key; only
    // `zkey verify` and `zkey contribute` look at it (`groth16 prove`,
    // `zkey export verificationkey` do not). Default: 64 zero bytes.
    // The contribution records of a key read from snarkjs are not kept, so a
    // rewritten key proves and verifies with snarkjs but `zkey verify`
    // cannot trace it back to its ceremony.
    std::array<uint8_t, 64> cs_hash{};
};

// Writes a snarkjs-convention key (pk.conv must be snarkjs) as zkey version 1
// with sections 1..10 in order. Checks the vector sizes against num_inputs,
// num_aux and domain_size, and the coefficient indices, before writing.
void write_zkey(const std::string& path, const groth16::proving_key& pk, const zkey_write_options& opt = {});

// ---- .wtns ---------------------------------------------------------------------------
// Section 1: u32 n8 (32), r (32 bytes LE), u32 nWitness; section 2: values.
// Returns the witness as field elements; index 0 is the constant 1.
std::vector<fr> read_wtns(const std::string& path);
std::vector<fr> parse_wtns(std::span<const uint8_t> data, const std::string& name);
void write_wtns(const std::string& path, std::span<const fr> witness);   // version 2

// ---- .r1cs ---------------------------------------------------------------------------
using r1cs_lc = std::vector<std::pair<uint32_t, fr>>;   // (wire, coefficient)

struct r1cs_file {
    uint32_t n_wires = 0;
    uint32_t n_pub_out = 0;
    uint32_t n_pub_in = 0;
    uint32_t n_prv_in = 0;
    uint64_t n_labels = 0;
    uint32_t n_constraints = 0;
    // Per constraint the linear combinations A, B, C with A·B − C = 0.
    std::vector<std::array<r1cs_lc, 3>> constraints;
    // Section 3 (wire → label id), empty if the file has none.
    std::vector<uint64_t> wire_to_label;
};

// Sections 1 (header) and 2 (constraints) are required, 3 optional, others
// (PLONK custom gates) ignored. Wire ids are checked < n_wires.
r1cs_file read_r1cs(const std::string& path);
// Records a circom circuit into a PCE. circom's wire order (0 = ONE, public
// outputs, public inputs, then private wires) is cuzk's variable order, so
// wire w maps to column w of the unified index.
r1cs::pce r1cs_to_pce(const r1cs_file& r);
r1cs_file parse_r1cs(std::span<const uint8_t> data, const std::string& name);
// Writes sections 1, 2 and (if wire_to_label is non-empty) 3, version 1.
void write_r1cs(const std::string& path, const r1cs_file& r);

} // namespace cuzk::io
