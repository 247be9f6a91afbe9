// The PoRep partition's parallel witness (porep_circuit::witness) against
// sequential synthesis on a witness_cs: bit-identical inputs and aux for
// several shapes (2 and 4 layers, binary and compound trees, 1 to 3
// challenges) and thread counts, and for the blank circuit; the slice
// system's overflow and fill checks; circuits without a fast path decline;
// the sliced path (witness_packed) gives the same values through a sink,
// and is the one the cuda engine takes (GPU).
#include <catch2/catch.hpp>

#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/circuit.hpp"
#include "cuzk/filecoin/porep/prove.hpp"
#include "cuzk/filecoin/porep/synthetic_c1.hpp"
#include "cuzk/pipeline/engine.hpp"
#include "cuzk/r1cs/slice_witness_cs.hpp"
#include "cuzk/timeline/sinks.hpp"
#include "backend/bridge/packed_host_sink.hpp"
#include "test_support.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

struct assignment {
    std::vector<fr> inputs, aux;
};

assignment sequential(const r1cs::circuit& c)
{
    r1cs::witness_cs cs;
    c.synthesize(cs);
    return {cs.take_inputs(), cs.take_aux()};
}

// Whole-vector equality, reporting the first differing index.
void check_same(const std::vector<fr>& got, const std::vector<fr>& want, const char* what)
{
    INFO(what);
    REQUIRE(got.size() == want.size());
    size_t first = got.size();
    for (size_t i = 0; i < got.size() && first == got.size(); ++i)
        if (!(got[i] == want[i])) first = i;
    CHECK(first == got.size());
}

void check_parallel(const porep_circuit& c, std::initializer_list<unsigned> threads)
{
    const assignment want = sequential(c);
    for (unsigned t : threads) {
        INFO("threads " << t);
        std::vector<fr> inputs{fr::from_u64(9)}, aux(3, fr::from_u64(5));   // stale contents must go
        REQUIRE(c.witness(inputs, aux, t));
        check_same(inputs, want.inputs, "inputs");
        check_same(aux, want.aux, "aux");
        // A vector of the right size is reused: stale values must all go.
        for (size_t i = 0; i < aux.size(); i += 3) aux[i] = fr::from_u64(i + 1);
        REQUIRE(c.witness(inputs, aux, t));
        check_same(aux, want.aux, "reused aux");
    }
}

struct no_fast_path final : r1cs::circuit {
    void synthesize(r1cs::constraint_system& cs) const override { cs.alloc(fr::one()); }
};

} // namespace

TEST_CASE("porep witness in parallel equals sequential synthesis", "[fc][porep_witness]")
{
    const seal_config shapes[] = {
        registered_seal_proof(5),                                          // 2 KiB: 2 layers, 8-0-0
        seal_config::custom(64, 2, 3, {4, 2, 2}, porep_id_of(5)),          // compound tree, 3 challenges
        seal_config::custom(1024, 4, 2, {4, 0, 0}, porep_id_of(5)),        // 4 layers: labels of two sizes
        seal_config::custom(64, 2, 1, {2, 0, 0}, porep_id_of(5)),          // binary tree, one challenge
    };
    for (const seal_config& c : shapes) {
        INFO(c.name << " " << c.nodes << " nodes, " << c.layers << " layers, tree " << c.tree.name());
        const c1_output c1 = synthetic_c1(c, 11, 2);
        check_parallel(porep_circuit(c1, 0), {1, 2, 3, 8});
    }
}

