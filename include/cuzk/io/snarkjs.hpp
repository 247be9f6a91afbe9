// cuzk — snarkjs / circom binary files: .zkey (Groth16), .wtns, .r1cs, on
// BLS12-381 (snarkjs's "bls12381") and BN254 (snarkjs's "bn128").
// Layouts: docs/FORMATS.md §2.1–2.6.
//
// Encodings used by these files (n8q = the byte length of the base field:
// 48 on BLS12-381, 32 on BN254; both scalar fields are 32 bytes):
//   LEM point   affine x ‖ y, each coordinate n8q bytes little-endian in
//               Montgomery form (integer x·R mod q, R = 2^(8·n8q): 2^384 on
//               BLS12-381, 2^256 on BN254, ffjavascript's wasm fields); Fp2 as
//               c0 ‖ c1; the point at infinity is all-zero bytes. This is bit
//               for bit cuzk's in-memory affine points on a little-endian host.
//               G1 is 2·n8q bytes (96 / 64), G2 4·n8q (192 / 128).
//   zkey coef   32 bytes LE, integer v·R² mod r with R = 2^256 mod r.
//   wtns, r1cs  32 bytes LE, the plain canonical value.
//
// The curve is read from the file, never assumed: snarkjs_file_curve says
// which one a file is for. Every reader is a template over the curve (zkey)
// or its scalar field (wtns, r1cs), BLS12-381 when left out, instantiated
// for both curves. A reader checks the file's primes: an unknown prime or
// field size is errc::bad_format (the prime in hex), a file of the other
// curve errc::unsupported ("x.zkey: the key is for bn128, expected
// bls12381"). Every length is checked against the section sizes before
// allocating, every field element for canonicity (errc::non_canonical) and
// every point for being on its curve (errc::not_on_curve). Messages name the
// file, the section and the field or index.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/groth16/curve.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::io {

// ---- the curve of a file ---------------------------------------------------------------
// Which curve a .zkey (section 2's q and r), .wtns (its prime) or .r1cs (its
// prime) is for, from the container and that header alone. errc::bad_format
// naming the file when the magic is none of the three, the header is
// malformed, a prime is unknown (given in hex) or a field size is neither 32
// nor 48, or a zkey's q and r belong to different curves.
curve_id snarkjs_file_curve(const std::string& path);
curve_id parse_snarkjs_file_curve(std::span<const uint8_t> data, const std::string& name);

// ---- LEM point encoding ------------------------------------------------------------
template <class C>
inline constexpr size_t lem_fq_bytes = C::fp::nbytes;   // n8q
template <class C>
inline constexpr size_t lem_g1_bytes = 2 * lem_fq_bytes<C>;
template <class C>
inline constexpr size_t lem_g2_bytes = 4 * lem_fq_bytes<C>;
inline constexpr size_t lem_g1_size = lem_g1_bytes<bls12_381_curve>;   // 96
inline constexpr size_t lem_g2_size = lem_g2_bytes<bls12_381_curve>;   // 192

// g1_to_lem<C>(p, out) for either curve; the plain calls are BLS12-381's.
template <class C>
void g1_to_lem(const typename C::g1_affine& p, std::span<uint8_t, lem_g1_bytes<C>> out);
template <class C>
void g2_to_lem(const typename C::g2_affine& p, std::span<uint8_t, lem_g2_bytes<C>> out);
// Decodes and validates (coordinates < q, on the curve, and in the subgroup
// when chk = check). All-zero bytes give the identity. Errors name `what`.
template <class C>
typename C::g1_affine g1_from_lem(std::span<const uint8_t, lem_g1_bytes<C>> in, subgroup_check chk,
                                  const std::string& what);
template <class C>
typename C::g2_affine g2_from_lem(std::span<const uint8_t, lem_g2_bytes<C>> in, subgroup_check chk,
                                  const std::string& what);

