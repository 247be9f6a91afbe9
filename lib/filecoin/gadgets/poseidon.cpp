// cuzk — the Poseidon circuit (gadgets/poseidon.hpp).
#include "cuzk/filecoin/gadgets/poseidon.hpp"

#include <optional>
#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "r1cs/gadget_constrain.hpp"

namespace cuzk::r1cs::gadgets {

using detail::constrain;

namespace {

// One state element: a variable, or a linear combination not yet allocated
// (neptune's Elt). The combination is only built on systems that keep
// constraints; the value is always tracked.
struct elt {
    bool allocated = false;
    variable var{};
    linear_combination lc;
    fr value{};
};

class poseidon_circuit {
public:
    poseidon_circuit(constraint_system& cs, const filecoin::poseidon_constants& c)
        : cs_(cs), c_(c), keep_(cs.keeps_constraints()), t_(c.width())
    {
    }

    allocated_num hash(std::span<const allocated_num> preimage, const fr& tag);

private:
    allocated_num hash_values(std::span<const allocated_num> preimage, const fr& tag);
    void sbox_values(fr& x, const fr* post);
    void full_round_values(fr* x, const fr*& key, bool with_key, const fr* matrix);

    elt constant(const fr& v) const;
    void add_scaled(elt& acc, const elt& e, const fr& k) const;
    allocated_num ensure_allocated(const elt& e);
    elt sbox_first(const allocated_num& x, const fr& pre, const fr& post);
    elt sbox(const elt& e, std::optional<fr> post);
    const fr& next_constant() { return c_.compressed_round_constants()[offset_++]; }

    void full_round(bool first, bool last);
    void partial_round();
    void linear_layer();
    void dense_product(std::span<const fr> m);
    void sparse_product(std::span<const fr> wv);

    constraint_system& cs_;
    const filecoin::poseidon_constants& c_;
    bool keep_;
    unsigned t_;
    std::vector<elt> s_;
    size_t offset_ = 0;   // into the compressed round constants
    unsigned round_ = 0;  // linear layers applied so far
};

elt poseidon_circuit::constant(const fr& v) const
{
    elt e;
    e.value = v;
    if (keep_ && !v.is_zero()) e.lc.add(variable::one(), v);   // compact: no zero term
    return e;
}

void poseidon_circuit::add_scaled(elt& acc, const elt& e, const fr& k) const
{
    acc.value += e.value * k;
    if (!keep_) return;
    // Every element's combination is kept compact, so adding is one merge.
    if (e.allocated) {
        const linear_combination::term t{e.var, fr::one()};
        acc.lc.merge_scaled(std::span(&t, 1), k);
    } else {
        acc.lc.merge_scaled(e.lc.terms(), k);
    }
}

allocated_num poseidon_circuit::ensure_allocated(const elt& e)
{
    if (e.allocated) return {e.var, e.value};
    const allocated_num v = allocated_num::alloc(cs_, e.value);
    // lc·1 = v
    constrain(cs_, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a = e.lc;
        b += variable::one();
        c += v.var;
    });
    return v;
}

// The first round's S-box on a preimage element: (x + pre)^5 + post.
elt poseidon_circuit::sbox_first(const allocated_num& x, const fr& pre, const fr& post)
{
    const fr xp = x.value + pre;
    const allocated_num l2 = allocated_num::alloc(cs_, xp.sqr());
    constrain(cs_, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a += x.var;
        a.add(variable::one(), pre);
        b = a;
        c += l2.var;
    });
    const allocated_num l4 = l2.square(cs_);
    const allocated_num l5 = allocated_num::alloc(cs_, l4.value * xp + post);
    // (x + pre)·l4 = l5 − post
    constrain(cs_, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a += x.var;
        a.add(variable::one(), pre);
        b += l4.var;
        c += l5.var;
        c.add(variable::one(), -post);
    });
    return {true, l5.var, {}, l5.value};
}

// l^5 (+ post) of an element, allocating it first if needed.
elt poseidon_circuit::sbox(const elt& e, std::optional<fr> post)
{
    const allocated_num l = ensure_allocated(e);
    const allocated_num l2 = l.square(cs_);
    const allocated_num l4 = l2.square(cs_);
    const allocated_num l5 = allocated_num::alloc(cs_, l4.value * l.value + post.value_or(fr::zero()));
    // l·l4 = l5 (− post)
    constrain(cs_, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a += l.var;
        b += l4.var;
        c += l5.var;
        if (post) c.add(variable::one(), -*post);
    });
    return {true, l5.var, {}, l5.value};
}

