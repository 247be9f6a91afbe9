// cuzk — linear combinations and the constraint systems (constraint_system.hpp).
#include "cuzk/r1cs/constraint_system.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "cuzk/error.hpp"

namespace cuzk::r1cs {

// ---- linear_combination ------------------------------------------------------------

fr linear_combination::evaluate(std::span<const fr> inputs, std::span<const fr> aux) const
{
    fr acc = fr::zero();
    for (const term& t : terms_) {
        const std::span<const fr>& s = t.var.is_input ? inputs : aux;
        if (t.var.index >= s.size())
            throw error(errc::invalid_argument,
                        std::string("linear_combination::evaluate: ") + (t.var.is_input ? "input " : "aux ") +
                            std::to_string(t.var.index) + " is outside the assignment (" +
                            std::to_string(s.size()) + " values)");
        acc += t.coeff * s[t.var.index];
    }
    return acc;
}

void linear_combination::compact()
{
    // Order inputs before aux, then by index; equal variables become adjacent.
    auto key = [](const term& t) { return (uint64_t(t.var.is_input ? 0 : 1) << 32) | t.var.index; };
    std::sort(terms_.begin(), terms_.end(), [&](const term& x, const term& y) { return key(x) < key(y); });
    size_t out = 0;
    for (size_t i = 0; i < terms_.size();) {
        term t = terms_[i++];
        while (i < terms_.size() && terms_[i].var == t.var) t.coeff += terms_[i++].coeff;
        if (!t.coeff.is_zero()) terms_[out++] = t;
    }
    terms_.resize(out);
}

linear_combination& linear_combination::merge_scaled(std::span<const term> o, const fr& c)
{
    auto key = [](const variable& v) { return (uint64_t(v.is_input ? 0 : 1) << 32) | v.index; };
    thread_local std::vector<term> out;
    out.clear();
    out.reserve(terms_.size() + o.size());
    size_t i = 0, j = 0;
    while (i < terms_.size() || j < o.size()) {
        if (j == o.size() || (i < terms_.size() && key(terms_[i].var) < key(o[j].var))) {
            out.push_back(terms_[i++]);
        } else if (i == terms_.size() || key(o[j].var) < key(terms_[i].var)) {
            const fr k = o[j].coeff * c;
            if (!k.is_zero()) out.push_back({o[j].var, k});
            ++j;
        } else {
            const fr k = terms_[i].coeff + o[j].coeff * c;
            if (!k.is_zero()) out.push_back({terms_[i].var, k});
            ++i;
            ++j;
        }
    }
    terms_.swap(out);
    return *this;
}

const fr& pow2(unsigned k)
{
    static const std::array<fr, 256> table = [] {
        std::array<fr, 256> t;
        t[0] = fr::one();
        for (size_t i = 1; i < t.size(); ++i) t[i] = t[i - 1].dbl();
        return t;
    }();
    if (k >= 256) throw error(errc::invalid_argument, "pow2: exponent " + std::to_string(k) + " >= 256");
    return table[k];
}

// ---- test_cs ---------------------------------------------------------------------------

std::optional<size_t> test_cs::first_unsatisfied() const
{
    for (size_t i = 0; i < constraints_.size(); ++i) {
        const constraint& k = constraints_[i];
        const fr a = k.a.evaluate(inputs_, aux_);
        const fr b = k.b.evaluate(inputs_, aux_);
        const fr c = k.c.evaluate(inputs_, aux_);
        if (a * b != c) return i;
    }
    return std::nullopt;
}

void checking_cs::enforce(const linear_combination& a, const linear_combination& b, const linear_combination& c)
{
    if (!first_bad_ && a.evaluate(inputs_, aux_) * b.evaluate(inputs_, aux_) != c.evaluate(inputs_, aux_))
        first_bad_ = constraints_;
    ++constraints_;
}

// ---- recording_cs ----------------------------------------------------------------------

recording_cs::recording_cs(size_t first_input, size_t first_aux) : num_inputs_(first_input), num_aux_(first_aux)
{
    if (first_input == 0) throw error(errc::invalid_argument, "recording_cs: input 0 is ONE; a part's inputs start at 1");
}

variable recording_cs::alloc(const fr&)
{
    if (num_aux_ >= pce_builder::aux_tag)
        throw error(errc::unsupported, "recording_cs: more than 2^31 aux variables");
    return variable::aux(uint32_t(num_aux_++));
}

variable recording_cs::alloc_input(const fr&)
{
    if (num_inputs_ >= pce_builder::aux_tag)
        throw error(errc::unsupported, "recording_cs: more than 2^31 inputs");
    return variable::input(uint32_t(num_inputs_++));
}

namespace {

void to_entries(const linear_combination& lc, std::vector<pce_builder::entry>& out)
{
    out.clear();
    out.reserve(lc.size());
    for (const auto& t : lc.terms())
        out.push_back({t.var.is_input ? t.var.index : (pce_builder::aux_tag | t.var.index), t.coeff});
}

} // namespace

void recording_cs::enforce(const linear_combination& a, const linear_combination& b, const linear_combination& c)
{
    for (const auto* lc : {&a, &b, &c})
        for (const auto& t : lc->terms())
            if (t.var.index >= (t.var.is_input ? num_inputs_ : num_aux_))
                throw error(errc::invalid_argument,
                            "recording_cs::enforce: constraint " + std::to_string(b_.num_constraints()) + " uses " +
                                (t.var.is_input ? "input " : "aux ") + std::to_string(t.var.index) +
                                ", which was never allocated");
    to_entries(a, sa_);
    to_entries(b, sb_);
    to_entries(c, sc_);
    b_.add_constraint(sa_, sb_, sc_);
}

pce recording_cs::finish()
{
    pce p = b_.finish(uint32_t(num_inputs_), uint32_t(num_aux_));
    num_inputs_ = 1;
    num_aux_ = 0;
    return p;
}

pce record(const circuit& c)
{
    recording_cs cs;
    c.synthesize(cs);
    return cs.finish();
}

} // namespace cuzk::r1cs