inline void g1_to_lem(const g1_affine& p, std::span<uint8_t, 96> out) { g1_to_lem<bls12_381_curve>(p, out); }
inline void g2_to_lem(const g2_affine& p, std::span<uint8_t, 192> out) { g2_to_lem<bls12_381_curve>(p, out); }
inline g1_affine g1_from_lem(std::span<const uint8_t, 96> in, subgroup_check chk, const std::string& what)
{
    return g1_from_lem<bls12_381_curve>(in, chk, what);
}
inline g2_affine g2_from_lem(std::span<const uint8_t, 192> in, subgroup_check chk, const std::string& what)
{
    return g2_from_lem<bls12_381_curve>(in, chk, what);
}

// ---- .zkey ---------------------------------------------------------------------------
// Sections (docs/FORMATS.md §2.3): 1 header (protocol 1 = Groth16), 2 Groth16
// header + vk, 3 IC, 4 coefficients, 5 A, 6 B1, 7 B2, 8 C (= L), 9 H,
// 10 MPC contributions. Sections 1–9 are required; 10 is optional on read.
template <class C>
struct zkey_t {
    groth16::proving_key_t<C> pk;   // conv = snarkjs; see below for the mapping
    uint32_t n_vars = 0;            // = pk.num_inputs + pk.num_aux
    uint32_t n_public = 0;          // outputs + public inputs = pk.num_inputs − 1
    std::array<uint8_t, 64> cs_hash{};   // section 10 (zeros if absent)
    uint32_t n_contributions = 0;        // section 10 record count
};
using zkey = zkey_t<bls12_381_curve>;

enum class curve_check : bool { skip = false, check = true };

struct zkey_read_options {
    // snarkjs checks points on the curve only; `check` adds a subgroup test
    // per point (expensive: a 255-bit scalar multiplication each).
    subgroup_check check = subgroup_check::skip;
    unsigned threads = 0;   // point decoding; 0 = hardware concurrency
    // The curve test of each point of sections 5–9 (A, B1, B2, C, H; the
    // coordinates are always checked < q). `skip` is for a caller that
    // verifies every proof made with the key before using it, as `cuzk
    // prove` does: a point off the curve then shows as a proof that does not
    // verify, and reading the key again with the test names the point. The
    // verifying key (sections 2 and 3) is always tested, in the subgroup too;
    // check = subgroup_check::check implies the curve test.
    curve_check curve = curve_check::check;
};

// Mapping into groth16::proving_key_t<C>:
//   num_inputs = nPublic + 1, num_aux = nVars − nPublic − 1,
//   domain_size = domainSize, a/b_g1/b_g2 = sections 5/6/7 (nVars points,
//   identity for unused signals), l = section 8, h = section 9 (domainSize
//   Lagrange points on the odd coset), coefs = section 4 converted to plain
//   values, n_constraints = the circuit's constraint count, i.e. the rows
//   before the nPublic+1 input constraints (A-entry 1 on signal s in row
//   n_constraints + s), which the reader checks are present.
// The file's q and r must be C's (see the top of this file).
template <class C = bls12_381_curve>
zkey_t<C> read_zkey(const std::string& path, const zkey_read_options& opt = {});
template <class C = bls12_381_curve>
zkey_t<C> parse_zkey(std::span<const uint8_t> data, const std::string& name, const zkey_read_options& opt = {});

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
// with sections 1..10 in order, with C's q and r. Checks the vector sizes
// against num_inputs, num_aux and domain_size, and the coefficient indices,
// before writing.
template <class C>
void write_zkey(const std::string& path, const groth16::proving_key_t<C>& pk, const zkey_write_options& opt = {});

// ---- .wtns ---------------------------------------------------------------------------
// Section 1: u32 n8 (32), r (32 bytes LE), u32 nWitness; section 2: values.
// F is the curve's scalar field (fr or bn254::fr); the file's r must be F's.
// Returns the witness as field elements; index 0 is the constant 1.
template <class F = fr>
std::vector<F> read_wtns(const std::string& path);
template <class F = fr>
std::vector<F> parse_wtns(std::span<const uint8_t> data, const std::string& name);
template <class F>
void write_wtns(const std::string& path, std::span<const F> witness);   // version 2
template <class F>
void write_wtns(const std::string& path, const std::vector<F>& witness)
{
    write_wtns(path, std::span<const F>(witness));
}

