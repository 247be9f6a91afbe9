// cuzk — insertion into a vector by index bits (filecoin/gadgets/insertion.hpp).
#include "cuzk/filecoin/gadgets/insertion.hpp"

#include "cuzk/error.hpp"
#include "r1cs/gadget_constrain.hpp"

namespace cuzk::r1cs::gadgets {

using detail::constrain;

allocated_num pick(constraint_system& cs, const boolean& cond, const allocated_num& a, const allocated_num& b)
{
    const allocated_num c = allocated_num::alloc(cs, cond.value() ? a.value : b.value);
    // (b − a)·cond = b − c
    constrain(cs, [&](linear_combination& la, linear_combination& lb, linear_combination& lc) {
        la += b.var;
        la -= a.var;
        cond.add_to(lb, fr::one());
        lc += b.var;
        lc -= c.var;
    });
    return c;
}

allocated_num select(constraint_system& cs, std::span<const allocated_num> from, std::span<const boolean> path_bits)
{
    if (from.size() != (size_t(1) << path_bits.size()))
        throw error(errc::invalid_argument, "select: from.size() must be 2^path_bits.size()");
    std::vector<allocated_num> state(from.begin(), from.end());
    size_t half = from.size() / 2;
    for (size_t k = path_bits.size(); k-- > 0; half /= 2) {
        std::vector<allocated_num> next;
        next.reserve(half);
        for (size_t j = 0; j < half; ++j) next.push_back(pick(cs, path_bits[k], state[half + j], state[j]));
        state = std::move(next);
    }
    return state[0];
}

namespace {

std::vector<allocated_num> insert_2(constraint_system& cs, const allocated_num& a, const boolean& b0,
                                    const allocated_num& x)
{
    const allocated_num p0 = pick(cs, b0, x, a);
    const allocated_num p1 = pick(cs, b0, a, x);
    return {p0, p1};
}

// Inserting A into [b, c, d]: position n ∈ 0..3 by (b0, b1).
std::vector<allocated_num> insert_4(constraint_system& cs, const allocated_num& a, std::span<const boolean> bits,
                                    std::span<const allocated_num> e)
{
    const boolean &b0 = bits[0], &b1 = bits[1];
    const allocated_num &b = e[0], &c = e[1], &d = e[2];
    const allocated_num p0_x0 = pick(cs, b0, b, a);
    const allocated_num p0 = pick(cs, b1, b, p0_x0);
    const allocated_num p1_x0 = pick(cs, b0, a, b);
    const allocated_num p1 = pick(cs, b1, c, p1_x0);
    const allocated_num p2_x1 = pick(cs, b0, d, a);
    const allocated_num p2 = pick(cs, b1, p2_x1, c);
    const allocated_num p3_x1 = pick(cs, b0, a, d);
    const allocated_num p3 = pick(cs, b1, p3_x1, d);
    return {p0, p1, p2, p3};
}

// Inserting A into [b..h]: position n ∈ 0..7 by (b0, b1, b2). Positions 0
// and 4 use "b0 nor b1" (n ≡ 0 mod 4), positions 3 and 7 "b0 and b1".
std::vector<allocated_num> insert_8(constraint_system& cs, const allocated_num& a, std::span<const boolean> bits,
                                    std::span<const allocated_num> x)
{
    for (size_t i = 0; i < 2; ++i)
        if (bits[i].get_kind() != boolean::kind::is)
            throw error(errc::invalid_argument, "insert: size-8 index bits must be allocated and not negated");
    const boolean &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
    const allocated_num &b = x[0], &c = x[1], &d = x[2], &e = x[3], &f = x[4], &g = x[5], &h = x[6];
    const boolean nor01 = boolean::and_(cs, !b0, !b1);   // nor of two plain bits
    const boolean and01 = boolean::and_(cs, b0, b1);

    std::vector<allocated_num> p;
    p.push_back(pick(cs, b2, b, pick(cs, nor01, a, b)));
    p.push_back(pick(cs, b2, c, pick(cs, b1, c, pick(cs, b0, a, b))));
    p.push_back(pick(cs, b2, d, pick(cs, b1, pick(cs, b0, d, a), c)));
    p.push_back(pick(cs, b2, e, pick(cs, and01, a, d)));
    p.push_back(pick(cs, b2, pick(cs, nor01, a, f), e));
    p.push_back(pick(cs, b2, pick(cs, b1, g, pick(cs, b0, a, f)), f));
    p.push_back(pick(cs, b2, pick(cs, b1, pick(cs, b0, h, a), g), g));
    p.push_back(pick(cs, b2, pick(cs, and01, a, h), h));
    return p;
}

} // namespace

std::vector<allocated_num> insert(constraint_system& cs, const allocated_num& element, std::span<const boolean> bits,
                                  std::span<const allocated_num> elements)
{
    const size_t size = elements.size() + 1;
    if (bits.size() >= 32 || size != (size_t(1) << bits.size()))
        throw error(errc::invalid_argument, "insert: elements.size() + 1 must be 2^bits.size()");
    if (size == 2) return insert_2(cs, element, bits[0], elements[0]);
    if (size == 4) return insert_4(cs, element, bits, elements);
    if (size == 8) return insert_8(cs, element, bits, elements);

    // General case: position p takes candidate[n] where candidate[n] is what
    // position p holds when the element is inserted at n.
    std::vector<allocated_num> out;
    std::vector<allocated_num> choices(size);
    for (size_t pos = 0; pos < size; ++pos) {
        for (size_t n = 0; n < size; ++n)
            choices[n] = pos < n ? elements[pos] : pos == n ? element : elements[pos - 1];
        out.push_back(select(cs, choices, bits));
    }
    return out;
}

} // namespace cuzk::r1cs::gadgets
