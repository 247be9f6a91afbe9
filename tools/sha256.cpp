// The built-in SHA-256 preimage circuit with bellperson-format files:
//   cuzk setup  sha256 [--blocks B] <out.params> <out.vk>
//   cuzk prove  sha256 <in.params> <proof.bin> <public.json> [--blocks B] [--seed S] [--threads N]
//   cuzk verify sha256 <in.vk> <public.json> <proof.bin>
// The proof file holds the 192-byte bellperson encoding; public.json the two
// public inputs (the digest's halves) as decimal strings, like snarkjs's.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"
#include "options.hpp"
#include "sha256_cmds.hpp"

namespace cuzk::cli {

namespace {

using r1cs::gadgets::sha256_preimage_circuit;

double secs_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct opts {
    unsigned blocks = 1;
    uint64_t seed = 1;
    unsigned threads = 0;
    std::vector<std::string> pos;
};

opts parse(args a)
{
    opts o;
    for (size_t i = 0; i < a.size(); ++i) {
        const std::string s = a[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= a.size()) throw usage_error(fmt::format("{} needs a value", s));
            return a[++i];
        };
        // Bounds: 4096 blocks is ~10^8 constraints, far past a development
        // circuit; larger values only ask for memory that is not there.
        if (s == "--blocks") o.blocks = unsigned(parse_u64(s, next(), 1, 4096));
        else if (s == "--seed") o.seed = parse_u64(s, next(), 0, UINT64_MAX);
        else if (s == "--threads") o.threads = unsigned(parse_u64(s, next(), 0, 4096));
        else o.pos.push_back(s);
    }
    return o;
}

// The message proved: the longest that fits the blocks, bytes from the seed.
std::vector<uint8_t> message_for(unsigned blocks, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<uint8_t> m(sha256_preimage_circuit::max_message_bytes(blocks));
    for (auto& b : m) b = uint8_t(rng());
    return m;
}

} // namespace

int sha256_setup(args a)
{
    const opts o = parse(a);
    if (o.pos.size() != 2) {
        std::fprintf(stderr, "usage: cuzk setup sha256 [--blocks B] <out.params> <out.vk>\n");
        return 2;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const r1cs::pce p = r1cs::record(sha256_preimage_circuit::blank(o.blocks));
    groth16::setup_options so;
    so.threads = o.threads;
    const groth16::proving_key pk = groth16::setup_bellperson(groth16::describe(p), nullptr, so);
    io::write_params(o.pos[0], pk);
    io::write_vk(o.pos[1], pk.vk);
    std::fprintf(stderr,
                 "cuzk setup sha256: %u block(s), %llu constraints, %u aux, domain 2^%d; wrote %s and %s in %.2f s\n"
                 "cuzk setup sha256: single-party development key, NOT a trusted ceremony\n",
                 o.blocks, (unsigned long long)p.num_constraints, p.num_aux, int(__builtin_ctzll(pk.domain_size)),
                 o.pos[0].c_str(), o.pos[1].c_str(), secs_since(t0));
    return 0;
}

int sha256_prove(args a)
{
    const opts o = parse(a);
    if (o.pos.size() != 3) {
        std::fprintf(stderr,
                     "usage: cuzk prove sha256 <in.params> <proof.bin> <public.json> [--blocks B] [--seed S] [--threads N]\n");
        return 2;
    }
    auto t0 = std::chrono::steady_clock::now();
    const groth16::proving_key pk = io::read_params(o.pos[0], subgroup_check::skip, o.threads);
    const double t_load = secs_since(t0);
    const r1cs::pce p = r1cs::record(sha256_preimage_circuit::blank(o.blocks));
    if (pk.l.size() != p.num_aux || pk.vk.ic.size() != p.num_inputs)
        throw error(errc::invalid_argument,
                    fmt::format("{}: the key has {} aux variables and {} inputs; the SHA-256 circuit of {} block(s) "
                                "has {} and {} (pass the --blocks used at setup)",
                                o.pos[0], pk.l.size(), pk.vk.ic.size(), o.blocks, p.num_aux, p.num_inputs));
    const sha256_preimage_circuit circ(message_for(o.blocks, o.seed));
    groth16::prove_options po;
    po.threads = o.threads;
    groth16::circuit_timings tm;
    std::vector<fr> pub;
    t0 = std::chrono::steady_clock::now();
    const groth16::proof pr = groth16::prove_circuit(pk, p, groth16::density_of(p), circ, po, &tm, &pub);
    const double t_prove = secs_since(t0);
    uint8_t bytes[192];
    io::proof_to_bytes(pr, bytes);
    io::output_file out(o.pos[1]);
    out.write(bytes, sizeof bytes);
    out.close();
    io::write_public_json(o.pos[2], pub);
    std::fprintf(stderr,
                 "cuzk prove sha256: load %.3f s; prove %.3f s = synthesis %.3f + PCE %.3f + H %.3f + MSM H %.3f, "
                 "L %.3f, A %.3f, B1 %.3f, B2 %.3f\n",
                 t_load, t_prove, tm.synth_ns * 1e-9, tm.eval_ns * 1e-9, tm.prove.h_ns * 1e-9,
                 tm.prove.msm_h_ns * 1e-9, tm.prove.msm_l_ns * 1e-9, tm.prove.msm_a_ns * 1e-9,
                 tm.prove.msm_b1_ns * 1e-9, tm.prove.msm_b2_ns * 1e-9);
    return 0;
}

int sha256_verify(args a)
{
    if (a.size() != 3) {
        std::fprintf(stderr, "usage: cuzk verify sha256 <in.vk> <public.json> <proof.bin>\n");
        return 2;
    }
    const std::string vk_path = a[0], pub_path = a[1], proof_path = a[2];
    const groth16::verifying_key vk = io::read_vk(vk_path);
    const std::vector<fr> pub = io::read_public_json(pub_path);
    if (pub.size() + 1 != vk.ic.size()) {
        std::fprintf(stderr, "cuzk verify: %s has %zu public inputs, %s expects %zu\n", pub_path.c_str(), pub.size(),
                     vk_path.c_str(), vk.ic.size() - 1);
        return 1;
    }
    const io::mapped_file pf(proof_path);
    const groth16::proof pr = io::proof_from_bytes(pf.bytes());
    if (groth16::verify(groth16::prepare_verifying_key(vk), pr, pub)) {
        std::printf("OK\n");
        return 0;
    }
    std::printf("INVALID: %s does not verify for %s under %s\n", proof_path.c_str(), pub_path.c_str(),
                vk_path.c_str());
    return 1;
}

} // namespace cuzk::cli
