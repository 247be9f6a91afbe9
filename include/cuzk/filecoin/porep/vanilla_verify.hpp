// cuzk — checking the vanilla proofs of a C1 output before proving them.
//
// verify_c1 checks, for every partition and challenge, everything the PoRep
// circuit will constrain (so a C1 file that passes gives a satisfiable
// circuit) and everything that ties the file together:
//   - the challenges are those of (replica_id, seed) for each partition;
//   - the comm_d path is a binary SHA-256 path from the challenged node to comm_d;
//   - each column (the node's and its 6 DRG and 8 expander parents', at the
//     graph's parent indices) hashes to its tree-C leaf, and every tree-C path
//     reaches the same root comm_c; the replica path reaches comm_r_last;
//     comm_r = Poseidon2(comm_c, comm_r_last);
//   - every layer's label of the node recomputes from the parents' rows;
//   - the replica leaf is the last label plus the data leaf;
//   - with the prover and sector given, replica_id is theirs (and the ticket's).
// The first failure throws errc::bad_format naming the field in the C1 JSON's
// terms (e.g. "vanilla_proofs[0][3].replica_column_proofs.drg_parents[2]
// .inclusion_proof: root differs from c_x's (comm_c)").
#pragma once

#include "cuzk/filecoin/porep/vanilla.hpp"

namespace cuzk::filecoin {

// Who sealed the sector. The C1 output does not carry it; given, the check
// also derives replica_id from it and the ticket (which binds the ticket).
struct c1_identity {
    domain prover_id{};
    uint64_t sector_id = 0;
};

void verify_c1(const c1_output& c1, unsigned threads = 0, const c1_identity* identity = nullptr);

} // namespace cuzk::filecoin
