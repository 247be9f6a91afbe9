// cuzk — bellperson's SHA-256 circuit (filecoin/gadgets/bp_sha256.hpp).
#include "cuzk/filecoin/gadgets/bp_sha256.hpp"

#include <bit>

#include "cuzk/error.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"

namespace cuzk::r1cs::gadgets::bp {

namespace {

constexpr unsigned capacity = 254;   // Fr::CAPACITY

} // namespace

void multi_eq::enforce_equal(unsigned num_bits, const linear_combination& lhs, const linear_combination& rhs)
{
    if (bits_used_ + num_bits >= capacity) flush();
    if (cs_.keeps_constraints()) {
        const fr& coeff = pow2(bits_used_);
        lhs_.add_scaled(lhs, coeff);
        rhs_.add_scaled(rhs, coeff);
    }
    bits_used_ += num_bits;
}

void multi_eq::flush()
{
    if (cs_.keeps_constraints()) {
        cs_.enforce(lhs_, variable::one(), rhs_);
        lhs_.clear();
        rhs_.clear();
    } else {
        cs_.enforce_count();
    }
    bits_used_ = 0;
}

void multi_eq::finish()
{
    if (bits_used_ > 0) flush();
}

uint32 addmany(multi_eq& meq, std::span<const uint32> ops)
{
    if (ops.size() < 2 || ops.size() > 10)
        throw error(errc::invalid_argument, "bp::addmany: needs 2 to 10 operands");
    constraint_system& cs = meq.cs();
    uint64_t sum = 0;
    bool all_constant = true;
    for (const uint32& o : ops) {
        sum += o.value();
        all_constant = all_constant && o.is_constant();
    }
    if (all_constant) return uint32::constant(uint32_t(sum));

    // As many result bits as the largest possible sum needs, constant bits
    // or not.
    const unsigned k = unsigned(std::bit_width(uint64_t(ops.size()) * 0xffffffffull));
    std::array<boolean, 32> low;
    linear_combination lhs, rhs;
    const bool keep = cs.keeps_constraints();
    for (unsigned i = 0; i < k; ++i) {
        const boolean b = boolean::alloc(cs, (sum >> i) & 1u);
        if (i < 32) low[i] = b;
        if (keep) rhs.add(b.var(), pow2(i));
    }
    if (keep) {
        lhs.reserve(ops.size() * 32 + 8);
        for (const uint32& o : ops)
            for (unsigned j = 0; j < 32; ++j) o.bits()[j].add_to(lhs, pow2(j));
    }
    meq.enforce_equal(k, lhs, rhs);
    return uint32::from_bits(low);
}

namespace {

// x.rotr(r1) ⊕ x.rotr(r2) ⊕ third, xored left to right as upstream does.
uint32 xor3(constraint_system& cs, const uint32& x, const uint32& y, const uint32& z)
{
    return uint32::xor_(cs, uint32::xor_(cs, x, y), z);
}

// A word that is either known or a list of operands whose sum is not yet
// computed (bellperson's Maybe).
struct deferred_word {
    std::vector<uint32> ops;   // empty: `word` is the value
    uint32 word;

    uint32 compute(multi_eq& meq, std::span<const uint32> extra = {}) &&
    {
        if (ops.empty()) return word;
        ops.insert(ops.end(), extra.begin(), extra.end());
        return addmany(meq, ops);
    }
};

std::array<uint32, 64> message_schedule(multi_eq& meq, std::span<const boolean> block)
{
    constraint_system& cs = meq.cs();
    std::array<uint32, 64> w;
    for (size_t t = 0; t < 16; ++t) {
        std::array<boolean, 32> le;
        for (size_t j = 0; j < 32; ++j) le[j] = block[32 * t + 31 - j];
        w[t] = uint32::from_bits(le);
    }
    for (size_t i = 16; i < 64; ++i) {
        const uint32& x = w[i - 15];
        const uint32& y = w[i - 2];
        const uint32 s0 = xor3(cs, x.rotr(7), x.rotr(18), x.shr(3));
        const uint32 s1 = xor3(cs, y.rotr(17), y.rotr(19), y.shr(10));
        const uint32 ops[4] = {w[i - 16], s0, w[i - 7], s1};
        w[i] = addmany(meq, ops);
    }
    return w;
}

} // namespace

std::array<uint32, 8> sha256_compression(constraint_system& cs, std::span<const boolean> block,
                                         const std::array<uint32, 8>& state)
{
    if (block.size() != 512) throw error(errc::invalid_argument, "bp::sha256_compression: block must be 512 bits");
    const auto& K = sha256_round_constants();
    multi_eq meq(cs);
    const std::array<uint32, 64> w = message_schedule(meq, block);

    deferred_word a{{}, state[0]}, e{{}, state[4]};
    uint32 b = state[1], c = state[2], d = state[3], f = state[5], g = state[6], h = state[7];
    for (size_t i = 0; i < 64; ++i) {
        const uint32 new_e = std::move(e).compute(meq);
        const uint32 s1 = xor3(cs, new_e.rotr(6), new_e.rotr(11), new_e.rotr(25));
        const uint32 ch = uint32::sha256_ch(cs, new_e, f, g);
        std::vector<uint32> temp1 = {h, s1, ch, uint32::constant(K[i]), w[i]};
        const uint32 new_a = std::move(a).compute(meq);
        const uint32 s0 = xor3(cs, new_a.rotr(2), new_a.rotr(13), new_a.rotr(22));
        const uint32 maj = uint32::sha256_maj(cs, new_a, b, c);

        h = g;
        g = f;
        f = new_e;
        e.ops = temp1;
        e.ops.push_back(d);
        d = c;
        c = b;
        b = new_a;
        a.ops = std::move(temp1);
        a.ops.push_back(s0);
        a.ops.push_back(maj);
    }

    auto add2 = [&](const uint32& x, const uint32& y) {
        const uint32 ops[2] = {x, y};
        return addmany(meq, ops);
    };
    std::array<uint32, 8> out;
    out[0] = std::move(a).compute(meq, std::span(&state[0], 1));
    out[1] = add2(state[1], b);
    out[2] = add2(state[2], c);
    out[3] = add2(state[3], d);
    out[4] = std::move(e).compute(meq, std::span(&state[4], 1));
    out[5] = add2(state[5], f);
    out[6] = add2(state[6], g);
    out[7] = add2(state[7], h);
    meq.finish();
    return out;
}

std::vector<boolean> sha256(constraint_system& cs, std::span<const boolean> message)
{
    if (message.size() % 8 != 0) throw error(errc::invalid_argument, "bp::sha256: message must be whole bytes");
    std::vector<boolean> padded(message.begin(), message.end());
    const uint64_t len = message.size();
    padded.push_back(boolean::constant(true));
    while ((padded.size() + 64) % 512 != 0) padded.push_back(boolean::constant(false));
    for (int i = 63; i >= 0; --i) padded.push_back(boolean::constant((len >> i) & 1u));

    std::array<uint32, 8> cur;
    for (size_t j = 0; j < 8; ++j) cur[j] = uint32::constant(sha256_iv_words()[j]);
    for (size_t at = 0; at < padded.size(); at += 512)
        cur = sha256_compression(cs, std::span(padded).subspan(at, 512), cur);

    std::vector<boolean> out;
    out.reserve(256);
    for (const uint32& word : cur)
        for (int j = 31; j >= 0; --j) out.push_back(word.bits()[size_t(j)]);
    return out;
}

} // namespace cuzk::r1cs::gadgets::bp
