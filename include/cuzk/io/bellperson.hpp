// cuzk — bellperson / Filecoin files: verifying keys (.vk), parameters
// (.params) and the 192-byte proof. Layouts: docs/FORMATS.md §1.2–1.4. Points use
// the zcash encoding of ec/encoding.hpp (big-endian, Fp2 as c1 ‖ c0, flag
// bits); lengths are u32 big-endian.
//
//   .vk      alpha_g1, beta_g1 (G1, 96 B), beta_g2, gamma_g2 (G2, 192 B),
//            delta_g1, delta_g2, u32 BE n_ic, n_ic × G1          868 + 96·n_ic bytes
//   .params  the .vk, then five vectors, each u32 BE count + points:
//            h (G1, n − 1 monomial points), l (G1, one per aux variable),
//            a, b_g1 (G1), b_g2 (G2) — identity points filtered out.
//   proof    A (G1 compressed, 48) ‖ B (G2 compressed, 96) ‖ C (48) = 192 bytes.
//
// Reading follows bellperson: the verifying key is always fully checked
// (canonical, on curve, in the subgroup) and an identity IC point is an
// error; the h/l/a/b points are checked on-curve, plus subgroup membership
// when asked (Filecoin reads its large files unchecked), and an identity
// point among them is an error (errc::unexpected_identity). Decoding errors
// keep the code of ec/encoding.hpp and add the file, the vector and the index.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/ec/encoding.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/io/mapped_file.hpp"

namespace cuzk::io {

// ---- proof ------------------------------------------------------------------------------
inline constexpr size_t proof_size = 192;

// Encodes any proof faithfully (an identity point gets the infinity
// encoding, which proof_from_bytes and bellperson then reject).
void proof_to_bytes(const groth16::proof& p, std::span<uint8_t, 192> out);
// Exactly 192 bytes (errc::bad_length otherwise); checked decoding with the
// subgroup test, identity rejected for A, B and C.
groth16::proof proof_from_bytes(std::span<const uint8_t> in);
// A concatenation of proofs (Filecoin's multi-partition proof): the length
// must be a multiple of 192.
std::vector<groth16::proof> proofs_from_bytes(std::span<const uint8_t> in, unsigned threads = 0);
// The same for a multi-partition proof (Filecoin's: one 192-byte proof per
// partition): an error names the partition ("partition 1: proof A: ...").
std::vector<groth16::proof> partition_proofs_from_bytes(std::span<const uint8_t> in);

// ---- verifying key ----------------------------------------------------------------------
inline constexpr size_t vk_size(size_t n_ic) { return 868 + 96 * n_ic; }

std::vector<uint8_t> vk_to_bytes(const groth16::verifying_key& vk);   // rejects identity IC points
// Decodes a verifying key from the front of `in`; `consumed` receives its
// length. Errors are prefixed with `name`.
groth16::verifying_key vk_from_bytes(std::span<const uint8_t> in, const std::string& name,
                                     size_t* consumed = nullptr);
void write_vk(const std::string& path, const groth16::verifying_key& vk);
// The file must be exactly one verifying key.
groth16::verifying_key read_vk(const std::string& path);

// ---- parameters -------------------------------------------------------------------------
// Writes a bellperson-convention key (pk.conv must be bellperson). Refuses
// identity points anywhere bellperson's reader would reject them and vectors
// longer than 2^32 − 1.
void write_params(const std::string& path, const groth16::proving_key& pk);

enum class params_query : uint8_t { h = 0, l = 1, a = 2, b_g1 = 3, b_g2 = 4 };
const char* params_query_name(params_query q) noexcept;

// A .params file mapped read-only. The constructor parses the verifying key
// (checked) and walks the five u32 lengths to record where each vector lies;
// no other point is decoded until asked for. Bytes after b_g2 are allowed and
// ignored (phase-2 MPC files append their transcript there), as in
// bellperson. Decoding is thread-safe (the object is immutable).
class mapped_params {
public:
    explicit mapped_params(const std::string& path, subgroup_check check = subgroup_check::skip);
    explicit mapped_params(mapped_file file, subgroup_check check = subgroup_check::skip);

    const groth16::verifying_key& vk() const noexcept { return vk_; }
    subgroup_check check() const noexcept { return check_; }
    const mapped_file& file() const noexcept { return file_; }
    const std::string& path() const noexcept { return file_.path(); }

    size_t count(params_query q) const noexcept { return vec_[size_t(q)].count; }
    uint64_t offset(params_query q) const noexcept { return vec_[size_t(q)].offset; }   // of the first point
    size_t point_size(params_query q) const noexcept { return q == params_query::b_g2 ? 192 : 96; }
    std::span<const uint8_t> raw(params_query q) const noexcept;
    uint64_t trailing_bytes() const noexcept { return trailing_; }

    // Decodes points [first, first + out.size()) of a G1 vector (h, l, a,
    // b_g1) / of b_g2, with `threads` threads (0 = hardware concurrency).
    // errc::invalid_argument for a range outside the vector or a G2 query
    // passed to decode_g1; decoding errors as described at the top.
    void decode_g1(params_query q, size_t first, std::span<g1_affine> out, unsigned threads = 0) const;
    void decode_g2(size_t first, std::span<g2_affine> out, unsigned threads = 0) const;
    std::vector<g1_affine> decode_g1(params_query q, unsigned threads = 0) const;
    std::vector<g2_affine> decode_b_g2(unsigned threads = 0) const;

    // Every vector decoded into a groth16::proving_key (conv = bellperson,
    // num_inputs = |ic|, num_aux = |l|, domain_size = |h| + 1, which must be
    // a power of two; n_constraints is not recorded in the file and stays 0).
    groth16::proving_key to_proving_key(unsigned threads = 0) const;
    // The same key without its points: vk, conv, num_inputs, num_aux and
    // domain_size set (same checks), the h, l, a, b_g1, b_g2 vectors empty.
    // What a consumer that streams the points from the mapping keeps.
    groth16::proving_key key_shell() const;

private:
    struct vec_range {
        uint64_t offset = 0;
        size_t count = 0;
    };
    void parse();
    mapped_file file_;
    subgroup_check check_;
    groth16::verifying_key vk_;
    std::array<vec_range, 5> vec_{};
    uint64_t trailing_ = 0;
};

// mapped_params(path, check).to_proving_key(threads).
groth16::proving_key read_params(const std::string& path, subgroup_check check = subgroup_check::skip,
                                 unsigned threads = 0);

} // namespace cuzk::io
