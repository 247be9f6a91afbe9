// cuzk serve — circuit names and key file names (circuits.hpp).
#include "circuits.hpp"

#include <fmt/format.h>

#include "cuzk/filecoin/common/types.hpp"
#include "cuzk/filecoin/post/post.hpp"
#include "cuzk/filecoin/update/update.hpp"

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

// Filecoin's published v28 key files (filecoin-project/rust-fil-proofs,
// parameters.json, which lists each .params file with its sector_size):
// "v28-<prefix>-<tree>-<sha256 of the circuit's parameter identifier>.params".
// The tree is the base arity with its sub- and top-tree arities: 8-0-0 up to
// 512 MiB, 8-8-0 for 32 GiB, 8-8-2 for 64 GiB. WinningPoSt and WindowPoSt
// share a prefix and a size; the hash tells them apart: it is the sha256 of
// "FallbackPoSt::PublicParams{sector_size: S, challenge_count: C,
// sector_count: N}", with C = 1 and N = 66 for WinningPoSt (66 challenges,
// one per leaf) and C = 10 and N = 2 (up to 512 MiB), 2349 (32 GiB) or 2300
// (64 GiB) sectors for WindowPoSt (rust-fil-proofs' winning_post_setup_params
// and WINDOW_POST_SECTOR_COUNT); SnapDeals' is the sha256 of
// "empty_sector_update::PublicParams{ sector_nodes: S/32 }". Every hash below
// was recomputed that way and matches the published list; each size has a
// single PoRep file.
struct filecoin_file {
    proof_kind kind;
    int size;          // index into sizes[]
    const char* hash;  // the identifier's sha256
};

constexpr filecoin_file filecoin_files[] = {
    {proof_kind::porep, 0, "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f"},
    {proof_kind::porep, 1, "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb"},
    {proof_kind::porep, 2, "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472"},
    {proof_kind::porep, 3, "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820"},
    {proof_kind::porep, 4, "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2"},
    {proof_kind::winning_post, 0, "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"},
    {proof_kind::winning_post, 1, "50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331"},
    {proof_kind::winning_post, 2, "7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"},
    {proof_kind::winning_post, 3, "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"},
    {proof_kind::winning_post, 4, "b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"},
    {proof_kind::window_post, 0, "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"},
    {proof_kind::window_post, 1, "5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9"},
    {proof_kind::window_post, 2, "0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9"},
    {proof_kind::window_post, 3, "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc"},
    {proof_kind::window_post, 4, "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def"},
    {proof_kind::snap, 0, "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194"},
    {proof_kind::snap, 1, "92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63"},
    {proof_kind::snap, 2, "61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c"},
    {proof_kind::snap, 3, "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18"},
    {proof_kind::snap, 4, "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7"},
};

// The file name of c's key, empty when Filecoin publishes none for it.
std::string filecoin_name(const circuit& c)
{
    const int s = size_index(c.sector_bytes);
    static constexpr const char* trees[] = {"8-0-0", "8-0-0", "8-0-0", "8-8-0", "8-8-2"};
    for (const filecoin_file& f : filecoin_files) {
        if (f.kind != c.kind || f.size != s) continue;
        switch (c.kind) {
        case proof_kind::porep:
            return fmt::format("v28-stacked-proof-of-replication-merkletree-poseidon_hasher-{}-sha256_hasher-{}.params",
                               trees[s], f.hash);
        case proof_kind::snap:
            return fmt::format("v28-empty-sector-update-merkletree-poseidon_hasher-{}-{}.params", trees[s], f.hash);
        case proof_kind::window_post:
        case proof_kind::winning_post:
            return fmt::format("v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-{}-{}.params", trees[s],
                               f.hash);
        }
    }
    return {};
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
    if (std::string f = filecoin_name(c); !f.empty()) names.push_back(std::move(f));
    names.push_back(fmt::format("cuzk-{}.params", c.id()));
    return names;
}

} // namespace cuzk::daemon
