// cuzk — the EmptySectorUpdate circuit (filecoin/update/circuit.hpp): the
// circuit's values from a vanilla partition proof, and its synthesis.
#include "cuzk/filecoin/update/circuit.hpp"

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/filecoin/gadgets/insertion.hpp"
#include "cuzk/filecoin/gadgets/poseidon.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"
#include "filecoin/gadgets/circuit_paths.hpp"

namespace cuzk::filecoin {

namespace g = r1cs::gadgets;

namespace {

[[noreturn]] void bad(const std::string& msg) { throw error(errc::invalid_argument, msg); }

constexpr uint64_t gen_randomness_tag = 1;

g::tree_shape tree_d_shape(size_t levels) { return {g::merkle_hasher::sha256, 2, levels, 0, 0}; }

// Levels of tree D_new below the apex leaves.
size_t apex_depth(const update_config& c) { return c.challenge_bits() - c.partition_bits() - c.apex_bits(); }

std::vector<std::vector<fr>> blank_siblings(const g::tree_shape& shape)
{
    std::vector<std::vector<fr>> out(shape.levels());
    for (size_t l = 0; l < out.size(); ++l) out[l].assign(shape.arity(l) - 1, fr::zero());
    return out;
}

std::vector<std::vector<fr>> siblings_of(const merkle_proof& p, const g::tree_shape& shape, const std::string& what)
{
    std::vector<std::vector<fr>> out;
    for (g::path_level& level : detail::to_path(p, shape, what)) out.push_back(std::move(level.siblings));
    return out;
}

// The single siblings of a binary path's levels [first, first + count).
std::vector<fr> binary_siblings(const merkle_proof& p, size_t first, size_t count, const std::string& what)
{
    if (!p.sub.empty() || !p.top.empty() || p.base.size() < first + count)
        bad(fmt::format("{}: not a binary path of at least {} levels", what, first + count));
    std::vector<fr> out;
    for (size_t l = first; l < first + count; ++l) {
        if (p.base[l].hashes.size() != 1) bad(fmt::format("{}: level {} is not binary", what, l));
        out.push_back(domain_to_fr(p.base[l].hashes[0], what));
    }
    return out;
}

std::vector<g::allocated_num> alloc_all(r1cs::constraint_system& cs, std::span<const fr> values)
{
    std::vector<g::allocated_num> out;
    out.reserve(values.size());
    for (const fr& v : values) out.push_back(g::allocated_num::alloc(cs, v));
    return out;
}

g::allocated_num alloc_public(r1cs::constraint_system& cs, const fr& v)
{
    const g::allocated_num n = g::allocated_num::alloc(cs, v);
    n.inputize(cs);
    return n;
}

g::allocated_num p2c(r1cs::constraint_system& cs, const g::allocated_num& a, const g::allocated_num& b)
{
    const g::allocated_num in[2] = {a, b};
    return g::poseidon_hash(cs, in, poseidon_params(2), poseidon_tag_custom(gen_randomness_tag));
}

// (Σ coeff_i·x_i)·1 = out: the sums of the gadgets below.
void enforce_sum(r1cs::constraint_system& cs, const r1cs::linear_combination& sum, const g::allocated_num& out)
{
    r1cs::linear_combination one, c;
    one += r1cs::variable::one();
    c += out.var;
    cs.enforce(sum, one, c);
}

// gen_challenge_bits: the random bits of every challenge of the partition.
std::vector<std::vector<g::boolean>> challenge_bits(r1cs::constraint_system& cs, const update_config& c,
                                                    const g::allocated_num& comm_r_new,
                                                    const g::allocated_num& partition)
{
    const unsigned bits = c.random_bits(), per = c.challenges_per_digest(), digests = c.digests_per_partition();
    std::vector<std::vector<g::boolean>> out;
    for (unsigned j = 0; j < digests; ++j) {
        const fr index = partition.value * fr::from_u64(digests) + fr::from_u64(j);
        const g::allocated_num digest_index = g::allocated_num::alloc(cs, index);
        r1cs::linear_combination lc;
        lc.add(partition.var, fr::from_u64(digests));
        lc.add(r1cs::variable::one(), fr::from_u64(j));
        enforce_sum(cs, lc, digest_index);
        const std::vector<g::boolean> digest_bits = p2c(cs, comm_r_new, digest_index).to_bits_le_decomp(cs);
        const unsigned take = j + 1 == digests ? c.challenge_count - unsigned(out.size()) : per;
        for (unsigned n = 0; n < take; ++n)
            out.emplace_back(digest_bits.begin() + n * bits, digest_bits.begin() + (n + 1) * bits);
    }
    return out;
}

// get_challenge_high_bits: the h high bits of the challenge, h = hs[i] for
// the one set bit i of h_select.
g::allocated_num challenge_high(r1cs::constraint_system& cs, std::span<const g::boolean> c_bits,
                                std::span<const g::boolean> h_select, const std::array<unsigned, 6>& hs)
{
    r1cs::linear_combination sum;
    fr total = fr::zero();
    for (size_t i = 0; i < hs.size(); ++i) {
        const g::allocated_num high = g::pack_bits(cs, c_bits.subspan(c_bits.size() - hs[i]));
        const fr v = h_select[i].value() ? high.value : fr::zero();
        const g::allocated_num or_zero = g::allocated_num::alloc(cs, v);
        r1cs::linear_combination a, b, cc;
        a += high.var;
        h_select[i].add_to(b, fr::one());
        cc += or_zero.var;
        cs.enforce(a, b, cc);
        sum += or_zero.var;
        total += v;
    }
    const g::allocated_num selected = g::allocated_num::alloc(cs, total);
    enforce_sum(cs, sum, selected);
    return selected;
}

// label_r_new: leaf_r_old + leaf_d_new·rho.
g::allocated_num encode_leaf(r1cs::constraint_system& cs, const g::allocated_num& r_old, const g::allocated_num& d_new,
                             const g::allocated_num& rho)
{
    const g::allocated_num prod = d_new.mul(cs, rho);
    const g::allocated_num r_new = g::allocated_num::alloc(cs, r_old.value + prod.value);
    r1cs::linear_combination sum;
    sum += r_old.var;
    sum += prod.var;
    enforce_sum(cs, sum, r_new);
    return r_new;
}

std::vector<std::vector<g::allocated_num>> alloc_path(r1cs::constraint_system& cs,
                                                      const std::vector<std::vector<fr>>& path)
{
    std::vector<std::vector<g::allocated_num>> out;
    for (const auto& level : path) out.push_back(alloc_all(cs, level));
    return out;
}

} // namespace

g::tree_shape update_circuit::tree_r_shape(const update_config& config)
{
    return detail::poseidon_circuit_shape(config.nodes, config.tree, "update_circuit");
}

update_circuit::update_circuit(const update_config& config) : config_(config)
{
    const g::tree_shape r = tree_r_shape(config);
    apex_leaves_.assign(config.apex_leaf_count, fr::zero());
    partition_path_.assign(config.partition_bits(), fr::zero());
    update_circuit_challenge blank;
    blank.path_r_old = blank.path_r_new = blank_siblings(r);
    blank.path_d.assign(apex_depth(config), fr::zero());
    challenges_.assign(config.challenge_count, blank);
}

update_circuit::update_circuit(const update_config& config, const update_public& pub, unsigned k,
                               const update_partition_proof& proof)
    : config_(config)
{
    const std::vector<fr> inputs = update_public_inputs(config, pub, k);
    k_and_h_select_ = inputs[0], comm_r_old_ = inputs[1], comm_d_new_ = inputs[2], comm_r_new_ = inputs[3];
    if (proof.apex_leaves.size() != config.apex_leaf_count || proof.challenges.size() != config.challenge_count)
        bad(fmt::format("update_circuit: partition {} has {} apex leaves and {} challenge proofs; {} needs {} and {}",
                        k, proof.apex_leaves.size(), proof.challenges.size(), config.name, config.apex_leaf_count,
                        config.challenge_count));
    const g::tree_shape r = tree_r_shape(config);
    comm_c_ = domain_to_fr(proof.comm_c, "update_circuit: comm_c");
    root_r_old_ = domain_to_fr(proof.challenges[0].r_old.root, "update_circuit: challenge 0 r_old.root");
    root_r_new_ = domain_to_fr(proof.challenges[0].r_new.root, "update_circuit: challenge 0 r_new.root");
    for (const domain& d : proof.apex_leaves) apex_leaves_.push_back(domain_to_fr(d, "update_circuit: apex leaf"));
    const size_t below = config.challenge_bits() - config.partition_bits();
    partition_path_ = binary_siblings(proof.challenges[0].d_new, below, config.partition_bits(),
                                      "update_circuit: challenge 0 d_new");
    for (size_t n = 0; n < proof.challenges.size(); ++n) {
        const update_challenge_proof& p = proof.challenges[n];
        const std::string what = fmt::format("update_circuit: partition {} challenge {}", k, n);
        update_circuit_challenge ch;
        ch.leaf_r_old = domain_to_fr(p.r_old.leaf, what + " r_old.leaf");
        ch.leaf_d_new = domain_to_fr(p.d_new.leaf, what + " d_new.leaf");
        ch.path_r_old = siblings_of(p.r_old, r, what + " r_old");
        ch.path_r_new = siblings_of(p.r_new, r, what + " r_new");
        ch.path_d = binary_siblings(p.d_new, 0, apex_depth(config), what + " d_new");
        if (binary_siblings(p.d_new, below, config.partition_bits(), what + " d_new") != partition_path_)
            bad(what + ": d_new's path above the apex differs from challenge 0's");
        challenges_.push_back(std::move(ch));
    }
}

update_shared update_circuit::synthesize_prefix(r1cs::constraint_system& cs) const
{
    const update_config& c = config_;
    const unsigned pbits = c.partition_bits();
    update_shared sh;
    // k and h_select, packed in one public input.
    const g::allocated_num k_and_h = alloc_public(cs, k_and_h_select_);
    const fr::repr kh = k_and_h_select_.to_repr();
    std::vector<g::boolean> kh_bits;
    r1cs::linear_combination decomp;
    for (unsigned i = 0; i < pbits + c.hs.size(); ++i) {
        kh_bits.push_back(g::boolean::alloc(cs, kh.bit(i)));
        decomp.add(kh_bits.back().var(), r1cs::pow2(i));
    }
    enforce_sum(cs, decomp, k_and_h);
    sh.partition_bits.assign(kh_bits.begin(), kh_bits.begin() + pbits);
    sh.h_select.assign(kh_bits.begin() + pbits, kh_bits.end());
    const g::allocated_num partition = g::pack_bits(cs, sh.partition_bits);

    const g::allocated_num comm_r_old = alloc_public(cs, comm_r_old_);
    const g::allocated_num comm_d_new = alloc_public(cs, comm_d_new_);
    const g::allocated_num comm_r_new = alloc_public(cs, comm_r_new_);
    sh.phi = p2c(cs, comm_d_new, comm_r_old);

    const g::allocated_num comm_c = g::allocated_num::alloc(cs, comm_c_);
    sh.root_r_old = g::allocated_num::alloc(cs, root_r_old_);
    sh.root_r_new = g::allocated_num::alloc(cs, root_r_new_);
    sh.apex = alloc_all(cs, apex_leaves_);
    std::vector<std::vector<g::allocated_num>> partition_path;
    for (const fr& s : partition_path_) partition_path.push_back({g::allocated_num::alloc(cs, s)});

    const g::allocated_num pair_old[2] = {comm_c, sh.root_r_old};
    g::constraint::equal(cs, g::poseidon_hash(cs, pair_old), comm_r_old);
    const g::allocated_num pair_new[2] = {comm_c, sh.root_r_new};
    g::constraint::equal(cs, g::poseidon_hash(cs, pair_new), comm_r_new);

    // apex_por: the apex tree, then its root's path to comm_d_new.
    std::vector<g::allocated_num> row = sh.apex;
    while (row.size() > 1) {
        std::vector<g::allocated_num> up;
        for (size_t i = 0; i < row.size(); i += 2) up.push_back(g::sha256_node_circuit(cs, {&row[i], 2}));
        row = std::move(up);
    }
    g::por_no_challenge_input(cs, tree_d_shape(pbits), sh.partition_bits, row[0], partition_path, comm_d_new);
    sh.generated = challenge_bits(cs, c, comm_r_new, partition);
    return sh;
}

void update_circuit::synthesize_challenge(r1cs::constraint_system& cs, const update_shared& sh, size_t n) const
{
    const update_config& c = config_;
    const update_circuit_challenge& ch = challenges_[n];
    const g::tree_shape r_shape = tree_r_shape(c);
    const size_t depth = apex_depth(c);
    std::vector<g::boolean> c_bits = sh.generated[n];
    c_bits.insert(c_bits.end(), sh.partition_bits.begin(), sh.partition_bits.end());
    const g::allocated_num rho = p2c(cs, sh.phi, challenge_high(cs, c_bits, sh.h_select, c.hs));
    const g::allocated_num leaf_r_old = g::allocated_num::alloc(cs, ch.leaf_r_old);
    const g::allocated_num leaf_d_new = g::allocated_num::alloc(cs, ch.leaf_d_new);
    const g::allocated_num leaf_r_new = encode_leaf(cs, leaf_r_old, leaf_d_new, rho);
    const auto path_old = alloc_path(cs, ch.path_r_old);
    g::por_no_challenge_input(cs, r_shape, c_bits, leaf_r_old, path_old, sh.root_r_old);
    const auto path_new = alloc_path(cs, ch.path_r_new);
    g::por_no_challenge_input(cs, r_shape, c_bits, leaf_r_new, path_new, sh.root_r_new);
    const g::allocated_num apex_leaf =
        g::select(cs, sh.apex, std::span<const g::boolean>(c_bits).subspan(depth, c.apex_bits()));
    std::vector<std::vector<g::allocated_num>> path_d;
    for (const fr& s : ch.path_d) path_d.push_back({g::allocated_num::alloc(cs, s)});
    g::por_no_challenge_input(cs, tree_d_shape(depth), std::span<const g::boolean>(c_bits).first(depth), leaf_d_new,
                              path_d, apex_leaf);
}

void update_circuit::synthesize(r1cs::constraint_system& cs) const
{
    const update_shared sh = synthesize_prefix(cs);
    for (size_t n = 0; n < challenges_.size(); ++n) synthesize_challenge(cs, sh, n);
}

} // namespace cuzk::filecoin
