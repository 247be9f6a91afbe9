// Writes the seed corpora of the fuzz harnesses: small valid files made by
// the project's own writers, one folder per harness.
//   fuzz_seeds <dir>     → <dir>/zkey/…, <dir>/wtns/…, … (see CUZK_FUZZ_TARGETS)
// Everything is deterministic (fixed toxic waste, fixed generator seeds).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "cuzk/filecoin/porep/c1_json.hpp"
#include "cuzk/filecoin/porep/synthetic_c1.hpp"
#include "cuzk/filecoin/post/bincode.hpp"
#include "cuzk/filecoin/post/post.hpp"
#include "cuzk/filecoin/update/bincode.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/snarkjs.hpp"
#include "cuzk/timeline/sinks.hpp"

namespace fs = std::filesystem;
using namespace cuzk;

// a + b, for the seeds' byte strings.
static std::vector<uint8_t> operator+(std::vector<uint8_t> a, const std::vector<uint8_t>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

namespace {

fs::path root;

std::string seed_path(const char* harness, const char* file)
{
    fs::create_directories(root / harness);
    return (root / harness / file).string();
}

void write_bytes(const char* harness, const char* file, std::span<const uint8_t> b)
{
    std::ofstream(seed_path(harness, file), std::ios::binary).write(reinterpret_cast<const char*>(b.data()),
                                                                    std::streamsize(b.size()));
}

void write_string(const char* harness, const char* file, std::string_view s)
{
    write_bytes(harness, file, {reinterpret_cast<const uint8_t*>(s.data()), s.size()});
}

// The circuit of every key: inputs ONE, x; aux y, z, w;
//   x·y = z,   (2x + 3y)·ONE = w,   (z − 5w)·y = c with c = (z − 5w)·y as one more aux.
struct tiny {
    static constexpr uint32_t ni = 2, na = 4;
    std::vector<std::array<std::vector<std::pair<uint32_t, fr>>, 3>> rows;
    std::vector<fr> witness;   // ONE, x, y, z, w, c
    tiny()
    {
        const fr x = fr::from_u64(3), y = fr::from_u64(4), z = x * y, w = fr::from_u64(2) * x + fr::from_u64(3) * y;
        const fr c = (z - fr::from_u64(5) * w) * y;
        witness = {fr::one(), x, y, z, w, c};
        rows.push_back({{{{1, fr::one()}}, {{2, fr::one()}}, {{3, fr::one()}}}});
        rows.push_back({{{{1, fr::from_u64(2)}, {2, fr::from_u64(3)}}, {{0, fr::one()}}, {{4, fr::one()}}}});
        rows.push_back({{{{3, fr::one()}, {4, -fr::from_u64(5)}}, {{2, fr::one()}}, {{5, fr::one()}}}});
    }
    r1cs::pce pce() const
    {
        std::vector<std::array<r1cs::pce_row, 3>> c(rows.begin(), rows.end());
        return r1cs::pce_from_constraints(ni, na, c);
    }
    io::r1cs_file r1cs() const
    {
        io::r1cs_file r;
        r.n_wires = ni + na;
        r.n_pub_in = 1;
        r.n_prv_in = 1;
        r.n_labels = r.n_wires;
        r.n_constraints = uint32_t(rows.size());
        for (const auto& row : rows) r.constraints.push_back({row[0], row[1], row[2]});
        for (uint32_t i = 0; i < r.n_wires; ++i) r.wire_to_label.push_back(i);
        return r;
    }
};

void binary_seeds(const tiny& t)
{
    const r1cs::pce p = t.pce();
    r1cs::save_pce(p, seed_path("pce", "tiny.pce"));
    io::write_r1cs(seed_path("r1cs", "tiny.r1cs"), t.r1cs());
    io::write_wtns(seed_path("wtns", "tiny.wtns"), t.witness);

    const groth16::toxic_waste waste = groth16::toxic_waste::from_seed(1);
    groth16::setup_options opt;
    opt.threads = 1;
    opt.waste = &waste;
    groth16::query_density density;
    const groth16::proving_key bp = groth16::setup_bellperson(groth16::describe(p), &density, opt);
    const groth16::proving_key sj = groth16::setup_snarkjs(groth16::describe(p), opt);
    io::write_params(seed_path("params", "tiny.params"), bp);
    io::write_vk(seed_path("vk", "tiny.vk"), bp.vk);
    io::write_zkey(seed_path("zkey", "tiny.zkey"), sj);

    // Proofs only need points of the right groups for the decoders.
    const groth16::proof pr{bp.vk.alpha_g1, bp.vk.beta_g2, bp.vk.delta_g1};
    std::array<uint8_t, 384> two{};
    io::proof_to_bytes(pr, std::span<uint8_t, 192>(two.data(), 192));
    io::proof_to_bytes(groth16::proof{bp.vk.beta_g1, bp.vk.delta_g2, bp.vk.ic.at(0)},
                       std::span<uint8_t, 192>(two.data() + 192, 192));
    write_bytes("proof_bytes", "one.bin", std::span<const uint8_t>(two.data(), 192));
    write_bytes("proof_bytes", "two.bin", two);

    io::write_proof_json(seed_path("json_proof", "proof.json"), groth16::proof{sj.vk.alpha_g1, sj.vk.beta_g2, sj.vk.ic.at(0)});
    io::write_public_json(seed_path("json_public", "public.json"), std::span<const fr>(t.witness).subspan(1, 1));
    write_string("json_public", "empty.json", "[]");
    io::write_vk_json(seed_path("json_vk", "vk.json"), sj.vk);
}

// The snarkjs binary seeds on bn128: a squaring x·x = y with y public (ONE,
// y; aux x), its key, witness and circuit.
void bn128_seeds()
{
    using bfr = bn254::fr;
    groth16::r1cs_description_t<bfr> d;
    d.num_inputs = 2;
    d.num_aux = 1;
    d.num_constraints = 1;
    d.for_each_entry = [](const auto& fn) {
        fn(0, 0, 2, bfr::one());
        fn(1, 0, 2, bfr::one());
        fn(2, 0, 1, bfr::one());
    };
    const auto waste = groth16::toxic_waste_t<bfr>::from_seed(2);
    groth16::setup_options_t<bn254_curve> opt;
    opt.threads = 1;
    opt.waste = &waste;
    io::write_zkey<bn254_curve>(seed_path("zkey", "bn128.zkey"), groth16::setup_snarkjs<bn254_curve>(d, opt));
    const bfr x = bfr::from_u64(3);
    io::write_wtns<bfr>(seed_path("wtns", "bn128.wtns"), std::vector<bfr>{bfr::one(), x * x, x});
    io::r1cs_file_t<bfr> r;
    r.n_wires = 3;
    r.n_pub_out = 1;
    r.n_prv_in = 1;
    r.n_labels = 3;
    r.n_constraints = 1;
    r.constraints.push_back({io::r1cs_lc_t<bfr>{{2, bfr::one()}}, io::r1cs_lc_t<bfr>{{2, bfr::one()}},
                             io::r1cs_lc_t<bfr>{{1, bfr::one()}}});
    r.wire_to_label = {0, 1, 2};
    io::write_r1cs<bfr>(seed_path("r1cs", "bn128.r1cs"), r);
}

void timeline_seeds()
{
    write_string("timeline", "lines.log",
                 "[2024-05-01 INFO] TIMELINE,0,JOB_SUBMIT,j1,partitions=2\n"
                 "TIMELINE,1.5,SYNTH_START,j1,partition=0,worker=0\n"
                 "TIMELINE,2.25,GPU_QUEUE,j1,partition=0,worker=2,device=0\n"
                 "TIMELINE,3,MSM_H,j1,partition=0,worker=2,device=0,ph=B\n"
                 "CUZK_TIMING: gpu_tid=0 prestage_vram tail_msm_ms=412\n"
                 "TIMELINE,4.000001,MSM_H,j1,partition=0,worker=2,device=0,ph=E,msg=a%2Cb\r\n"
                 "TIMELINE,5,GPU_END,j1,monolithic,gpu_ms=1.5\n");
    std::ostringstream chrome;
    {
        timeline::chrome_trace_sink sink(chrome);
        timeline::event e;
        e.name = "NTT";
        e.job = "j1";
        e.partition = 0;
        e.worker = 1;
        e.device = 0;
        e.ph = timeline::phase::begin;
        e.t_ns = 1000;
        sink.record(e);
        e.ph = timeline::phase::end;
        e.t_ns = 2500;
        e.details.emplace_back("query", "h");
        sink.record(e);
        e.ph = timeline::phase::instant;
        e.name = "JOB_DONE";
        e.t_ns = 3000;
        sink.record(e);
        sink.finish();
    }
    write_string("timeline", "trace.json", chrome.str());
    write_string("timeline", "bare.json", "[{\"name\":\"X1\",\"ph\":\"X\",\"ts\":1.5,\"dur\":2,\"args\":{\"job\":\"j\"}}]");
}

void c1_seeds()
{
    using namespace filecoin;
    const seal_config shapes[] = {
        seal_config::custom(64, 2, 1, tree_shape{8, 0, 0}, porep_id_of(1), api_version::v1_1, 1),
        seal_config::custom(128, 2, 1, tree_shape{8, 2, 0}, porep_id_of(2), api_version::v1_1, 1),
        seal_config::custom(128, 2, 1, tree_shape{8, 8, 2}, porep_id_of(3), api_version::v1_2, 1),
    };
    int i = 0;
    for (const seal_config& cfg : shapes) {
        std::string text;
        write_c1_json(synthetic_c1(cfg, uint64_t(7 + i), 1), text);
        write_string("c1_json", ("c1-" + std::to_string(i++) + ".json").c_str(), text);
    }
}

// One made-up sector's vanilla proof per proof type the harness picks by
// its first byte (0: 2 KiB WindowPoSt, 1: 32 GiB, 2: 64 GiB, 3: 2 KiB WinningPoSt).
void post_vanilla_seeds()
{
    using namespace filecoin;
    const int ids[4] = {10, 13, 14, 0};
    domain randomness{};
    randomness[0] = 5;
    for (uint8_t i = 0; i < 4; ++i) {
        const post_config c = registered_post_proof(ids[i]);
        std::vector<uint8_t> b{i};
        const std::vector<uint8_t> v = post_vanilla_to_bincode(post_synthetic_vanilla(c, randomness, 1, i, 1, 1)[0], c);
        b.insert(b.end(), v.begin(), v.end());
        write_bytes("post_vanilla", (c.name + ".bin").c_str(), b);
    }
}

// One made-up partition proof per config the harness picks by its first
// byte (0: 2 KiB, 1: 16 KiB 8-8-0, 2: 32 KiB 8-8-2, 3: 8 MiB).
void update_vanilla_seeds()
{
    using namespace filecoin;
    const update_config configs[4] = {registered_update_proof(0), update_config::for_nodes(1u << 9, {8, 8, 0}),
                                      update_config::for_nodes(1u << 10, {8, 8, 2}), registered_update_proof(1)};
    const char* const names[4] = {"2KiB.bin", "16KiB-8-8-0.bin", "32KiB-8-8-2.bin", "8MiB.bin"};
    for (uint8_t i = 0; i < 4; ++i) {
        const update_config& c = configs[i];
        const update_vanilla u = update_synthetic_vanilla(c, c.h_default(), 11 + i, 1);
        std::vector<uint8_t> b{i};
        const std::vector<uint8_t> v = update_partition_to_bincode(u.partitions.back(), c);
        b.insert(b.end(), v.begin(), v.end());
        write_bytes("update_vanilla", names[i], b);
    }
}

// fuzz_capi's seeds: byte 0 picks the entry point, the numbers after it are
// read front to back (fuzz_capi.cpp); payloads are the seeds written above.
void capi_seeds()
{
    using bytes = std::vector<uint8_t>;
    auto read = [](const char* harness, const char* file) {
        std::ifstream f(root / harness / file, std::ios::binary);
        return bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    };
    auto seed = [](const char* name, bytes head, const bytes& payload = {}) {
        head.insert(head.end(), payload.begin(), payload.end());
        write_bytes("capi", name, head);
    };
    seed("zkey-mem-bls.bin", {0, 0}, read("zkey", "tiny.zkey"));
    seed("zkey-mem-bn128.bin", {0, 0}, read("zkey", "bn128.zkey"));
    seed("vk-mem.bin", {1}, read("vk", "tiny.vk"));
    seed("file-params.bin", {2, 0, 0}, read("params", "tiny.params"));
    seed("file-zkey.bin", {2, 1, 0}, read("zkey", "tiny.zkey"));
    seed("file-vk.bin", {2, 2, 0}, read("vk", "tiny.vk"));
    seed("file-pce.bin", {2, 3, 0}, read("pce", "tiny.pce"));
    for (uint8_t k = 0; k < 5; ++k)   // the key's valid proof and public input
        seed(("verify-" + std::to_string(k) + ".bin").c_str(), {3, k, 1, 0, 0});
    for (uint8_t t = 0; t < 4; ++t)   // one valid witness partition
        seed(("submit-" + std::to_string(t) + ".bin").c_str(), {4, t, 0, 0, 0, 0});
    seed("submit-abc.bin", {4, 1, 0, 2, 0, 0, 0, 0, 0});
    seed("borrowed-witness.bin", {5, 0, 0, 1, 1, 0, 0, 0});
    seed("borrowed-abc.bin", {5, 1, 1, 1, 1, 2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0});
    seed("borrowed-canonical-unaligned.bin", {5, 1, 0, 0, 0, 3, 2, 0, 0, 0, 0, 0});
    seed("density.bin", {6, 0, 0, 1, 1, 2, 0, 0, 0, 0, 0});
    seed("density-bits.bin", {6, 7, 0x7, 0x1, 0x2, 0, 1, 1, 2, 0, 0, 0, 0, 0});
    seed("check-witness.bin", {7, 3, 4, 0, 0});
    bytes one(32, 0);   // the coefficient 1
    one[0] = 1;
    // inputs 1, aux 2, one constraint aux0 · aux1 = input1
    seed("recorder.bin", bytes{8, 1, 2, 0, 1, 0x80} + one + bytes{1, 0x81} + one + bytes{1, 0x01} + one);
    seed("sha256.bin", {9, 3, 'a', 'b', 'c', 1, 1});
    seed("shape-of-c1.bin", {10}, read("c1_json", "c1-0.json"));
    seed("c2-submit.bin", bytes{11, 0, 0} + bytes(32 + 8, 0), read("c1_json", "c1-0.json"));
    // PoSt: the 2 KiB WindowPoSt and WinningPoSt seeds of post_vanilla (randomness 5, 0, …).
    bytes randomness(32, 0);
    randomness[0] = 5;
    const bytes window = read("post_vanilla", "StackedDrgWindow2KiBV1_2.bin"),
                winning = read("post_vanilla", "StackedDrgWinning2KiBV1.bin");
    seed("post-check-window.bin", bytes{13, 0, 10} + randomness + bytes{1, 1, 1, 0, 0},
         bytes(window.begin() + 1, window.end()));
    seed("post-check-winning.bin", bytes{13, 0, 0} + randomness + bytes{1, 1, 1, 0, 0},
         bytes(winning.begin() + 1, winning.end()));
    seed("post-challenges.bin", bytes{14, 0, 10} + randomness + bytes{2} + bytes(16, 1) + bytes{1});
    seed("post-verify.bin", bytes{15, 1, 0, 10} + randomness + bytes{0, 1, 3} + bytes(8 + 32, 0), bytes(192, 0));
    seed("post-submit.bin", bytes{15, 0, 0, 10} + randomness + bytes{0, 1, 0, 0, 0},
         bytes(window.begin() + 1, window.end()));
    const bytes update = read("update_vanilla", "2KiB.bin");
    seed("update-submit.bin", bytes{16, 0, 1, 0, 1, 0} + bytes(96, 0) + bytes{0, 1, 0, 0},
         bytes(update.begin() + 1, update.end()));
    seed("update-verify.bin", bytes{16, 1, 1, 0, 1, 0} + bytes(96, 0) + bytes{3}, bytes(192, 0));
    seed("porep-verify.bin", bytes{12, 3, 0, 0} + bytes(5 * 32 + 8, 0) + bytes{192, 0}, bytes(192, 0));
    seed("job-read.bin", {17, 0, 0, 192, 0, 1});
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::cerr << "usage: fuzz_seeds <corpus dir>\n";
        return 2;
    }
    root = argv[1];
    try {
        const tiny t;
        binary_seeds(t);
        bn128_seeds();
        timeline_seeds();
        c1_seeds();
        post_vanilla_seeds();
        update_vanilla_seeds();
        capi_seeds();
    } catch (const std::exception& e) {
        std::cerr << "fuzz_seeds: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
