// cuzk — boolean gadgets (gadgets/boolean.hpp).
#include "cuzk/r1cs/gadgets/boolean.hpp"

namespace cuzk::r1cs::gadgets {

namespace {

// Builds the three combinations only when the system keeps them.
template <class F>
inline void constrain(constraint_system& cs, F&& make)
{
    if (!cs.keeps_constraints()) {
        cs.enforce_count();
        return;
    }
    linear_combination a, b, c;
    make(a, b, c);
    cs.enforce(a, b, c);
}

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
    if (a.is_constant()) return a.value_ ? !b : b;
    if (b.is_constant()) return b.value_ ? !a : a;
    // ¬x ⊕ y = ¬(x ⊕ y), ¬x ⊕ ¬y = x ⊕ y
    const boolean r = allocated_bit::xor_(cs, a.bit(), b.bit());
    return a.kind_ == b.kind_ ? r : !r;
}

boolean boolean::and_(constraint_system& cs, const boolean& a, const boolean& b)
{
    if (a.is_constant()) return a.value_ ? b : constant(false);
    if (b.is_constant()) return b.value_ ? a : constant(false);
    const bool na = a.kind_ == kind::is_not, nb = b.kind_ == kind::is_not;
    if (!na && !nb) return allocated_bit::and_(cs, a.bit(), b.bit());
    if (!na && nb) return allocated_bit::and_not(cs, a.bit(), b.bit());
    if (na && !nb) return allocated_bit::and_not(cs, b.bit(), a.bit());
    return allocated_bit::nor(cs, a.bit(), b.bit());
}

boolean boolean::sha256_ch(constraint_system& cs, const boolean& a, const boolean& b, const boolean& c)
{
    // ch = a ? b : c; with a constant operand it is a selection, an and or an or.
    if (a.is_constant()) return a.value_ ? b : c;
    if (b.is_constant() && c.is_constant()) {
        if (b.value_ == c.value_) return constant(b.value_);
        return b.value_ ? a : !a;
    }
    if (b.is_constant()) return b.value_ ? or_(cs, a, c) : and_(cs, !a, c);
    if (c.is_constant()) return c.value_ ? or_(cs, !a, b) : and_(cs, a, b);
    const bool val = a.value_ ? b.value_ : c.value_;
    const variable v = cs.alloc_bit(val);
    // a·(b − c) = ch − c
    constrain(cs, [&](linear_combination& la, linear_combination& lb, linear_combination& lc) {
        a.add_to(la, fr::one());
        b.add_to(lb, fr::one());
        c.add_to(lb, -fr::one());
        lc += v;
        c.add_to(lc, -fr::one());
    });
    return allocated_bit(v, val);
}

boolean boolean::sha256_maj(constraint_system& cs, const boolean& a, const boolean& b, const boolean& c)
{
    // With one constant operand x and the others y, z: maj = x ? y ∨ z : y ∧ z.
    const boolean* ops[3] = {&a, &b, &c};
    for (int i = 0; i < 3; ++i)
        if (ops[i]->is_constant()) {
            const boolean& y = *ops[(i + 1) % 3];
            const boolean& z = *ops[(i + 2) % 3];
            return ops[i]->value_ ? or_(cs, y, z) : and_(cs, y, z);
        }
    // t = b∧c; maj = t + a·(b + c − 2t): a = 0 gives b∧c, a = 1 gives b + c − bc = b∨c.
    const boolean t = and_(cs, b, c);
    const bool val = (int(a.value_) + int(b.value_) + int(c.value_)) >= 2;
    const variable v = cs.alloc_bit(val);
    constrain(cs, [&](linear_combination& la, linear_combination& lb, linear_combination& lc) {
        a.add_to(la, fr::one());
        b.add_to(lb, fr::one());
        c.add_to(lb, fr::one());
        t.add_to(lb, -two());
        lc += v;
        t.add_to(lc, -fr::one());
    });
    return allocated_bit(v, val);
}

void boolean::enforce_equal(constraint_system& cs, const boolean& a, const boolean& b)
{
    // (a − b)·1 = 0; two unequal constants give the unsatisfiable 1·1 = 0.
    constrain(cs, [&](linear_combination& la, linear_combination& lb, linear_combination&) {
        a.add_to(la, fr::one());
        b.add_to(la, -fr::one());
        lb += variable::one();
    });
}

} // namespace cuzk::r1cs::gadgets