void poseidon_circuit::full_round(bool first, bool last)
{
    const size_t base = offset_;
    // The first round adds t constants before its S-boxes; every round but
    // the last adds t after them.
    if (first) offset_ += t_;
    const size_t post_at = offset_;
    if (first || !last) offset_ += t_;
    const auto crc = c_.compressed_round_constants();
    for (unsigned i = 0; i < t_; ++i) {
        const std::optional<fr> post = (first || !last) ? std::optional<fr>(crc[post_at + i]) : std::nullopt;
        if (first && i == 0) {
            // The domain tag is a constant: its S-box is a constant too.
            const fr x = s_[0].value + crc[base];
            s_[0] = constant(x.sqr().sqr() * x + *post);
        } else if (first) {
            s_[i] = sbox_first({s_[i].var, s_[i].value}, crc[base + i], *post);
        } else {
            s_[i] = sbox(s_[i], post);
        }
    }
    linear_layer();
}

void poseidon_circuit::partial_round()
{
    const fr k = next_constant();
    s_[0] = sbox(s_[0], k);
    linear_layer();
}

// The matrix of this round (neptune's choice): the pre-sparse matrix after
// the last full round of the first half, then one sparse matrix per partial
// round, M everywhere else.
void poseidon_circuit::linear_layer()
{
    const unsigned half = filecoin::poseidon_constants::full_rounds / 2;
    const unsigned rp = c_.partial_rounds();
    if (round_ == half - 1) dense_product(c_.pre_sparse());
    else if (round_ >= half && round_ < half + rp)
        sparse_product(c_.sparse().subspan(size_t(round_ - half) * (2 * t_ - 1), 2 * t_ - 1));
    else dense_product(c_.mds());
    ++round_;
}

// y_j = Σ_i x_i·m[i][j].
void poseidon_circuit::dense_product(std::span<const fr> m)
{
    std::vector<elt> out(t_);
    for (unsigned j = 0; j < t_; ++j)
        for (unsigned i = 0; i < t_; ++i) add_scaled(out[j], s_[i], m[size_t(i) * t_ + j]);
    s_ = std::move(out);
}

// y_0 = Σ_i x_i·w_i; y_j = x_j + x_0·v_{j−1}.
void poseidon_circuit::sparse_product(std::span<const fr> wv)
{
    std::vector<elt> out(t_);
    for (unsigned i = 0; i < t_; ++i) add_scaled(out[0], s_[i], wv[i]);
    for (unsigned j = 1; j < t_; ++j) {
        add_scaled(out[j], s_[j], fr::one());
        add_scaled(out[j], s_[0], wv[t_ + j - 1]);
    }
    s_ = std::move(out);
}

allocated_num poseidon_circuit::hash(std::span<const allocated_num> preimage, const fr& tag)
{
    if (preimage.size() != c_.arity())
        throw error(errc::invalid_argument, "poseidon_hash: preimage has " + std::to_string(preimage.size()) +
                                                " elements, the constants are for arity " +
                                                std::to_string(c_.arity()));
    if (!keep_) return hash_values(preimage, tag);
    s_.assign(t_, elt{});
    s_[0] = constant(tag);
    for (unsigned i = 1; i < t_; ++i) s_[i] = {true, preimage[i - 1].var, {}, preimage[i - 1].value};

    const unsigned half = filecoin::poseidon_constants::full_rounds / 2;
    full_round(true, false);
    for (unsigned r = 1; r < half; ++r) full_round(false, false);
    for (unsigned r = 0; r < c_.partial_rounds(); ++r) partial_round();
    for (unsigned r = 1; r < half; ++r) full_round(false, false);
    full_round(false, true);
    return ensure_allocated(s_[1]);
}

// ---- values only ---------------------------------------------------------------------------------
// On a system that keeps no constraints the combinations are never built,
// so the state is plain values: the same rounds as hash() above (neptune's
// fast form), the same allocations in the same order, each constraint only
// counted. This is the native permutation's cost plus one alloc per
// variable, instead of an elt (value and empty combination) per term.

