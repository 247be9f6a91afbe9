// cuzk — boolean gadgets (gadgets/boolean.hpp).
#include "cuzk/r1cs/gadgets/boolean.hpp"

#include "cuzk/error.hpp"
#include "gadget_constrain.hpp"

namespace cuzk::r1cs::gadgets {

namespace {

using detail::constrain;

inline const fr& two()
{
    static const fr t = fr::from_u64(2);
    return t;
}

} // namespace

// ---- allocated_bit --------------------------------------------------------------------------

allocated_bit allocated_bit::alloc(constraint_system& cs, bool value)
{
    const variable v = cs.alloc_bit(value);
    // (1 − v)·v = 0
    constrain(cs, [&](linear_combination& a, linear_combination& b, linear_combination&) {
        a += variable::one();
        a -= v;
        b += v;
    });
    return {v, value};
}

allocated_bit allocated_bit::xor_(constraint_system& cs, const allocated_bit& x, const allocated_bit& y)
{
    const bool val = x.value_ != y.value_;
    const variable v = cs.alloc_bit(val);
    // (2x)·y = x + y − v
    constrain(cs, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a.add(x.var_, two());
        b += y.var_;
        c += x.var_;
        c += y.var_;
        c -= v;
    });
    return {v, val};
}

allocated_bit allocated_bit::and_(constraint_system& cs, const allocated_bit& x, const allocated_bit& y)
{
    const bool val = x.value_ && y.value_;
    const variable v = cs.alloc_bit(val);
    // x·y = v
    constrain(cs, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a += x.var_;
        b += y.var_;
        c += v;
    });
    return {v, val};
}

allocated_bit allocated_bit::and_not(constraint_system& cs, const allocated_bit& x, const allocated_bit& y)
{
    const bool val = x.value_ && !y.value_;
    const variable v = cs.alloc_bit(val);
    // x·(1 − y) = v
    constrain(cs, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a += x.var_;
        b += variable::one();
        b -= y.var_;
        c += v;
    });
    return {v, val};
}

allocated_bit allocated_bit::nor(constraint_system& cs, const allocated_bit& x, const allocated_bit& y)
{
    const bool val = !x.value_ && !y.value_;
    const variable v = cs.alloc_bit(val);
    // (1 − x)·(1 − y) = v
    constrain(cs, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a += variable::one();
        a -= x.var_;
        b += variable::one();
        b -= y.var_;
        c += v;
    });
    return {v, val};
}

// ---- boolean -----------------------------------------------------------------------------------

void boolean::add_to(linear_combination& lc, const fr& c) const
{
    switch (kind_) {
    case kind::constant:
        if (value_) lc.add(variable::one(), c);
        break;
    case kind::is: lc.add(var_, c); break;
    case kind::is_not:
        lc.add(variable::one(), c);
        lc.add(var_, -c);
        break;
    }
}

boolean boolean::xor_(constraint_system& cs, const boolean& a, const boolean& b)
{
    // Constants fold (false first, then true, as bellpepper matches them).
    if (a.is_constant() && !a.value_) return b;
    if (b.is_constant() && !b.value_) return a;
    if (a.is_constant()) return !b;
    if (b.is_constant()) return !a;
    // ¬x ⊕ ¬y = x ⊕ y. For one negated operand, x ⊕ ¬y = ¬(x ⊕ y) with the
    // plain operand x first, so its variable is the doubled one.
    if (a.kind_ == b.kind_) return allocated_bit::xor_(cs, a.bit(), b.bit());
    const boolean& plain = a.kind_ == kind::is ? a : b;
    const boolean& negated = a.kind_ == kind::is ? b : a;
    return !boolean(allocated_bit::xor_(cs, plain.bit(), negated.bit()));
}

