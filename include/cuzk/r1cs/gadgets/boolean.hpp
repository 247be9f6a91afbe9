// cuzk — boolean gadgets: allocated bits and constant/negated booleans.
//
// An allocated_bit is an aux variable b constrained to {0, 1} by
// b·(1 − b) = 0 (equivalently (1 − b)·b = 0: one constraint). The binary
// operations allocate their result and enforce it with one constraint; the
// result needs no booleanity constraint of its own, because the constraint
// determines it uniquely from boolean operands:
//     xor      c = a + b − 2ab       (2a)·b = a + b − c
//     and      c = ab                a·b = c
//     and_not  c = a(1 − b)          a·(1 − b) = c
//     nor      c = (1 − a)(1 − b)    (1 − a)·(1 − b) = c
//
// A boolean is a constant, an allocated bit, or the negation of one. Negation
// is free (it only flips the tag: the linear combination of ¬b is 1 − b), and
// operations with constants fold without constraints, so circuits with fixed
// parts (the SHA-256 IV, padding) cost only what is variable.
//
// Values are always tracked (as bool) next to the variables. On a system that
// is not a witness generator they are whatever the circuit passed; on one that
// does not keep constraints (witness_cs) no linear combination is ever built.
#pragma once

#include <cstdint>

#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk::r1cs::gadgets {

class allocated_bit {
public:
    // A new aux bit with the booleanity constraint.
    static allocated_bit alloc(constraint_system& cs, bool value);

    static allocated_bit xor_(constraint_system& cs, const allocated_bit& a, const allocated_bit& b);
    static allocated_bit and_(constraint_system& cs, const allocated_bit& a, const allocated_bit& b);
    static allocated_bit and_not(constraint_system& cs, const allocated_bit& a, const allocated_bit& b);   // a ∧ ¬b
    static allocated_bit nor(constraint_system& cs, const allocated_bit& a, const allocated_bit& b);       // ¬a ∧ ¬b

    variable var() const noexcept { return var_; }
    bool value() const noexcept { return value_; }

private:
    friend class boolean;
    allocated_bit(variable v, bool value) : var_(v), value_(value) {}
    variable var_;
    bool value_;
};

class boolean {
public:
    enum class kind : uint8_t { constant, is, is_not };

    boolean() = default;   // the constant false
    boolean(const allocated_bit& b) : var_(b.var_), value_(b.value_), kind_(kind::is) {}
    static boolean constant(bool v)
    {
        boolean r;
        r.value_ = v;
        return r;
    }
    // A new allocated bit (with its booleanity constraint).
    static boolean alloc(constraint_system& cs, bool v) { return allocated_bit::alloc(cs, v); }

    kind get_kind() const noexcept { return kind_; }
    bool is_constant() const noexcept { return kind_ == kind::constant; }
    bool value() const noexcept { return value_; }
    // The underlying variable (undefined for constants).
    variable var() const noexcept { return var_; }

    boolean operator!() const
    {
        boolean r = *this;
        r.value_ = !value_;
        if (kind_ == kind::is) r.kind_ = kind::is_not;
        else if (kind_ == kind::is_not) r.kind_ = kind::is;
        return r;
    }

    // Appends c·self to lc: c·v, c·ONE − c·v, or c·ONE / nothing.
    void add_to(linear_combination& lc, const fr& c) const;
    linear_combination lc(const fr& c = fr::one()) const
    {
        linear_combination r;
        add_to(r, c);
        return r;
    }

    // The operations below reproduce bellpepper-core's Boolean gadgets
    // exactly (which constant cases fold, operand order, constraint form and
    // allocation order), so circuits built from them match bellperson's.
    //
    // xor: one negated operand gives ¬(x ⊕ y) with the plain operand's
    // variable doubled in (2x)·y = x + y − r.
    static boolean xor_(constraint_system& cs, const boolean& a, const boolean& b);
    static boolean and_(constraint_system& cs, const boolean& a, const boolean& b);
    static boolean or_(constraint_system& cs, const boolean& a, const boolean& b) { return !and_(cs, !a, !b); }
    // SHA-256's choose: a ? b : c. One constraint (b − c)·a = ch − c; a
    // constant-true `a` is not folded (as upstream).
    static boolean sha256_ch(constraint_system& cs, const boolean& a, const boolean& b, const boolean& c);
    // SHA-256's majority. maj is allocated, then bc = b∧c, then
    // (2bc − b − c)·a = bc − maj: two constraints.
    static boolean sha256_maj(constraint_system& cs, const boolean& a, const boolean& b, const boolean& c);
    // Enforces a = b by 0·0 = a − b (1 − y or y when one side is a constant);
    // two unequal constants throw errc::unsatisfied.
    static void enforce_equal(constraint_system& cs, const boolean& a, const boolean& b);

private:
    // The allocated bit under a non-constant boolean, with the bit's own value.
    allocated_bit bit() const { return {var_, kind_ == kind::is ? value_ : !value_}; }

    variable var_{};
    bool value_ = false;
    kind kind_ = kind::constant;
};

} // namespace cuzk::r1cs::gadgets
