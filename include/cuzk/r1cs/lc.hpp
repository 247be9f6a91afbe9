// cuzk — variables and linear combinations of an R1CS.
//
// Variable numbering follows bellperson (and the Groth16 keys here): two index
// spaces, inputs (public) and aux (private). Input 0 is the constant ONE; every
// constraint system allocates it itself, with value 1. Where one index space is
// needed (the PCE, the keys), input i is column i and aux j is column
// num_inputs + j ("inputs first, then aux").
//
// A linear_combination is a plain list of (variable, coefficient) terms. It
// does not merge repeated variables while it is built (appending is what the
// gadgets do millions of times); compact() merges them and drops zero
// coefficients, and the PCE builder does the same for every recorded row, so
// repeated or cancelling terms never reach a matrix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk::r1cs {

struct variable {
    uint32_t index = 0;
    bool is_input = false;

    // The constant ONE: input 0.
    static constexpr variable one() { return {0, true}; }
    static constexpr variable input(uint32_t i) { return {i, true}; }
    static constexpr variable aux(uint32_t j) { return {j, false}; }

    friend constexpr bool operator==(const variable&, const variable&) = default;
};

// c·v, the operand type of "lc + c * v".
struct scaled_variable {
    fr coeff;
    variable var;
};

inline scaled_variable operator*(const fr& c, variable v) { return {c, v}; }
inline scaled_variable operator*(variable v, const fr& c) { return {c, v}; }

class linear_combination {
public:
    struct term {
        variable var;
        fr coeff;
    };

    linear_combination() = default;
    // 1·v (implicit, so a variable can be passed where an LC is expected).
    linear_combination(variable v) { terms_.push_back({v, fr::one()}); }
    linear_combination(const scaled_variable& s) { terms_.push_back({s.var, s.coeff}); }

    static linear_combination zero() { return {}; }
    // c·ONE.
    static linear_combination constant(const fr& c) { return scaled_variable{c, variable::one()}; }

    const std::vector<term>& terms() const noexcept { return terms_; }
    size_t size() const noexcept { return terms_.size(); }
    bool empty() const noexcept { return terms_.empty(); }
    void reserve(size_t n) { terms_.reserve(n); }
    void clear() noexcept { terms_.clear(); }

    // Appends c·v.
    linear_combination& add(variable v, const fr& c)
    {
        terms_.push_back({v, c});
        return *this;
    }

    linear_combination& operator+=(variable v) { return add(v, fr::one()); }
    linear_combination& operator-=(variable v) { return add(v, -fr::one()); }
    linear_combination& operator+=(const scaled_variable& s) { return add(s.var, s.coeff); }
    linear_combination& operator-=(const scaled_variable& s) { return add(s.var, -s.coeff); }
    linear_combination& operator+=(const linear_combination& o)
    {
        terms_.insert(terms_.end(), o.terms_.begin(), o.terms_.end());
        return *this;
    }
    linear_combination& operator-=(const linear_combination& o)
    {
        terms_.reserve(terms_.size() + o.terms_.size());
        for (const term& t : o.terms_) terms_.push_back({t.var, -t.coeff});
        return *this;
    }
    // Scales every coefficient by c.
    linear_combination& operator*=(const fr& c)
    {
        for (term& t : terms_) t.coeff *= c;
        return *this;
    }
    // Appends c·o (each coefficient multiplied by c).
    linear_combination& add_scaled(const linear_combination& o, const fr& c)
    {
        terms_.reserve(terms_.size() + o.terms_.size());
        for (const term& t : o.terms_) terms_.push_back({t.var, t.coeff * c});
        return *this;
    }

    template <class T>
    friend linear_combination operator+(linear_combination l, const T& r)
    {
        l += r;
        return l;
    }
    template <class T>
    friend linear_combination operator-(linear_combination l, const T& r)
    {
        l -= r;
        return l;
    }
    friend linear_combination operator*(linear_combination l, const fr& c)
    {
        l *= c;
        return l;
    }
    friend linear_combination operator*(const fr& c, linear_combination l)
    {
        l *= c;
        return l;
    }
    linear_combination operator-() const
    {
        linear_combination r = *this;
        r *= -fr::one();
        return r;
    }

    // Σ coeff·value. inputs[i] is the value of input i (inputs[0] = 1 by the
    // ONE convention), aux[j] of aux j. A variable outside the spans throws
    // cuzk::error(errc::invalid_argument).
    fr evaluate(std::span<const fr> inputs, std::span<const fr> aux) const;

    // Merges terms of the same variable (sums their coefficients), drops zero
    // coefficients, and orders the rest inputs first, then aux, by index.
    void compact();
    // this += c·o for a compact this and o (as compact() leaves them): one
    // merge of the two sorted lists, the result compact too. Equal to
    // add_scaled then compact(), without the sort.
    linear_combination& merge_scaled(std::span<const term> o, const fr& c);

private:
    std::vector<term> terms_;
};

inline linear_combination operator+(variable a, variable b) { return linear_combination(a) + b; }
inline linear_combination operator-(variable a, variable b) { return linear_combination(a) - b; }

// 2^k as a field element, 0 <= k < 256 (a shared table; used for bit packing).
const fr& pow2(unsigned k);

} // namespace cuzk::r1cs
