// Keys from mapped bellperson .params files (io::mapped_params) without a
// decoded proving key: the engine's add_key of a mapping (cpu backend: it
// decodes; cuda: each device's gpu_key decodes in chunks straight into device
// memory), the checks of the file's counts against the PCE and density, the
// key shell, and on a device: a gpu_key from the mapping gives the same sums
// as one from the decoded key, resident (one and many upload chunks) and
// streamed (the fallback that decodes into host memory), and a cuda engine
// proves with a mapped key.
//
// The [gpu] cases start with GPU_OR_SKIP (SKIPPED without a usable device).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cuzk/backend/gpu_prover.hpp"
#include "cuzk/error.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/prover_split.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/pipeline/engine.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "gmp_util.hpp"
#include "test_support.hpp"

using namespace cuzk;

namespace {

// A chain y_{k+1} = y_k · (y_k + input_{k mod ni}) over `steps` constraints,
// plus an aux variable u that occurs in C only (0 · 0 = u − 7; a variable in
// no constraint would have an identity L point, which .params cannot hold),
// so the density filters A and B. The shape depends on ni and steps only; the values on `values`.
struct chain_circuit final : r1cs::circuit {
    size_t ni = 2, steps = 10;
    uint64_t values = 0;

    void synthesize(r1cs::constraint_system& cs) const override
    {
        std::mt19937_64 rng(values);
        std::vector<r1cs::variable> in;
        std::vector<fr> in_v;
        for (size_t i = 0; i < ni; ++i) {
            in_v.push_back(fr::random(rng));
            in.push_back(cs.alloc_input(in_v.back()));
        }
        fr y = fr::random(rng);
        r1cs::variable yv = cs.alloc(y);
        const r1cs::variable u = cs.alloc(fr::from_u64(7));
        r1cs::linear_combination uc(u);
        uc -= fr::from_u64(7) * r1cs::variable::one();
        cs.enforce(r1cs::linear_combination::zero(), r1cs::linear_combination::zero(), uc);
        for (size_t k = 0; k < steps; ++k) {
            const size_t j = k % ni;
            const fr next = y * (y + in_v[j]);
            const r1cs::variable nv = cs.alloc(next);
            r1cs::linear_combination b(yv);
            b += in[j];
            cs.enforce(yv, b, nv);
            y = next;
            yv = nv;
        }
    }
};

// A key for one chain shape, written as a .params file (removed at the end).
struct params_fixture {
    chain_circuit shape;
    std::shared_ptr<const r1cs::pce> pce;
    std::shared_ptr<const groth16::proving_key> pk;
    groth16::query_density density;
    std::string path;

    params_fixture(const std::string& name, size_t ni, size_t steps)
    {
        shape.ni = ni;
        shape.steps = steps;
        r1cs::recording_cs rec;
        shape.synthesize(rec);
        auto p = std::make_shared<r1cs::pce>(rec.finish());
        pk = std::make_shared<groth16::proving_key>(groth16::setup_bellperson(groth16::describe(*p), &density, {}));
        pce = p;
        path = (std::filesystem::temp_directory_path() /
                ("cuzk-test-params-" + std::to_string(test::test_seed()) + "-" + name + ".params"))
                   .string();
        io::write_params(path, *pk);
    }
    ~params_fixture() { std::filesystem::remove(path); }
    params_fixture(const params_fixture&) = delete;
    params_fixture& operator=(const params_fixture&) = delete;

    std::shared_ptr<const io::mapped_params> map() const { return std::make_shared<const io::mapped_params>(path); }
    chain_circuit circuit(uint64_t values) const
    {
        chain_circuit c = shape;
        c.values = values;
        return c;
    }
};

std::string what_of(const std::function<void()>& f, errc* code = nullptr)
{
    try {
        f();
    } catch (const error& e) {
        if (code) *code = e.code();
        return e.what();
    }
    return "";
}

// Proves `jobs` jobs of two circuit partitions each on `eng`'s key and checks
// every proof against vk and the partition's public inputs.
void prove_and_verify(pipeline::engine& eng, pipeline::key_id key, const params_fixture& f,
                      const groth16::verifying_key& vk, int jobs)
{
    const auto pvk = groth16::prepare_verifying_key(vk);
    for (int j = 0; j < jobs; ++j) {
        std::vector<pipeline::partition> parts;
        std::vector<groth16::assignment> ws;
        for (uint64_t p = 0; p < 2; ++p) {
            const auto c = std::make_shared<const chain_circuit>(f.circuit(100 * uint64_t(j) + p + 1));
            ws.push_back(groth16::synthesize_witness(*c));
            parts.push_back(pipeline::circuit_partition{c});
        }
        const pipeline::job_handle h = eng.submit({key, std::move(parts), 0, "j" + std::to_string(j)});
        const pipeline::job_result& r = h.wait();
        INFO(r.message);
        REQUIRE(r.status == pipeline::job_status::completed);
        REQUIRE(r.partitions.size() == 2);
        for (size_t p = 0; p < 2; ++p) {
            const std::vector<fr> pub(ws[p].inputs.begin() + 1, ws[p].inputs.end());
            CHECK(r.partitions[p].public_inputs() == pub);
            CHECK(groth16::verify(pvk, r.partitions[p].proof(), pub));
            std::vector<fr> wrong = pub;
            wrong[0] += fr::one();
            CHECK_FALSE(groth16::verify(pvk, r.partitions[p].proof(), wrong));
        }
    }
}

} // namespace

