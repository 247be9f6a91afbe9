// cuzk — the C1 output file (Filecoin's SealCommitPhase1Output) as JSON:
// a writer that reproduces serde_json's compact output byte for byte, and a
// strict streaming reader.
//
// The format, as checked against the upstream Rust types (filecoin-ffi hands
// the struct to serde_json::to_vec; serde's derive writes struct fields in
// declaration order, externally tags enums, and serde_json writes no
// whitespace):
//
//   {"registered_proof":"StackedDrg32GiBV1_1",
//    "vanilla_proofs":{"StackedDrg32GiBV1":[[Proof, ...per challenge], ...per partition]},
//    "comm_r":B32,"comm_d":B32,"replica_id":B32,"seed":B32,"ticket":B32}
//
// - B32 is a JSON array of 32 numbers 0..255. That holds for the plain
//   [u8; 32] commitments, seed and ticket, and also for the hash domains:
//   PoseidonDomain wraps the field's byte representation ([u8; 32],
//   little-endian) and Sha256Domain wraps [u8; 32]; serde_json writes a
//   newtype struct as its content, so both are 32-number arrays too.
// - registered_proof is the RegisteredSealProof variant name (one of 20).
//   The vanilla_proofs variant carries only the sector size and is always
//   named "...V1": "StackedDrg2KiBV1" for V1, V1_1, the synthetic and the NI
//   proofs alike.
// - Proof = {"comm_d_proofs":MP,"comm_r_last_proof":MP,
//            "replica_column_proofs":{"c_x":CP,"drg_parents":[CP x6],"exp_parents":[CP x8]},
//            "labeling_proofs":[LP x layers],"encoding_proof":LP}
//   LP = {"parents":[B32 x37],"layer_index":u32,"node":u64}: the parents
//   list is always the full 37 entries (the layer-1 base parents repeated);
//   its PhantomData member is skipped by serde, so it does not appear.
//   CP = {"column":{"index":u32,"rows":[B32 x layers],"_h":null},"inclusion_proof":MP}:
//   the column's PhantomData is *not* skipped, and serde_json writes it as null.
// - MP (MerkleProof) = {"data":{VARIANT:{...}}}, the variant chosen by the
//   tree shape: "Single" (no sub level) = {"root":B32,"leaf":B32,"path":PATH};
//   "Sub" = {"base_proof":PATH,"sub_proof":PATH,"root":B32,"leaf":B32};
//   "Top" = {"base_proof":PATH,"sub_proof":PATH,"top_proof":PATH,"root":B32,"leaf":B32}.
//   PATH = {"path":[{"hashes":[B32 x arity-1],"index":n}, ...leaf level first]}.
//   comm_d proofs are Single over a binary tree (log2(nodes) levels).
//
// The reader is stricter than serde_json: members must come in exactly the
// order above (the only order serde_json writes), unknown and duplicate
// members are refused, keys may not use escapes, numbers are plain decimal
// integers in range (bytes 0..255, path indices below the arity, column and
// challenge nodes below the node count, layer indices 1..layers), and every
// array has its exact length: partitions and challenges per partition from
// the registered proof, layers rows and labeling proofs, 6 DRG and 8
// expander parents, 37 labeling parents, arity-1 hashes per level and the
// tree's level counts. JSON whitespace between tokens is accepted (so a
// pretty-printed file reads), nothing may follow the object. It only checks
// structure: paths are not verified against their roots here.
//
// Custom shapes (cuzk's extension; Filecoin never writes it): a config with
// registered_id < 0 is written with "registered_proof":"custom", then a
// member "cuzk_config":{"nodes":u64,"layers":n,"partitions":n,"challenges":n,
// "tree":"8-8-0","porep_id":B32,"api":"1.0"|"1.1"|"1.2"} placed second (so
// that a streaming reader knows the shape before the proofs), and the
// vanilla_proofs variant "Custom". The reader rebuilds it with
// seal_config::custom; the node count must be a power of two (the comm_d
// tree is binary), partitions and challenges per partition are at most 1024.
//
// Errors: read_c1_json throws cuzk::error(errc::bad_format) with
// "<source>: <json path>: <what was expected>, found <what> (byte <offset>)",
// e.g. "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path.path[3].hashes[0][7]:
// expected a byte 0..255, found 256 (byte 1234)".
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "cuzk/filecoin/porep/vanilla.hpp"

namespace cuzk::filecoin {

// Writes `c1` as serde_json's compact form, streaming (no document tree is
// built). The Merkle variant of each proof follows its content (top level
// present: Top; sub level present: Sub; else Single); counts are not checked
// here (read_c1_json checks them). Throws invalid_argument when the config
// names a registered proof but differs from it, or a custom config is not
// writable (see above); io when the stream fails.
void write_c1_json(const c1_output& c1, std::ostream& out);

// The same, appended to `out`.
void write_c1_json(const c1_output& c1, std::string& out);

// Parses and structurally validates a C1 JSON text (see above). `source_name`
// (a file name) prefixes every error message.
c1_output read_c1_json(std::string_view text, const std::string& source_name);

} // namespace cuzk::filecoin
