// The built-in SHA-256 preimage circuit with bellperson-format files:
//   cuzk setup  sha256 [--blocks B] [--threads N] <out.params> <out.vk>
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
#include "cli_util.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "sha256_cmds.hpp"

namespace cuzk::cli {

namespace {

using r1cs::gadgets::sha256_preimage_circuit;

const char* const setup_usage = "setup sha256 [--blocks B] [--threads N] <out.params> <out.vk>";
const char* const prove_usage = "prove sha256 <in.params> <proof.bin> <public.json> [--blocks B] [--seed S] [--threads N]";
const char* const verify_usage = "verify sha256 <in.vk> <public.json> <proof.bin>";

// 4096 blocks is ~10^8 constraints, far past a development circuit; larger
// values only ask for memory that is not there.
constexpr flag_spec setup_flags[] = {
    {"--blocks", "B", "SHA-256 compressions in the circuit, 1 ... 4096 (default 1; ~26k constraints each)"},
    {"--threads", "N", "threads (default 0 = all cores)"},
};
constexpr flag_spec prove_flags[] = {
    {"--blocks", "B", "the --blocks given at setup (default 1)"},
    {"--seed", "S", "seed of the secret message proved (default 1)"},
    {"--threads", "N", "threads (default 0 = all cores)"},
};

unsigned blocks_of(const options& o) { return unsigned(o.get_u64_or("--blocks", 1, 4096, 1)); }
unsigned threads_of(const options& o) { return unsigned(o.get_u64_or("--threads", 0, 4096, 0)); }

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
    const options o(a, setup_flags, 2, 2);
    if (o.help())
        return show_help(setup_usage, "A single-party development key of the built-in SHA-256 preimage circuit "
                         "(bellperson format; NOT a trusted ceremony).", setup_flags);
    const unsigned blocks = blocks_of(o);
    const auto& pos = o.positional();
    const auto t0 = std::chrono::steady_clock::now();
    progress_step step("cuzk setup sha256", "recording the circuit and setting up the key");
    const r1cs::pce p = r1cs::record(sha256_preimage_circuit::blank(blocks));
    groth16::setup_options so;
    so.threads = threads_of(o);
    const groth16::proving_key pk = groth16::setup_bellperson(groth16::describe(p), nullptr, so);
    step.end();
    read_as("argument 1, the parameters to write", [&] { io::write_params(pos[0], pk); });
    read_as("argument 2, the verifying key to write", [&] { io::write_vk(pos[1], pk.vk); });
    std::fprintf(stderr,
                 "cuzk setup sha256: %s, %llu constraints, %u aux, domain 2^%d; wrote %s and %s in %.2f s\n"
                 "cuzk setup sha256: single-party development key, NOT a trusted ceremony\n",
                 count_of(blocks, "block").c_str(), (unsigned long long)p.num_constraints, p.num_aux, int(__builtin_ctzll(pk.domain_size)),
                 pos[0].c_str(), pos[1].c_str(), secs_since(t0));
    return 0;
}

int sha256_prove(args a)
{
    const options o(a, prove_flags, 3, 3);
    if (o.help())
        return show_help(prove_usage, "A proof of the built-in SHA-256 circuit: knowledge of a message (from --seed) "
                         "whose digest is written to public.json; the proof is 192 bytes, bellperson encoding.",
                         prove_flags);
    const unsigned blocks = blocks_of(o), threads = threads_of(o);
    const uint64_t seed = o.get_u64_or("--seed", 0, UINT64_MAX, 1);
    const auto& pos = o.positional();
    auto t0 = std::chrono::steady_clock::now();
    progress_step load("cuzk prove sha256", "reading " + pos[0]);
    const groth16::proving_key pk = read_as("argument 1, the parameters (.params of cuzk setup sha256)", [&] {
        return io::read_params(pos[0], subgroup_check::skip, threads);
    });
    load.end();
    const double t_load = secs_since(t0);
    const r1cs::pce p = r1cs::record(sha256_preimage_circuit::blank(blocks));
    if (pk.l.size() != p.num_aux || pk.vk.ic.size() != p.num_inputs)
        throw error(errc::invalid_argument,
                    fmt::format("argument 1, {}: the key has {} aux variables and {} inputs; the SHA-256 circuit of {} "
                                "block(s) has {} and {} (pass the --blocks used at setup)",
                                pos[0], pk.l.size(), pk.vk.ic.size(), blocks, p.num_aux, p.num_inputs));
    const sha256_preimage_circuit circ(message_for(blocks, seed));
    groth16::prove_options po;
    po.threads = threads;
    groth16::circuit_timings tm;
    std::vector<fr> pub;
    t0 = std::chrono::steady_clock::now();
    progress_step proving("cuzk prove sha256", "proving");
    const groth16::proof pr = groth16::prove_circuit(pk, p, groth16::density_of(p), circ, po, &tm, &pub);
    proving.end();
    const double t_prove = secs_since(t0);
    uint8_t bytes[192];
    io::proof_to_bytes(pr, bytes);
    read_as("argument 2, the proof to write", [&] {
        io::output_file out(pos[1]);
        out.write(bytes, sizeof bytes);
        out.close();
    });
    read_as("argument 3, the public inputs to write", [&] { io::write_public_json(pos[2], pub); });
    std::fprintf(stderr,
                 "cuzk prove sha256: load %.3f s; prove %.3f s = synthesis %.3f + PCE evaluation %.3f + H (NTTs) %.3f "
                 "+ multi-scalar multiplications (MSM) over the key's H %.3f, L %.3f, A %.3f, B in G1 %.3f, B in G2 "
                 "%.3f\n",
                 t_load, t_prove, tm.synth_ns * 1e-9, tm.eval_ns * 1e-9, tm.prove.h_ns * 1e-9,
                 tm.prove.msm_h_ns * 1e-9, tm.prove.msm_l_ns * 1e-9, tm.prove.msm_a_ns * 1e-9,
                 tm.prove.msm_b1_ns * 1e-9, tm.prove.msm_b2_ns * 1e-9);
    return 0;
}

int sha256_verify(args a)
{
    const options o(a, {}, 3, 3);
    if (o.help())
        return show_help(verify_usage, "Checks a proof of the built-in SHA-256 circuit; prints OK and exits 0 when "
                         "it is valid, INVALID and exits 1 otherwise.", {});
    const std::string vk_path = o.positional()[0], pub_path = o.positional()[1], proof_path = o.positional()[2];
    const groth16::verifying_key vk =
        read_as("argument 1, the verifying key (.vk of cuzk setup sha256)", [&] { return io::read_vk(vk_path); });
    const std::vector<fr> pub =
        read_as("argument 2, the public inputs (public.json)", [&] { return io::read_public_json(pub_path); });
    if (pub.size() + 1 != vk.ic.size())
        throw error(errc::invalid_argument, fmt::format("argument 2, {}: {} public inputs, the key {} expects {}",
                                                        pub_path, pub.size(), vk_path, vk.ic.size() - 1));
    const groth16::proof pr = read_as("argument 3, the proof (192 bytes)", [&] {
        const io::mapped_file pf(proof_path);
        if (pf.bytes().size() != 192)
            throw error(errc::bad_format, fmt::format("{}: {} bytes; a bellperson proof has 192", proof_path,
                                                      pf.bytes().size()));
        return io::proof_from_bytes(pf.bytes());
    });
    if (groth16::verify(groth16::prepare_verifying_key(vk), pr, pub)) {
        std::printf("OK\n");
        return 0;
    }
    std::printf("INVALID: %s does not verify for %s under %s\n", proof_path.c_str(), pub_path.c_str(),
                vk_path.c_str());
    return 1;
}

} // namespace cuzk::cli