TEST_CASE("mapped params: the key shell has the sizes and no points", "[params]")
{
    const params_fixture f("shell", 3, 50);
    const auto mp = f.map();
    const groth16::proving_key s = mp->key_shell();
    CHECK(s.conv == groth16::convention::bellperson);
    CHECK(s.domain_size == f.pk->domain_size);
    CHECK(s.num_inputs == f.pk->num_inputs);
    CHECK(s.num_aux == f.pk->num_aux);
    CHECK(s.vk.ic == f.pk->vk.ic);
    CHECK(s.vk.delta_g2 == f.pk->vk.delta_g2);
    CHECK(s.h.empty());
    CHECK(s.l.empty());
    CHECK(s.a.empty());
    CHECK(s.b_g1.empty());
    CHECK(s.b_g2.empty());
    const groth16::proving_key full = mp->to_proving_key(2);
    CHECK(full.h == f.pk->h);
    CHECK(full.b_g2 == f.pk->b_g2);
}

TEST_CASE("mapped params: an engine on the cpu backend proves and verifies with a key added from a .params file",
          "[params][engine]")
{
    const params_fixture f("cpu", 2, 60);
    pipeline::engine_config ec;
    ec.synth_workers = 1;
    ec.device_threads = 2;
    pipeline::engine eng(ec);
    const auto mapped = eng.add_key(f.map(), f.pce, {"mapped"});
    const auto mapped_d = eng.add_key(f.map(), f.pce, f.density, {"mapped-density"});
    const auto plain = eng.add_key(f.pk, f.pce, {"plain"});
    // The cpu backend decodes the whole key: the same estimates and host memory as the key itself.
    CHECK(eng.partition_bytes(mapped) == eng.partition_bytes(plain));
    CHECK(eng.device_bytes(mapped) == eng.device_bytes(plain));
    CHECK(eng.registration_timings(mapped).points_s == 0);   // no device registration
    prove_and_verify(eng, mapped, f, f.pk->vk, 2);
    prove_and_verify(eng, mapped_d, f, f.pk->vk, 1);
    // A key from another setup does not verify these proofs.
    const params_fixture other("cpu-other", 2, 60);
    const auto key2 = eng.add_key(other.map(), other.pce, {"other"});
    const auto c = std::make_shared<const chain_circuit>(other.circuit(5));
    const pipeline::job_handle h = eng.submit({key2, {pipeline::circuit_partition{c}}, 0, "o"});
    const pipeline::job_result& r = h.wait();
    REQUIRE(r.status == pipeline::job_status::completed);
    const auto w = groth16::synthesize_witness(*c);
    const std::vector<fr> pub(w.inputs.begin() + 1, w.inputs.end());
    CHECK(groth16::verify(groth16::prepare_verifying_key(other.pk->vk), r.partitions[0].proof(), pub));
    CHECK_FALSE(groth16::verify(groth16::prepare_verifying_key(f.pk->vk), r.partitions[0].proof(), pub));
}