boolean boolean::and_(constraint_system& cs, const boolean& a, const boolean& b)
{
    if ((a.is_constant() && !a.value_) || (b.is_constant() && !b.value_)) return constant(false);
    if (a.is_constant()) return b;
    if (b.is_constant()) return a;
    const bool na = a.kind_ == kind::is_not, nb = b.kind_ == kind::is_not;
    if (!na && !nb) return allocated_bit::and_(cs, a.bit(), b.bit());
    if (!na && nb) return allocated_bit::and_not(cs, a.bit(), b.bit());
    if (na && !nb) return allocated_bit::and_not(cs, b.bit(), a.bit());
    return allocated_bit::nor(cs, a.bit(), b.bit());
}

namespace {

bool is_const(const boolean& x, bool v) { return x.is_constant() && x.value() == v; }

} // namespace

boolean boolean::sha256_ch(constraint_system& cs, const boolean& a, const boolean& b, const boolean& c)
{
    const bool val = a.value_ ? b.value_ : c.value_;
    // The constant cases, tried in bellpepper's order. A constant-true `a`
    // is not folded: it falls through to the general constraint.
    if (a.is_constant() && b.is_constant() && c.is_constant()) return constant(val);
    if (is_const(a, false)) return c;
    if (is_const(b, false)) return and_(cs, !a, c);
    if (is_const(c, false)) return and_(cs, a, b);
    if (is_const(c, true)) return !and_(cs, a, !b);
    if (is_const(b, true)) return !and_(cs, !a, !c);
    const variable v = cs.alloc_bit(val);
    // (b − c)·a = ch − c
    constrain(cs, [&](linear_combination& la, linear_combination& lb, linear_combination& lc) {
        b.add_to(la, fr::one());
        c.add_to(la, -fr::one());
        a.add_to(lb, fr::one());
        lc += v;
        c.add_to(lc, -fr::one());
    });
    return allocated_bit(v, val);
}

boolean boolean::sha256_maj(constraint_system& cs, const boolean& a, const boolean& b, const boolean& c)
{
    const bool val = (int(a.value_) + int(b.value_) + int(c.value_)) >= 2;
    // The constant cases in bellpepper's order; x ∨ y is built as ¬(¬x ∧ ¬y).
    if (a.is_constant() && b.is_constant() && c.is_constant()) return constant(val);
    if (is_const(a, false)) return and_(cs, b, c);
    if (is_const(b, false)) return and_(cs, a, c);
    if (is_const(c, false)) return and_(cs, a, b);
    if (is_const(c, true)) return !and_(cs, !a, !b);
    if (is_const(b, true)) return !and_(cs, !a, !c);
    if (is_const(a, true)) return !and_(cs, !b, !c);
    // maj = bc + a·(b + c − 2bc): the result is allocated before bc, and
    // the constraint is (2bc − b − c)·a = bc − maj.
    const variable v = cs.alloc_bit(val);
    const boolean bc = and_(cs, b, c);
    constrain(cs, [&](linear_combination& la, linear_combination& lb, linear_combination& lc) {
        bc.add_to(la, two());
        b.add_to(la, -fr::one());
        c.add_to(la, -fr::one());
        a.add_to(lb, fr::one());
        bc.add_to(lc, fr::one());
        lc -= v;
    });
    return allocated_bit(v, val);
}

void boolean::enforce_equal(constraint_system& cs, const boolean& a, const boolean& b)
{
    // 0·0 = a − b. Two constants need no constraint when equal and can never
    // be satisfied when not.
    if (a.is_constant() && b.is_constant()) {
        if (a.value_ != b.value_) throw error(errc::unsatisfied, "boolean::enforce_equal: unequal constants");
        return;
    }
    // With one constant operand x and the other y: 1 − y when x is true,
    // y when x is false.
    const boolean& x = a.is_constant() ? a : b;
    const boolean& y = a.is_constant() ? b : a;
    constrain(cs, [&](linear_combination&, linear_combination&, linear_combination& lc) {
        if (!x.is_constant()) {
            a.add_to(lc, fr::one());
            b.add_to(lc, -fr::one());
        } else if (x.value_) {
            lc += variable::one();
            y.add_to(lc, -fr::one());
        } else {
            y.add_to(lc, fr::one());
        }
    });
}

} // namespace cuzk::r1cs::gadgets