TEST_CASE("porep witness handed over in slices equals sequential synthesis", "[fc][porep_witness]")
{
    const seal_config shapes[] = {
        registered_seal_proof(5),
        seal_config::custom(64, 2, 3, {4, 2, 2}, porep_id_of(5)),
        seal_config::custom(1024, 4, 2, {4, 0, 0}, porep_id_of(5)),
    };
    for (const seal_config& c : shapes) {
        INFO(c.name << " " << c.nodes << " nodes, " << c.layers << " layers, tree " << c.tree.name());
        const porep_circuit circuit(synthetic_c1(c, 13, 2), 0);
        const assignment want = sequential(circuit);
        for (unsigned t : {1u, 3u}) {
            INFO("threads " << t);
            witness_pack::host_sink sink;
            std::vector<fr> inputs{fr::from_u64(9)};
            REQUIRE(circuit.witness_packed(inputs, sink, t));
            check_same(inputs, want.inputs, "inputs");
            check_same(sink.unpack(), want.aux, "aux from the packed form");
            size_t others = 0;
            for (const fr& x : want.aux) others += !x.is_zero() && !x.is_one();
            CHECK(sink.others() == others);
        }
    }
    // A circuit without the path declines and leaves the sink alone.
    witness_pack::host_sink sink;
    std::vector<fr> inputs;
    CHECK_FALSE(no_fast_path().witness_packed(inputs, sink, 1));
    CHECK(inputs.empty());
}

TEST_CASE("porep witness of the blank circuit and of a later partition", "[fc][porep_witness]")
{
    check_parallel(porep_circuit(registered_seal_proof(5)), {2});
    const seal_config c = seal_config::custom(64, 2, 2, {8, 0, 0}, porep_id_of(5), api_version::v1_1, 2);
    check_parallel(porep_circuit(synthetic_c1(c, 3, 2), 1), {3});
}

TEST_CASE("slice_witness_cs writes its slice at global indices", "[fc][porep_witness]")
{
    std::vector<fr> aux(6, fr::zero()), inputs(4, fr::zero());
    r1cs::slice_witness_cs cs(std::span<fr>(aux).subspan(2, 2), 2, std::span<fr>(inputs).subspan(3, 1), 3);
    CHECK(cs.alloc(fr::from_u64(7)) == r1cs::variable::aux(2));
    CHECK_FALSE(cs.full());
    CHECK(cs.alloc_input(fr::from_u64(8)) == r1cs::variable::input(3));
    CHECK(cs.alloc(fr::from_u64(9)) == r1cs::variable::aux(3));
    CHECK(cs.full());
    CHECK(cs.num_aux() == 4);
    CHECK(cs.num_inputs() == 4);
    CHECK(aux[2] == fr::from_u64(7));
    CHECK(aux[3] == fr::from_u64(9));
    CHECK(aux[4].is_zero());
    CHECK(inputs[3] == fr::from_u64(8));
    CHECK_THROWS_AS(cs.alloc(fr::one()), error);
    CHECK_THROWS_AS(cs.alloc_input(fr::one()), error);
}

TEST_CASE("a circuit without a fast witness path declines", "[fc][porep_witness]")
{
    std::vector<fr> inputs, aux;
    CHECK_FALSE(no_fast_path{}.witness(inputs, aux, 2));
    CHECK(inputs.empty());
    CHECK(aux.empty());
}

TEST_CASE("gpu: PoRep partitions through the cuda engine take the sliced witness path and verify",
          "[fc][porep_witness][gpu]")
{
    GPU_OR_SKIP();
    // Two partitions of three challenges: the packed buffers are reused.
    const seal_config c = seal_config::custom(64, 2, 3, {4, 2, 2}, porep_id_of(5), api_version::v1_1, 2);
    const c1_output c1 = synthetic_c1(c, 17, 2);
    const porep_key k = porep_dev_setup(record_porep_pce(c), true, 2);
    timeline::recorder rec;
    pipeline::engine_config ec;
    ec.backend = pipeline::engine_backend::cuda;
    ec.sink = &rec;
    pipeline::engine eng(ec);
    const auto key = eng.add_key(k.pk, k.pce, k.density, {"porep"});
    const c2_output out = porep_c2(eng, key, c1);
    REQUIRE(out.proof.size() == 192 * c.partitions);
    CHECK(porep_verify(k.pk->vk, out.proof, c, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed));
    // The aux went to the packed form in slices: no PACK pass over a full vector.
    size_t packs = 0, synths = 0;
    for (const timeline::event& e : rec.events()) {
        packs += e.name == "PACK";
        synths += e.name == "SYNTH_END";
    }
    CHECK(synths == c.partitions);
    CHECK(packs == 0);
}