TEST_CASE("mapped params: counts that do not match the PCE or density are refused, naming the mismatch",
          "[params][engine]")
{
    const params_fixture f("bad", 2, 60);
    const params_fixture wider("bad-wider", 3, 60);   // one input more
    const params_fixture longer("bad-longer", 2, 70);  // more aux, same domain
    {
        pipeline::engine eng(pipeline::engine_config{});
        errc code = errc::ok;
        std::string m = what_of([&] { eng.add_key(wider.map(), f.pce, {"w"}); }, &code);
        CHECK(code == errc::invalid_argument);
        CHECK_THAT(m, Catch::Contains("density bitmaps do not match the key's 4 inputs"));
        m = what_of([&] { eng.add_key(wider.map(), f.pce, wider.density, {"w2"}); }, &code);
        CHECK(code == errc::invalid_argument);
        CHECK_THAT(m, Catch::Contains("add_key w2: the PCE has 3 inputs and"));
        m = what_of([&] { eng.add_key(longer.map(), f.pce, {"l"}); }, &code);
        CHECK(code == errc::invalid_argument);
        CHECK_THAT(m, Catch::Contains("add_key l: density bitmaps do not match"));
        // The right bitmap sizes but a different selection: the A/B counts differ.
        groth16::query_density d = f.density;
        d.a_aux.back() = !d.a_aux.back();
        m = what_of([&] { eng.add_key(f.map(), f.pce, d, {"d"}); }, &code);
        CHECK(code == errc::invalid_argument);
        CHECK_THAT(m, Catch::Contains("add_key d: the density selects"));
        m = what_of([&] { eng.add_key(std::shared_ptr<const io::mapped_params>(), f.pce, {"n"}); }, &code);
        CHECK(code == errc::invalid_argument);
        m = what_of([&] { eng.add_key(f.map(), nullptr, {"np"}); }, &code);
        CHECK(code == errc::invalid_argument);
        CHECK_THAT(m, Catch::Contains("without a PCE"));
        CHECK(eng.add_key(f.map(), f.pce, {"ok"}) == 0);   // nothing was registered before
    }
    // A .params whose h is not n − 1 points: the key shell refuses it.
    groth16::proving_key cut = *f.pk;
    cut.h.pop_back();
    const std::string path = f.path + ".cut";
    io::write_params(path, cut);
    pipeline::engine eng(pipeline::engine_config{});
    errc code = errc::ok;
    const std::string m = what_of([&] { eng.add_key(std::make_shared<const io::mapped_params>(path), f.pce, {"c"}); },
                                  &code);
    std::filesystem::remove(path);
    CHECK(code == errc::invalid_argument);
    CHECK_THAT(m, Catch::Contains("add_key c: inconsistent key (domain"));
}

TEST_CASE("mapped params: a gpu_key from the mapping gives the decoded key's sums, resident and streamed", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 71);
    for (const auto& [ni, steps] : std::vector<std::pair<size_t, size_t>>{{2, 13}, {3, 1000}}) {
        const params_fixture f("gpu-" + std::to_string(steps), ni, steps);
        INFO("inputs " << ni << ", constraints " << steps);
        const auto mp = f.map();
        const gpu_key decoded(f.pk, f.density, f.pce);
        struct variant {
            const char* name;
            gpu_key_options opt;
            bool resident;
        };
        std::vector<variant> vs;
        vs.push_back({"resident, one upload chunk", {}, true});
        vs.push_back({"resident, upload chunks of 7 G2 points", {0, false, 7, -1, 2}, true});
        vs.push_back({"resident, decoded on the host", {}, true});
        vs.back().opt.device_decode = false;
        vs.push_back({"device_budget 1 byte: streamed from decoded host vectors", {1, false, 0}, false});
        vs.push_back({"force_streaming, chunks of 64", {0, true, 64}, false});
        for (const variant& v : vs) {
            INFO(v.name);
            const gpu_key key(mp, f.density, f.pce, v.opt);
            CHECK(key.resident() == v.resident);
            CHECK(key.has_pce());
            CHECK(key.pk().h.empty());
            CHECK(key.pk().b_g2.empty());
            CHECK(key.pk().domain_size == f.pk->domain_size);
            CHECK(key.pk().num_aux == f.pk->num_aux);
            CHECK(key.pk().vk.ic == f.pk->vk.ic);
            const gpu_key_timings t = key.timings();   // every part ran, and was timed
            CHECK(t.layout_s > 0);
            CHECK(t.pce_s > 0);
            CHECK(t.points_s > 0);
            const uint64_t points = (f.pk->h.size() + f.pk->l.size() + f.pk->a.size() + f.pk->b_g1.size()) *
                                        sizeof(g1_affine) +
                                    f.pk->b_g2.size() * sizeof(g2_affine);
            if (v.resident) {
                CHECK(key.host_bytes() == 0);
                CHECK(key.device_bytes() == decoded.device_bytes());
            } else {
                CHECK(key.host_bytes() >= points);
            }
            for (int rep = 0; rep < 2; ++rep) {
                const auto w = groth16::synthesize_witness(f.circuit(rng()));
                const groth16::prove_sums a = gpu_prove_start_witness(key, w.inputs, w.aux);
                const groth16::prove_sums b = gpu_prove_start_witness(decoded, w.inputs, w.aux);
                CHECK(a.h == b.h);
                CHECK(a.l == b.l);
                CHECK(a.a == b.a);
                CHECK(a.b1 == b.b1);
                CHECK(a.b2 == b.b2);
            }
        }
        // The mapped form checks the density as the decoded form does.
        groth16::query_density d = f.density;
        d.b_aux.back() = !d.b_aux.back();
        errc code = errc::ok;
        what_of([&] { gpu_key k(mp, d, nullptr); }, &code);
        CHECK(code == errc::invalid_argument);
    }
}

