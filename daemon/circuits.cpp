// cuzk serve — circuit names and key file names (circuits.hpp).
#include "circuits.hpp"

#include <fmt/format.h>

#include "cuzk/filecoin/post.hpp"
#include "cuzk/filecoin/types.hpp"
#include "cuzk/filecoin/update.hpp"

namespace cuzk::daemon {

namespace {

namespace fc = filecoin;

// The five sector sizes of the registered proofs, in registered order.
constexpr uint64_t sizes[] = {uint64_t(2) << 10, uint64_t(8) << 20, uint64_t(512) << 20, uint64_t(32) << 30,
                              uint64_t(64) << 30};
constexpr const char* size_tokens[] = {"2k", "8m", "512m", "32g", "64g"};

int size_index(uint64_t bytes)
{
    for (int i = 0; i < 5; ++i)
        if (sizes[i] == bytes) return i;
    return -1;
}

const char* kind_prefix(proof_kind k)
{
    switch (k) {
    case proof_kind::porep: return "porep";
    case proof_kind::snap: return "snap";
    case proof_kind::window_post: return "wpost";
    case proof_kind::winning_post: return "winning";
    }
    return "?";
}

// Filecoin's published key files for the circuits of curio's daemon ids
// (filecoin-proofs' parameters.json names).
const char* filecoin_name(const circuit& c)
{
    const int s = size_index(c.sector_bytes);
    if (c.kind == proof_kind::porep && s == 3)
        return "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
               "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params";
    if (c.kind == proof_kind::porep && s == 4)
        return "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
               "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.params";
    if (c.kind == proof_kind::window_post && s == 3)
        return "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
               "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params";
    if (c.kind == proof_kind::winning_post && s == 3)
        return "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
               "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.params";
    if (c.kind == proof_kind::snap && s == 3)
        return "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
               "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params";
    if (c.kind == proof_kind::snap && s == 4)
        return "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-"
               "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.params";
    return nullptr;
}

} // namespace

const char* queue_name(proof_kind k) noexcept
{
    switch (k) {
    case proof_kind::porep: return "porep-c2";
    case proof_kind::snap: return "snap-update";
    case proof_kind::window_post: return "window-post";
    case proof_kind::winning_post: return "winning-post";
    }
    return "?";
}

const char* metric_label(proof_kind k) noexcept
{
    switch (k) {
    case proof_kind::porep: return "porep_c2";
    case proof_kind::snap: return "snap_update";
    case proof_kind::window_post: return "window_post";
    case proof_kind::winning_post: return "winning_post";
    }
    return "?";
}

std::string circuit::id() const
{
    const int s = size_index(sector_bytes);
    return fmt::format("{}-{}", kind_prefix(kind), s < 0 ? fmt::format("{}b", sector_bytes) : size_tokens[s]);
}

std::optional<circuit> circuit_of(proof_kind kind, uint64_t registered)
{
    try {
        switch (kind) {
        case proof_kind::porep: {
            // The interactive PoRep proofs: V1 (0–4) and V1_1 (5–9); the
            // synthetic and non-interactive ones are not what Curio's C2 sends.
            if (registered > 9) return std::nullopt;
            return circuit{kind, fc::registered_seal_proof(int(registered)).sector_bytes(), int(registered)};
        }
        case proof_kind::snap:
            if (registered > 4) return std::nullopt;
            return circuit{kind, fc::registered_update_proof(int(registered)).sector_bytes(), int(registered)};
        case proof_kind::window_post:
            if (registered < 5 || registered > 14) return std::nullopt;
            return circuit{kind, fc::registered_post_proof(int(registered)).sector_bytes(), int(registered)};
        case proof_kind::winning_post:
            if (registered > 4) return std::nullopt;
            return circuit{kind, fc::registered_post_proof(int(registered)).sector_bytes(), int(registered)};
        }
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

std::optional<circuit> circuit_by_id(const std::string& id)
{
    // The registered proof used for each id: PoRep V1_1 (5 + size), SnapDeals
    // V1 (size), WindowPoSt V1_2 (10 + size), WinningPoSt V1 (size).
    for (int s = 0; s < 5; ++s)
        for (proof_kind k : {proof_kind::porep, proof_kind::snap, proof_kind::window_post, proof_kind::winning_post}) {
            const int reg = k == proof_kind::porep ? 5 + s : k == proof_kind::window_post ? 10 + s : s;
            const std::optional<circuit> c = circuit_of(k, uint64_t(reg));
            if (c && c->id() == id) return c;
        }
    return std::nullopt;
}

std::vector<std::string> key_file_names(const circuit& c)
{
    std::vector<std::string> names;
    if (const char* f = filecoin_name(c)) names.emplace_back(f);
    names.push_back(fmt::format("cuzk-{}.params", c.id()));
    return names;
}

} // namespace cuzk::daemon
