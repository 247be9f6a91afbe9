// cuzk — Filecoin PoRep shared vocabulary: domain <-> Fr, hex, tree shapes,
// and the table of registered seal proofs.
#include "cuzk/filecoin/common/types.hpp"

#include <fmt/format.h>

#include <limits>

#include "cuzk/error.hpp"
#include "cuzk/util/hex.hpp"

namespace cuzk::filecoin {

namespace {

[[noreturn]] void bad(const std::string& msg) { throw error(errc::invalid_argument, msg); }

int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Sizes of the five registered sector sizes, in registry order (id % 5).
struct size_row {
    const char* label;   // as it appears in the proof names
    unsigned log2_nodes;
    unsigned layers;
    unsigned partitions;           // interactive (and synthetic) PoRep
    unsigned min_challenges;       // interactive (and synthetic) PoRep
    unsigned ni_partitions;        // non-interactive PoRep
    unsigned ni_min_challenges;
    tree_shape tree;
};

constexpr size_row k_sizes[5] = {
    {"2KiB", 6, 2, 1, 2, 13, 26, {8, 0, 0}},
    {"8MiB", 18, 2, 1, 2, 13, 26, {8, 0, 0}},
    {"512MiB", 24, 2, 1, 2, 13, 26, {8, 0, 0}},
    {"32GiB", 30, 11, 10, 176, 126, 2253, {8, 8, 0}},
    {"64GiB", 31, 11, 10, 176, 126, 2253, {8, 8, 2}},
};

// The most challenges one partition circuit holds.
constexpr unsigned k_max_challenges_per_partition = 18;

// k when nodes == base_trees * base^k for some k >= 1, else 0.
unsigned base_tree_height(uint64_t nodes, const tree_shape& t)
{
    const uint64_t trees = t.base_trees();
    if (nodes == 0 || nodes % trees != 0) return 0;
    uint64_t per_tree = nodes / trees;
    unsigned levels = 0;
    while (per_tree > 1 && per_tree % t.base == 0) {
        per_tree /= t.base;
        ++levels;
    }
    return per_tree == 1 ? levels : 0;
}

bool tree_arity(unsigned a) { return a == 2 || a == 4 || a == 8; }

} // namespace

fr domain_to_fr(const domain& d, std::string_view what)
{
    fr x;
    if (!fr::from_bytes_le(d.data(), x))
        throw error(errc::non_canonical,
                    fmt::format("{}: {} is not a canonical field element (>= r)", what, to_hex(d)));
    return x;
}

domain fr_to_domain(const fr& x)
{
    domain d{};
    x.to_bytes_le(d.data());
    return d;
}

domain prover_id_of_actor(uint64_t actor_id)
{
    domain d{};
    size_t i = 0;
    do {
        uint8_t b = uint8_t(actor_id & 0x7f);
        actor_id >>= 7;
        if (actor_id) b |= 0x80;
        d[i++] = b;
    } while (actor_id);
    return d;
}

domain parse_hex32(std::string_view hex, std::string_view what)
{
    if (hex.size() >= 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) hex.remove_prefix(2);
    if (hex.size() != 64)
        bad(fmt::format("{}: expected 64 hex digits (32 bytes), got {} characters", what, hex.size()));
    domain d{};
    for (size_t i = 0; i < 32; ++i) {
        const int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) bad(fmt::format("{}: non-hex character near position {}", what, 2 * i));
        d[i] = uint8_t(hi << 4 | lo);
    }
    return d;
}

std::string to_hex(const uint8_t* bytes, size_t n) { return cuzk::to_hex(std::span<const uint8_t>(bytes, n)); }

std::string tree_shape::name() const { return fmt::format("{}-{}-{}", base, sub, top); }

bool tree_shape::poseidon_arities() const
{
    return tree_arity(base) && (!sub || tree_arity(sub)) && (!top || (sub && tree_arity(top)));
}

unsigned poseidon_tree_base_height(uint64_t leaves, const tree_shape& shape)
{
    if (!shape.poseidon_arities())
        bad(fmt::format("poseidon tree: shape {} (arities 2, 4 or 8; a top level needs a sub level)", shape.name()));
    if (leaves == 0 || leaves % shape.base_trees() != 0)
        bad("poseidon tree: leaf count is not a multiple of the base tree count");
    const unsigned height = base_tree_height(leaves, shape);
    if (height == 0)
        bad(fmt::format("poseidon tree: {} leaves do not make base trees of a power of the arity", leaves));
    return height;
}

