// Test helper: a structurally well-formed c1_output with deterministic
// pseudo-random contents (every array of the length its config implies; the
// values are noise, so no path verifies against its root).
#pragma once

#include <cstdint>

#include "cuzk/filecoin/porep/vanilla.hpp"

namespace cuzk::test {

class c1_sampler {
public:
    explicit c1_sampler(uint64_t seed) : state_(seed) {}

    filecoin::c1_output make(const filecoin::seal_config& cfg)
    {
        cfg_ = cfg;
        filecoin::c1_output c;
        c.config = cfg;
        for (filecoin::domain* d : {&c.comm_r, &c.comm_d, &c.replica_id, &c.seed, &c.ticket}) fill(*d);
        c.partitions.resize(cfg.partitions);
        for (auto& part : c.partitions) {
            part.resize(cfg.challenges_per_partition);
            for (auto& p : part) challenge(p);
        }
        return c;
    }

    uint64_t next()
    {
        // splitmix64
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

private:
    void fill(filecoin::domain& d)
    {
        for (size_t i = 0; i < 32; i += 8) {
            const uint64_t r = next();
            for (size_t j = 0; j < 8; ++j) d[i + j] = uint8_t(r >> (8 * j));
        }
    }

    void levels(std::vector<filecoin::path_element>& out, unsigned count, unsigned arity)
    {
        out.resize(count);
        for (auto& e : out) {
            e.hashes.resize(arity - 1);
            for (auto& h : e.hashes) fill(h);
            e.index = uint32_t(next() % arity);
        }
    }

    static unsigned log_of(uint64_t n, unsigned b)
    {
        unsigned k = 0;
        for (; n > 1; n /= b) ++k;
        return k;
    }

    void proof(filecoin::merkle_proof& m, bool comm_d)
    {
        fill(m.leaf), fill(m.root);
        const auto& t = cfg_.tree;
        if (comm_d) {
            levels(m.base, log_of(cfg_.nodes, 2), 2);
            return;
        }
        levels(m.base, log_of(cfg_.nodes / t.base_trees(), t.base), t.base);
        if (t.sub) levels(m.sub, 1, t.sub);
        if (t.top) levels(m.top, 1, t.top);
    }

    void column(filecoin::column_proof& c)
    {
        c.index = uint32_t(next() % cfg_.nodes);
        c.rows.resize(cfg_.layers);
        for (auto& r : c.rows) fill(r);
        proof(c.inclusion, false);
    }

    template <class Record>
    void record(Record& r, uint32_t layer, uint64_t node)
    {
        r.parents.resize(37);
        for (auto& p : r.parents) fill(p);
        r.layer_index = layer;
        r.node = node;
    }

    void challenge(filecoin::challenge_proof& p)
    {
        proof(p.comm_d_proof, true);
        proof(p.comm_r_last_proof, false);
        column(p.c_x);
        p.drg_parents.resize(6);
        p.exp_parents.resize(8);
        for (auto& c : p.drg_parents) column(c);
        for (auto& c : p.exp_parents) column(c);
        const uint64_t node = 1 + next() % (cfg_.nodes - 1);
        p.labeling_proofs.resize(cfg_.layers);
        for (unsigned l = 0; l < cfg_.layers; ++l) record(p.labeling_proofs[l], l + 1, node);
        record(p.encoding, cfg_.layers, node);
    }

    uint64_t state_;
    filecoin::seal_config cfg_;
};

} // namespace cuzk::test
