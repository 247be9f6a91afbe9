// The PoRep partition circuit (Filecoin's StackedCircuit): constraint and
// input counts against the upstream tests and the published partition
// counts, the label circuit against the native label, and a sealed test
// sector's C1 proofs as a witness: satisfied, inputs equal to the verifier's,
// the blank circuit's recorded R1CS satisfied by the real circuit's witness,
// and tampered vanilla proofs refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <optional>
#include <random>
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/fr32.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/filecoin/porep/circuit.hpp"
#include "cuzk/filecoin/porep/labels.hpp"
#include "cuzk/filecoin/porep/public_inputs.hpp"
#include "cuzk/filecoin/porep/seal.hpp"
#include "cuzk/r1cs/pce.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
namespace g = cuzk::r1cs::gadgets;

namespace {

struct counts {
    size_t constraints, inputs, aux;
};

counts count(const seal_config& c)
{
    r1cs::counting_cs cs;
    porep_circuit(c).synthesize(cs);
    return {cs.num_constraints(), cs.num_inputs(), cs.num_aux()};
}

porep_id_t filled(uint8_t b)
{
    porep_id_t d;
    d.fill(b);
    return d;
}

// The additive cost model of the circuit, built from the gadgets' own costs
// (to_bits_le 256, Poseidon 3·arity + 4·(7t + R_P) + 1, Merkle levels
// log2(arity) + insert + Poseidon, a SHA-256 tree level 45,382, a 20-block
// label 522,269): an independent account of what synthesize() must add up to.
uint64_t poseidon_cost(unsigned arity)
{
    const unsigned t = arity + 1;
    return 3 * arity + 4 * (t * 7 + poseidon_partial_rounds(t)) + 1;
}

uint64_t insert_cost(unsigned arity) { return arity == 2 ? 2 : arity == 4 ? 8 : 22; }

uint64_t model_constraints(const seal_config& c)
{
    const g::tree_shape tc = porep_circuit::tree_c_shape(c);
    uint64_t path = 2;
    for (size_t l = 0; l < tc.levels(); ++l) {
        const unsigned a = tc.arity(l);
        path += unsigned(std::countr_zero(a)) + insert_cost(a) + poseidon_cost(a);
    }
    const uint64_t T = 256, S = 522'269, L = c.layers, col = poseidon_cost(c.layers);
    const uint64_t per = (45'382 * porep_circuit::tree_d_shape(c).levels() + 2) + 14 * (col + path) + 65 +
                         (6 * T + S) + (L - 1) * (14 * T + S) + 1 + path + (col + path);
    return T + 315 + c.challenges_per_partition * per;
}

std::vector<uint8_t> random_padded(uint64_t nodes, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<uint8_t> raw(fr32_unpadded_size(nodes * 32));
    for (auto& b : raw) b = uint8_t(rng());
    return fr32_pad(raw);
}

// Seals random data under `c` and runs C1 with a fixed seed.
c1_output sealed_c1(const seal_config& c, const char* name)
{
    const auto dir = std::filesystem::temp_directory_path() / (std::string("cuzk-test-porep-circuit-") + name);
    std::filesystem::remove_all(dir);
    replica_source r;
    r.prover_id = filled(1);
    r.sector_id = 7;
    r.ticket = filled(2);
    seal_sector(c, r, random_padded(c.nodes, 99), dir.string(), 2);
    c1_output c1 = commit_phase1(dir.string(), filled(3), 2);
    std::filesystem::remove_all(dir);
    return c1;
}

// The verifier's inputs of the partition, with ONE in front.
std::vector<fr> expected_inputs(const c1_output& c1, unsigned k)
{
    std::vector<fr> in{fr::one()};
    const partition_inputs pi = porep_public_inputs(c1.config, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, k);
    in.insert(in.end(), pi.inputs.begin(), pi.inputs.end());
    return in;
}

// The witness of partition k of `c1` checked against a recorded R1CS.
std::optional<size_t> pce_check(const r1cs::pce& p, const c1_output& c1, unsigned k)
{
    r1cs::witness_cs w;
    porep_circuit(c1, k).synthesize(w);
    REQUIRE(w.num_aux() == p.num_aux);
    REQUIRE(w.num_inputs() == p.num_inputs);
    return r1cs::first_unsatisfied(p, w.inputs(), w.aux());
}

} // namespace

TEST_CASE("PoRep circuit: the upstream stacked test circuits' counts", "[porep_circuit]")
{
    // storage-proofs-porep tests/stacked_circuit.rs: 8 nodes per base tree,
    // 2 layers, 1 challenge, porep_id [44; 32].
    const counts b2 = count(seal_config::custom(8, 2, 1, {2, 0, 0}, filled(44)));
    CHECK(b2.constraints == 1'206'212);
    CHECK(b2.inputs == 22);
    const counts b8 = count(seal_config::custom(8, 2, 1, {8, 0, 0}, filled(44)));
    CHECK(b8.constraints == 1'199'620);
    CHECK(b8.inputs == 22);
}

TEST_CASE("PoRep circuit: counts of the 2-layer sector sizes and other shapes follow the model", "[porep_circuit]")
{
    const counts k2 = count(registered_seal_proof(5));
    CHECK(k2.constraints == 2'687'921);
    CHECK(k2.inputs == 40);
    CHECK(model_constraints(registered_seal_proof(5)) == 2'687'921);
    CHECK(count(registered_seal_proof(6)).constraints == 3'844'929);    // 8 MiB
    CHECK(count(registered_seal_proof(7)).constraints == 4'423'433);    // 512 MiB
    for (const seal_config& c : {seal_config::custom(64, 11, 1, {4, 2, 2}, filled(1)),
                                 seal_config::custom(32, 2, 3, {2, 2, 0}, filled(1)),
                                 seal_config::custom(1024, 4, 2, {4, 0, 0}, filled(1))}) {
        const counts n = count(c);
        CHECK(n.constraints == model_constraints(c));
        CHECK(n.inputs == 4 + 18 * c.challenges_per_partition);
    }
}

TEST_CASE("PoRep circuit: the 32 GiB and 64 GiB partitions", "[porep_circuit]")
{
    const counts g32 = count(registered_seal_proof(8));
    CHECK(g32.constraints == 130'278'541);
    CHECK(g32.inputs == 328);
    CHECK(g32.aux == 130'169'893);
    const counts g64 = count(registered_seal_proof(9));
    CHECK(g64.constraints == 131'185'849);
    CHECK(g64.inputs == 328);
}

TEST_CASE("PoRep label circuit: 532,025 constraints as upstream, and the native label", "[porep_circuit]")
{
    // create_label.rs's test: replica id and 37 parents as allocated bits,
    // layer 3 and node 22 constant.
    std::mt19937_64 rng(5);
    auto random_domain = [&] {
        domain d;
        for (auto& b : d) b = uint8_t(rng());
        d[31] &= 0x3f;
        return d;
    };
    auto alloc_bits = [](r1cs::constraint_system& cs, const domain& d) {
        std::vector<g::boolean> bits;
        for (uint8_t b : d)
            for (int i = 7; i >= 0; --i) bits.push_back(g::boolean::alloc(cs, (b >> i) & 1));
        return bits;
    };
    const domain id = random_domain();
    std::vector<domain> parents(label_parent_count);
    for (auto& p : parents) p = random_domain();

    r1cs::witness_cs cs;
    std::vector<std::vector<g::boolean>> parent_bits;
    for (const domain& p : parents) parent_bits.push_back(alloc_bits(cs, p));
    const std::vector<g::boolean> id_bits = alloc_bits(cs, id);
    const g::allocated_num label = porep_label_circuit(cs, id_bits, parent_bits, 3, g::uint64::constant(22));
    CHECK(cs.num_constraints() == 532'025);
    CHECK(label.value == domain_to_fr(create_label(id, 3, 22, parents)));
    CHECK(cs.aux().back() == label.value);
}

TEST_CASE("PoRep circuit: a sealed sector's C1 proofs satisfy it, inputs as the verifier's", "[porep_circuit]")
{
    const c1_output c1 = sealed_c1(seal_config::custom(64, 2, 1, {8, 0, 0}, porep_id_of(5)), "8-0-0");
    const porep_circuit circ(c1, 0);
    r1cs::test_cs cs;
    circ.synthesize(cs);
    CHECK(cs.num_constraints() == model_constraints(c1.config));
    const std::vector<fr> in = expected_inputs(c1, 0);
    CHECK(std::equal(in.begin(), in.end(), cs.inputs().begin(), cs.inputs().end()));
    CHECK(cs.is_satisfied());

    // A changed row of an expander parent's column is caught.
    c1_output bad = c1;
    bad.partitions[0][0].exp_parents[3].rows[1][0] ^= 1;
    r1cs::test_cs bad_cs;
    porep_circuit(bad, 0).synthesize(bad_cs);
    CHECK(bad_cs.num_constraints() == cs.num_constraints());
    CHECK_FALSE(bad_cs.is_satisfied());
}

TEST_CASE("PoRep circuit: the blank circuit's R1CS is satisfied by the real witness, tampering is caught",
          "[porep_circuit]")
{
    // Base, sub and top levels in tree C and R_last; two partitions of two
    // challenges.
    const seal_config config = seal_config::custom(64, 2, 2, {4, 2, 2}, porep_id_of(5), api_version::v1_1, 2);
    const c1_output c1 = sealed_c1(config, "4-2-2");
    const r1cs::pce p = r1cs::record(porep_circuit(c1.config));
    CHECK(p.num_constraints == model_constraints(c1.config));
    for (unsigned k = 0; k < 2; ++k) {
        CHECK(!pce_check(p, c1, k));
        r1cs::witness_cs w;
        porep_circuit(c1, k).synthesize(w);
        const std::vector<fr> in = expected_inputs(c1, k);
        CHECK(std::equal(in.begin(), in.end(), w.inputs().begin(), w.inputs().end()));
    }

    c1_output bad = c1;
    bad.partitions[0][1].drg_parents[5].rows[0][3] ^= 1;
    CHECK(pce_check(p, bad, 0));
    bad = c1;
    bad.partitions[0][0].comm_d_proof.leaf[1] ^= 1;
    CHECK(pce_check(p, bad, 0));
    bad = c1;
    bad.partitions[0][1].comm_r_last_proof.sub[0].hashes[0][2] ^= 1;
    CHECK(pce_check(p, bad, 0));
    bad = c1;
    bad.partitions[0][0].c_x.inclusion.top[0].hashes[0][4] ^= 1;
    CHECK(pce_check(p, bad, 0));
}

TEST_CASE("PoRep circuit: 11 layers (Poseidon-11 columns) with a sealed sector's witness", "[porep_circuit]")
{
    const c1_output c1 = sealed_c1(seal_config::custom(64, 11, 1, {8, 0, 0}, porep_id_of(5)), "11-layers");
    const r1cs::pce p = r1cs::record(porep_circuit(c1.config));
    CHECK(p.num_constraints == model_constraints(c1.config));
    CHECK(!pce_check(p, c1, 0));
    c1_output bad = c1;
    bad.partitions[0][0].exp_parents[7].rows[9][0] ^= 1;
    CHECK(pce_check(p, bad, 0));
}

TEST_CASE("PoRep circuit: unusable C1 outputs and configs are refused", "[porep_circuit]")
{
    const seal_config config = seal_config::custom(8, 2, 2, {2, 0, 0}, porep_id_of(5));
    CHECK_THROWS_AS(porep_circuit(seal_config::custom(8, 3, 1, {2, 0, 0}, porep_id_of(5))), error);   // no Poseidon-3
    c1_output c1;
    c1.config = config;
    c1.partitions.resize(1);
    CHECK_THROWS_AS(porep_circuit(c1, 1), error);   // partition out of range
    CHECK_THROWS_AS(porep_circuit(c1, 0), error);   // no proofs for the challenge

    const c1_output good = sealed_c1(config, "refused");
    c1_output bad = good;
    bad.partitions[0][0].drg_parents.pop_back();
    CHECK_THROWS_WITH(porep_circuit(bad, 0), Catch::Contains("vanilla_proofs[0][0]") && Catch::Contains("DRG"));
    bad = good;
    bad.partitions[0][0].exp_parents[2].rows.pop_back();
    CHECK_THROWS_WITH(porep_circuit(bad, 0), Catch::Contains("exp_parents[2]"));
    bad = good;
    bad.partitions[0][0].comm_r_last_proof.base.pop_back();
    CHECK_THROWS_WITH(porep_circuit(bad, 0), Catch::Contains("comm_r_last_proof"));
    bad = good;
    bad.partitions[0][1].c_x.inclusion.root[0] ^= 1;
    CHECK_THROWS_WITH(porep_circuit(bad, 0), Catch::Contains("vanilla_proofs[0][1]: inconsistent comm_c"));
    bad = good;
    bad.partitions[0][0].comm_d_proof.leaf[31] = 0xff;
    CHECK_THROWS_AS(porep_circuit(bad, 0), error);   // not an Fr
}