// The variable l, then l², l⁴ and l⁵ (+ post): 4 variables, 4 constraints.
void poseidon_circuit::sbox_values(fr& x, const fr* post)
{
    cs_.alloc(x);
    const fr l2 = x.sqr(), l4 = l2.sqr();
    cs_.alloc(l2);
    cs_.alloc(l4);
    x = post ? l4 * x + *post : l4 * x;
    cs_.alloc(x);
    for (int i = 0; i < 4; ++i) cs_.enforce_count();
}

// A full round after the first: every element's S-box (+ its key when the
// round has one), then the matrix.
void poseidon_circuit::full_round_values(fr* x, const fr*& key, bool with_key, const fr* matrix)
{
    for (unsigned i = 0; i < t_; ++i) sbox_values(x[i], with_key ? key + i : nullptr);
    if (with_key) key += t_;
    filecoin::poseidon_dense_layer(x, matrix, t_);
}

allocated_num poseidon_circuit::hash_values(std::span<const allocated_num> preimage, const fr& tag)
{
    const unsigned half = filecoin::poseidon_constants::full_rounds / 2;
    fr x[filecoin::poseidon_max_width];
    x[0] = tag;
    for (unsigned i = 1; i < t_; ++i) x[i] = preimage[i - 1].value;
    const fr* pre = c_.compressed_round_constants().data();
    const fr* key = pre + t_;
    // First round: the tag's S-box is a constant; a preimage element's is
    // l2 = (x + pre)², l4 = l2², l5 = l4·(x + pre) + post (3 each).
    {
        const fr x0 = x[0] + pre[0];
        x[0] = x0.sqr().sqr() * x0 + key[0];
        for (unsigned i = 1; i < t_; ++i) {
            const fr xp = x[i] + pre[i];
            const fr l2 = xp.sqr(), l4 = l2.sqr();
            cs_.alloc(l2);
            cs_.alloc(l4);
            x[i] = l4 * xp + key[i];
            cs_.alloc(x[i]);
            for (int k = 0; k < 3; ++k) cs_.enforce_count();
        }
        key += t_;
        filecoin::poseidon_dense_layer(x, c_.mds().data(), t_);
    }
    for (unsigned r = 1; r + 1 < half; ++r) full_round_values(x, key, true, c_.mds().data());
    full_round_values(x, key, true, c_.pre_sparse().data());
    const fr* sparse = c_.sparse().data();
    for (unsigned r = 0; r < c_.partial_rounds(); ++r, sparse += 2 * t_ - 1) {
        sbox_values(x[0], key++);
        filecoin::poseidon_sparse_layer(x, sparse, t_);
    }
    for (unsigned r = 1; r < half; ++r) full_round_values(x, key, true, c_.mds().data());
    full_round_values(x, key, false, c_.mds().data());
    // The output: state[1] allocated (lc·1 = v).
    const variable out = cs_.alloc(x[1]);
    cs_.enforce_count();
    return {out, x[1]};
}
} // namespace

allocated_num poseidon_hash(constraint_system& cs, std::span<const allocated_num> preimage,
                            const filecoin::poseidon_constants& c, const fr& tag)
{
    return poseidon_circuit(cs, c).hash(preimage, tag);
}

allocated_num poseidon_hash(constraint_system& cs, std::span<const allocated_num> preimage)
{
    const unsigned arity = unsigned(preimage.size());
    return poseidon_hash(cs, preimage, filecoin::poseidon_params(arity), filecoin::poseidon_tag_merkle(arity));
}

allocated_num poseidon_hash_md(constraint_system& cs, std::span<const allocated_num> elements)
{
    constexpr size_t arity = 36;
    if (elements.size() < 2) throw error(errc::invalid_argument, "poseidon_hash_md: needs at least 2 elements");
    allocated_num acc = elements[0];
    std::vector<allocated_num> preimage(arity);
    for (size_t at = 1; at < elements.size(); at += arity - 1) {
        const size_t n = std::min(arity - 1, elements.size() - at);
        preimage[0] = acc;
        for (size_t i = 0; i < n; ++i) preimage[i + 1] = elements[at + i];
        for (size_t i = n + 1; i < arity; ++i) preimage[i] = allocated_num::alloc(cs, fr::zero());
        acc = poseidon_hash(cs, preimage);
    }
    return acc;
}

} // namespace cuzk::r1cs::gadgets