seal_config seal_config::custom(uint64_t nodes, unsigned layers, unsigned challenges, tree_shape tree,
                                const porep_id_t& porep_id, api_version api, unsigned partitions)
{
    if (tree.base < 2) bad(fmt::format("seal_config: tree.base = {} (arity must be >= 2)", tree.base));
    if (tree.sub == 1) bad("seal_config: tree.sub = 1 (use 0 for no sub level)");
    if (tree.top == 1) bad("seal_config: tree.top = 1 (use 0 for no top level)");
    if (tree.top != 0 && tree.sub == 0) bad("seal_config: tree.top is set but tree.sub is 0");
    if (base_tree_height(nodes, tree) == 0)
        bad(fmt::format("seal_config: nodes = {} is not {} x {}^k with k >= 1 (tree {})", nodes,
                        tree.base_trees(), tree.base, tree.name()));
    if (nodes > (uint64_t(1) << 32))
        bad(fmt::format("seal_config: nodes = {} exceeds 2^32", nodes));
    if (layers < 1 || layers > 15) bad(fmt::format("seal_config: layers = {} is outside 1..15", layers));
    if (challenges < 1) bad("seal_config: challenges per partition must be >= 1");
    if (partitions < 1) bad("seal_config: partitions must be >= 1");
    seal_config c;
    c.nodes = nodes;
    c.layers = layers;
    c.partitions = partitions;
    c.challenges_per_partition = challenges;
    c.tree = tree;
    c.porep_id = porep_id;
    c.api = api;
    c.registered_id = -1;
    c.name = "custom";
    return c;
}

porep_id_t porep_id_of(uint64_t registered_id)
{
    porep_id_t id{};
    for (int i = 0; i < 8; ++i) id[i] = uint8_t(registered_id >> (8 * i));
    // bytes 8..15 hold the nonce, 0 for every published proof; the rest stay zero.
    return id;
}

seal_config registered_seal_proof(int id)
{
    if (id < 0 || id > 19) bad(fmt::format("registered_seal_proof: id {} is outside 0..19", id));
    const size_row& row = k_sizes[id % 5];
    const int family = id / 5;   // 0: V1, 1: V1_1, 2: V1_1 synthetic, 3: V1_2 non-interactive
    static constexpr const char* suffix[4] = {"V1", "V1_1", "V1_1_Feat_SyntheticPoRep",
                                              "V1_2_Feat_NonInteractivePoRep"};
    seal_config c;
    c.nodes = uint64_t(1) << row.log2_nodes;
    c.layers = row.layers;
    const bool ni = family == 3;
    c.partitions = ni ? row.ni_partitions : row.partitions;
    const unsigned min_total = ni ? row.ni_min_challenges : row.min_challenges;
    c.challenges_per_partition = (min_total + c.partitions - 1) / c.partitions;
    if (c.challenges_per_partition > k_max_challenges_per_partition)
        throw error(errc::internal, fmt::format("registered_seal_proof {}: {} challenges per partition", id,
                                                c.challenges_per_partition));
    c.tree = row.tree;
    c.porep_id = porep_id_of(uint64_t(id));
    // Upstream: V1 is API 1.0, V1_1 is 1.1, and both feature families (despite
    // the synthetic proof's "V1_1" name) are API 1.2.
    c.api = family == 0 ? api_version::v1_0 : family == 1 ? api_version::v1_1 : api_version::v1_2;
    c.registered_id = id;
    c.name = fmt::format("StackedDrg{}{}", row.label, suffix[family]);
    return c;
}

uint64_t parse_sector_size(std::string_view s)
{
    const std::string orig(s);
    uint64_t value = 0;
    size_t i = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
        if (value > (std::numeric_limits<uint64_t>::max() - 9) / 10) bad("sector size: '" + orig + "' overflows");
        value = value * 10 + uint64_t(s[i] - '0');
    }
    if (i == 0) bad("sector size: '" + orig + "' does not start with a number");
    const std::string_view unit = s.substr(i);
    unsigned shift = 0;
    if (unit == "KiB") shift = 10;
    else if (unit == "MiB") shift = 20;
    else if (unit == "GiB") shift = 30;
    else if (!unit.empty() && unit != "B")
        bad("sector size: '" + orig + "' has an unknown unit (use KiB, MiB, GiB or plain bytes)");
    if (value > (std::numeric_limits<uint64_t>::max() >> shift)) bad("sector size: '" + orig + "' overflows");
    value <<= shift;
    if (value == 0 || value % 32 != 0)
        bad("sector size: '" + orig + "' is not a positive multiple of 32 bytes (one node)");
    return value;
}

} // namespace cuzk::filecoin