// ---- .r1cs ---------------------------------------------------------------------------
template <class F>
using r1cs_lc_t = std::vector<std::pair<uint32_t, F>>;   // (wire, coefficient)
using r1cs_lc = r1cs_lc_t<fr>;

template <class F>
struct r1cs_file_t {
    uint32_t n_wires = 0;
    uint32_t n_pub_out = 0;
    uint32_t n_pub_in = 0;
    uint32_t n_prv_in = 0;
    uint64_t n_labels = 0;
    uint32_t n_constraints = 0;
    // Per constraint the linear combinations A, B, C with A·B − C = 0.
    std::vector<std::array<r1cs_lc_t<F>, 3>> constraints;
    // Section 3 (wire → label id), empty if the file has none.
    std::vector<uint64_t> wire_to_label;
};
using r1cs_file = r1cs_file_t<fr>;

// Sections 1 (header) and 2 (constraints) are required, 3 optional, others
// (PLONK custom gates) ignored. Wire ids are checked < n_wires. The file's
// prime must be F's modulus.
template <class F = fr>
r1cs_file_t<F> read_r1cs(const std::string& path);
template <class F = fr>
r1cs_file_t<F> parse_r1cs(std::span<const uint8_t> data, const std::string& name);
// Writes sections 1, 2 and (if wire_to_label is non-empty) 3, version 1.
template <class F>
void write_r1cs(const std::string& path, const r1cs_file_t<F>& r);
// Records a circom circuit into a PCE (BLS12-381 only). circom's wire order
// (0 = ONE, public outputs, public inputs, then private wires) is cuzk's
// variable order, so wire w maps to column w of the unified index.
r1cs::pce r1cs_to_pce(const r1cs_file& r);

// ---- instantiations (lib/io/snarkjs.cpp) ----------------------------------------------
// X is `template` there and `extern template` here; C a curve traits struct.
#define CUZK_IO_SNARKJS_TEMPLATES(X, C)                                                                           \
    X void g1_to_lem<C>(const C::g1_affine&, std::span<uint8_t, lem_g1_bytes<C>>);                              \
    X void g2_to_lem<C>(const C::g2_affine&, std::span<uint8_t, lem_g2_bytes<C>>);                              \
    X C::g1_affine g1_from_lem<C>(std::span<const uint8_t, lem_g1_bytes<C>>, subgroup_check, const std::string&); \
    X C::g2_affine g2_from_lem<C>(std::span<const uint8_t, lem_g2_bytes<C>>, subgroup_check, const std::string&); \
    X zkey_t<C> read_zkey<C>(const std::string&, const zkey_read_options&);                                     \
    X zkey_t<C> parse_zkey<C>(std::span<const uint8_t>, const std::string&, const zkey_read_options&);          \
    X void write_zkey<C>(const std::string&, const groth16::proving_key_t<C>&, const zkey_write_options&);      \
    X std::vector<C::fr> read_wtns<C::fr>(const std::string&);                                                  \
    X std::vector<C::fr> parse_wtns<C::fr>(std::span<const uint8_t>, const std::string&);                       \
    X void write_wtns<C::fr>(const std::string&, std::span<const C::fr>);                                       \
    X r1cs_file_t<C::fr> read_r1cs<C::fr>(const std::string&);                                                  \
    X r1cs_file_t<C::fr> parse_r1cs<C::fr>(std::span<const uint8_t>, const std::string&);                       \
    X void write_r1cs<C::fr>(const std::string&, const r1cs_file_t<C::fr>&);
CUZK_IO_SNARKJS_TEMPLATES(extern template, bls12_381_curve)
CUZK_IO_SNARKJS_TEMPLATES(extern template, bn254_curve)

} // namespace cuzk::io