TEST_CASE("mapped params: a refused point gives the same error decoded on the device or the host", "[gpu]")
{
    GPU_OR_SKIP();
    const params_fixture f("bad", 3, 1000);
    const std::string clean = f.path + ".clean";
    std::filesystem::copy_file(f.path, clean, std::filesystem::copy_options::overwrite_existing);
    struct damage {
        io::params_query q;
        std::vector<size_t> at;   // points damaged
        size_t byte;              // the byte of each changed by `bits`:
        uint8_t bits;             // flipped, or set when `set`
        const char* expect;       // in the message
        bool set = false;
    };
    const std::vector<damage> ds = {
        {io::params_query::l, {700, 500}, 95, 0x01, "l[500]"},          // y changed: off the curve
        {io::params_query::h, {3}, 0, 0x80, "h[3]"},                    // the compression flag
        {io::params_query::b_g2, {0, 9}, 0, 0x1f, "b_g2[0]", true},     // x.c1's top byte 0x1f: >= p
        {io::params_query::a, {f.pk->a.size() - 1}, 47, 0x01, "a["},    // the last point, x changed
    };
    for (const damage& d : ds) {
        std::filesystem::copy_file(clean, f.path, std::filesystem::copy_options::overwrite_existing);
        {
            const io::mapped_params probe(f.path);
            std::fstream io(f.path, std::ios::in | std::ios::out | std::ios::binary);
            for (size_t i : d.at) {
                const uint64_t pos = probe.offset(d.q) + i * probe.point_size(d.q) + d.byte;
                io.seekg(std::streamoff(pos));
                const char c = char(io.get());
                io.seekp(std::streamoff(pos));
                io.put(d.set ? char(c | char(d.bits)) : char(c ^ char(d.bits)));
            }
        }
        const auto mp = f.map();
        std::string msg[2];
        errc code[2] = {errc::ok, errc::ok};
        for (int host = 0; host < 2; ++host) {
            gpu_key_options opt;
            opt.stream_chunk_points = 7;   // the damaged points in later chunks too
            opt.device_decode = host == 0;
            msg[host] = what_of([&] { gpu_key k(mp, f.density, f.pce, opt); }, &code[host]);
        }
        INFO(msg[0]);
        CHECK(code[0] != errc::ok);
        CHECK(code[0] != errc::internal);
        CHECK(code[0] == code[1]);
        CHECK(msg[0] == msg[1]);
        CHECK_THAT(msg[0], Catch::Contains(f.path) && Catch::Contains(d.expect));
    }
    std::filesystem::remove(clean);
}

TEST_CASE("mapped params: an engine on cuda proves and verifies with a key added from a .params file",
          "[gpu][engine]")
{
    GPU_OR_SKIP();
    const params_fixture f("cuda", 2, 500);
    pipeline::engine_config ec;
    ec.backend = pipeline::engine_backend::cuda;
    ec.synth_workers = 2;
    pipeline::engine eng(ec);
    const auto plain = eng.add_key(f.pk, f.pce, {"plain"});
    const uint64_t host_plain = eng.stats().memory_resident;
    const auto mapped = eng.add_key(f.map(), f.pce, {"mapped"});
    // The mapped key's points are on the device only: it adds far less host
    // memory than the decoded key did (its shell's vk and the PCE, counted once).
    const uint64_t host_mapped = eng.stats().memory_resident - host_plain;
    const uint64_t points = (f.pk->h.size() + f.pk->l.size() + f.pk->a.size() + f.pk->b_g1.size()) *
                            sizeof(g1_affine);
    CHECK(host_mapped < points);
    CHECK(eng.device_bytes(mapped) == eng.device_bytes(plain));
    CHECK(eng.registration_timings(mapped).points_s > 0);
    prove_and_verify(eng, mapped, f, f.pk->vk, 2);
}
