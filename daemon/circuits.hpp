// cuzk serve — the circuits the daemon proves: a proof kind and a sector
// size, named as curio's daemon names them ("porep-32g", "wpost-32g",
// "winning-32g", "snap-32g", …; cuzk extends the scheme to every size:
// "porep-2k", "snap-8m"), and where each circuit's key file is looked for.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuzk::daemon {

enum class proof_kind : uint8_t { porep, snap, window_post, winning_post };

// "porep-c2", "snap-update", "window-post", "winning-post" (GetStatus queues)
const char* queue_name(proof_kind k) noexcept;
// "porep_c2", "snap_update", "window_post", "winning_post" (metric labels)
const char* metric_label(proof_kind k) noexcept;

struct circuit {
    proof_kind kind = proof_kind::porep;
    uint64_t sector_bytes = 0;
    // A registered proof of this circuit (RegisteredSealProof,
    // RegisteredUpdateProof or RegisteredPoStProof number), the one a key
    // is made or checked for: every registered proof of one kind and size
    // has the same circuit.
    int registered = 0;

    std::string id() const;   // "porep-32g"
    friend bool operator==(const circuit&, const circuit&) = default;
};

// The circuit of a kind's registered proof; nullopt when the number is not
// one of that kind's (PoSt: 0–4 are WinningPoSt, 5–14 WindowPoSt).
std::optional<circuit> circuit_of(proof_kind kind, uint64_t registered);
// The circuit named `id` ("porep-32g"); nullopt for an unknown id.
std::optional<circuit> circuit_by_id(const std::string& id);

// Key files to try for `c` in the parameter cache, in order: Filecoin's
// published v28 file for the circuit (every PoRep, SnapDeals, WinningPoSt
// and WindowPoSt circuit of the five sector sizes: the names in
// rust-fil-proofs' parameters.json), then "cuzk-<id>.params" (e.g. a key
// `cuzk porep setup` wrote for a test size).
std::vector<std::string> key_file_names(const circuit& c);

} // namespace cuzk::daemon
