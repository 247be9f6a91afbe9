// cuzk — PoSt vanilla proofs as bincode bytes: the writer and the strict
// reader (post/bincode.hpp; the layout is docs/FORMATS.md §5.5). The
// MerkleProofs are read and written by common/bincode_merkle.cpp.
#include "cuzk/filecoin/post/bincode.hpp"

#include <fmt/format.h>

#include <string>

#include "filecoin/common/bincode_merkle.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/poseidon_tree.hpp"

namespace cuzk::filecoin {

namespace {

using detail::byte_reader;
using detail::merkle_layout;
using detail::bad_config;
using detail::proof_name;

// Base levels of the config's tree: nodes = base_trees · base^k, k >= 1.
uint64_t base_levels(const post_config& c, std::string_view what)
{
    try {
        return poseidon_tree_base_height(c.nodes, c.tree);
    } catch (const error&) {
        bad_config(what, fmt::format("nodes = {} does not fit tree {}", c.nodes, c.tree.name()));
    }
}

// What the config fixes about every inclusion proof.
merkle_layout layout_of(const post_config& c, std::string_view what)
{
    const uint64_t levels = base_levels(c, what);
    return detail::make_merkle_layout(c.tree, levels, fmt::format("tree {} of {} nodes", c.tree.name(), c.nodes));
}

proof_name inclusion_proof(size_t n) { return {"inclusion_proofs", n}; }

} // namespace

std::vector<uint8_t> post_vanilla_to_bincode(const post_sector_proof& proof, const post_config& config)
{
    const merkle_layout lay = layout_of(config, "post_vanilla_to_bincode");
    for (size_t n = 0; n < proof.inclusion_proofs.size(); ++n)
        detail::check_merkle_fits(proof.inclusion_proofs[n], lay, inclusion_proof(n), "post_vanilla_to_bincode");
    std::vector<uint8_t> out;
    out.reserve(8 + 32 + 8 + 8 + proof.inclusion_proofs.size() * lay.bytes + 64);
    detail::put_le(out, proof.sector_id, 8);
    detail::put_domain(out, proof.comm_r);
    detail::put_le(out, 1, 8);   // vanilla_proof.sectors: one SectorProof
    detail::put_le(out, proof.inclusion_proofs.size(), 8);
    for (const merkle_proof& p : proof.inclusion_proofs) detail::put_merkle(out, p, lay);
    detail::put_domain(out, proof.comm_c);
    detail::put_domain(out, proof.comm_r_last);
    return out;
}

post_sector_proof post_vanilla_from_bincode(std::span<const uint8_t> bytes, const post_config& config,
                                            std::string_view what)
{
    const merkle_layout lay = layout_of(config, what);
    byte_reader r(bytes, what);
    post_sector_proof out;
    out.sector_id = r.le(8, "sector_id");
    r.get(out.comm_r, "comm_r");
    size_t at = r.pos();
    const uint64_t sectors = r.le(8, "vanilla_proof.sectors");
    if (sectors != 1)
        r.fail(errc::bad_format, at, "vanilla_proof.sectors",
               fmt::format("{} sector proofs; a single sector's vanilla proof holds 1", sectors));
    at = r.pos();
    const uint64_t count = r.le(8, "inclusion_proofs");
    if (count > 0) {   // bytes of another tree shape: name the variant before the sizes disagree
        byte_reader peek = r;
        detail::read_merkle_variant(peek, inclusion_proof(0), lay);
    }
    if (r.left() < 64 || count > (r.left() - 64) / lay.bytes)   // comm_c and comm_r_last follow the proofs
        r.fail(errc::bad_length, at, "inclusion_proofs",
               fmt::format("{} proofs of {} bytes (and 64 more) do not fit the {} bytes left", count, lay.bytes,
                           r.left()));
    out.inclusion_proofs.reserve(count);
    for (size_t n = 0; n < count; ++n) out.inclusion_proofs.push_back(detail::read_merkle(r, inclusion_proof(n), lay));
    r.get(out.comm_c, "comm_c");
    r.get(out.comm_r_last, "comm_r_last");
    if (r.left() != 0)
        r.fail(errc::bad_length, r.pos(), "end", fmt::format("{} bytes after the vanilla proof", r.left()));
    return out;
}

} // namespace cuzk::filecoin
