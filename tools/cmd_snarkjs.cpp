// `cuzk setup | prove | verify` on snarkjs/circom files, with the same
// arguments as rapidsnark's prover and `snarkjs groth16 verify`, on either
// curve (bls12381 or bn128, read from the files: the .r1cs for setup, the
// .zkey for prove, the verification key for verify); and the bellperson-format
// variants for the built-in SHA-256 circuit (sha256.cpp).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "cli_util.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "cuzk/backend/cuda.hpp"
#include "cuzk/backend/gpu_prover.hpp"
#include "cuzk/error.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/io/snarkjs.hpp"
#include "cuzk/util/random.hpp"
#include "sha256_cmds.hpp"

namespace cuzk::cli {

namespace {

bool has_suffix(const std::string& s, const char* suf)
{
    const size_t n = std::strlen(suf);
    return s.size() >= n && s.compare(s.size() - n, n, suf) == 0;
}

} // namespace

// circom r1cs → setup description. Wire 0 is ONE, then public outputs, public
// inputs, private inputs and internal wires: exactly cuzk's variable order.
template <class F>
static groth16::r1cs_description_t<F> describe_r1cs(const io::r1cs_file_t<F>& r)
{
    groth16::r1cs_description_t<F> d;
    d.num_inputs = 1 + r.n_pub_out + r.n_pub_in;
    if (r.n_wires < d.num_inputs)
        throw error(errc::bad_format, fmt::format("r1cs: {} wires but {} public signals", r.n_wires, d.num_inputs - 1));
    d.num_aux = r.n_wires - d.num_inputs;
    d.num_constraints = r.n_constraints;
    const io::r1cs_file_t<F>* rp = &r;
    d.for_each_entry = [rp](const std::function<void(int, uint32_t, uint32_t, const F&)>& fn) {
        for (uint32_t row = 0; row < rp->constraints.size(); ++row)
            for (int m = 0; m < 3; ++m)
                for (const auto& [wire, coeff] : rp->constraints[row][m]) fn(m, row, wire, coeff);
    };
    return d;
}

namespace {

const char* const setup_usage = "setup <circuit.r1cs> <circuit.zkey>\nsetup sha256 [--blocks B] [--threads N] <out.params> <out.vk>";
const char* const prove_usage =
    "prove <circuit.zkey> <witness.wtns> <proof.json> <public.json> [--threads N] [--gpu] [--no-verify]\n"
    "prove sha256 <in.params> <proof.bin> <public.json> [--blocks B] [--seed S] [--threads N]";
const char* const verify_usage =
    "verify <verification_key.json> <public.json> <proof.json>\nverify sha256 <in.vk> <public.json> <proof.bin>";

constexpr flag_spec prove_flags[] = {
    {"--threads", "N", "CPU threads (default 0 = all cores)"},
    {"--gpu", nullptr, "prove on the GPU (an error saying why when none is usable)"},
    {"--no-verify", nullptr,
     "skip the proof's check against the key's verifying key (a few ms; the key's points are then each tested "
     "on the curve while reading instead)"},
};

bool is_sha256(args a) { return !a.empty() && !std::strcmp(a[0], "sha256"); }

// The proof on the GPU: the key uploaded once, then the device prover.
groth16::proof prove_gpu(const std::shared_ptr<io::zkey>& zkp, const std::vector<fr>& w, groth16::prove_timings& tm)
{
    const auto t0 = std::chrono::steady_clock::now();
    const gpu_key key(std::shared_ptr<const groth16::proving_key>(zkp, &zkp->pk), {}, nullptr);
    std::fprintf(stderr, "cuzk prove: key on the GPU in %.3f s (%s)\n", secs_since(t0),
                 key.resident() ? "resident" : "streamed from host memory");
    return gpu_prove_snarkjs(key, w, os_random_fr(), os_random_fr(), nullptr, &tm);
}
groth16::proof_t<bn254_curve> prove_gpu(const std::shared_ptr<io::zkey_t<bn254_curve>>& zkp,
                                        const std::vector<bn254::fr>& w, groth16::prove_timings& tm)
{
    const auto t0 = std::chrono::steady_clock::now();
    const gpu_key_t<bn254_curve> key(std::shared_ptr<const groth16::proving_key_t<bn254_curve>>(zkp, &zkp->pk));
    std::fprintf(stderr, "cuzk prove: key on the GPU in %.3f s\n", secs_since(t0));
    return gpu_prove_snarkjs(key, w, nullptr, &tm);
}

template <class C>
int setup_on(const std::string& r1cs_path, const std::string& zkey_path)
{
    const auto t0 = std::chrono::steady_clock::now();
    const io::r1cs_file_t<typename C::fr> r = read_as("argument 1, the circuit (circom .r1cs)",
                                                      [&] { return io::read_r1cs<typename C::fr>(r1cs_path); });
    const auto d = read_as("argument 1, " + r1cs_path, [&] { return describe_r1cs(r); });
    std::fprintf(stderr,
                 "cuzk setup: %s: curve %s, %u constraints, %u public signals, %u private; domain 2^%d\n"
                 "cuzk setup: single-party development key, NOT a trusted ceremony\n",
                 r1cs_path.c_str(), C::snarkjs_name, d.num_constraints, d.num_inputs - 1, d.num_aux,
                 int(__builtin_ctzll(groth16::groth16_domain_size(d))));
    progress_step step("cuzk setup", "setting up the key");
    const groth16::proving_key_t<C> pk = groth16::setup_snarkjs<C>(d);
    step.end();
    read_as("argument 2, the key to write (.zkey)", [&] { io::write_zkey<C>(zkey_path, pk); });
    std::fprintf(stderr, "cuzk setup: wrote %s in %.2f s\n", zkey_path.c_str(), secs_since(t0));
    return 0;
}

// The proof against the key's own verifying key, before anything is written:
// an invalid proof is never reported. A key read without the per-point curve
// test is read again with every test when the proof fails, so that a bad
// point is named; when every point passes, the witness is what is wrong (or
// the key's sections do not belong together).
template <class C>
void self_check(const std::vector<std::string>& pos, const io::zkey_t<C>& z, const groth16::proof_t<C>& pr,
                std::span<const typename C::fr> pub, bool curve_tested)
{
    const auto t0 = std::chrono::steady_clock::now();
    const bool on_curve = pr.a.is_on_curve() && pr.b.is_on_curve() && pr.c.is_on_curve();
    if (on_curve && groth16::verify<C>(groth16::prepare_verifying_key<C>(z.pk.vk), pr, pub)) {
        std::fprintf(stderr, "cuzk prove: the proof verifies under the key (%.3f s)\n", secs_since(t0));
        return;
    }
    if (!curve_tested)
        read_as("argument 1, the proving key (.zkey)", [&] { return io::read_zkey<C>(pos[0]).n_vars; });
    throw error(errc::unsatisfied,
                fmt::format("argument 2, {}: the proof made with this witness does not verify under {}'s verifying "
                            "key, so none was written: the witness does not satisfy the key's circuit (`snarkjs wtns "
                            "check` names the failing constraint), or the key's sections do not belong together",
                            pos[1], pos[0]));
}

template <class C>
int prove_on(const std::vector<std::string>& pos, const groth16::prove_options& opt, bool gpu, bool self_verify)
{
    using F = typename C::fr;
    const auto t0 = std::chrono::steady_clock::now();
    progress_step load("cuzk prove", "reading " + pos[0]);
    io::zkey_read_options ro;
    ro.curve = self_verify ? io::curve_check::skip : io::curve_check::check;   // self_check covers it
    const auto zkp = read_as("argument 1, the proving key (.zkey)",
                             [&] { return std::make_shared<io::zkey_t<C>>(io::read_zkey<C>(pos[0], ro)); });
    const double t_load = secs_since(t0);
    const std::vector<F> w = read_as("argument 2, the witness (.wtns)", [&] { return io::read_wtns<F>(pos[1]); });
    load.end();
    if (w.size() != zkp->n_vars)
        throw error(errc::invalid_argument, fmt::format("argument 2, {}: the witness has {} values, the key {} "
                                                        "expects {}", pos[1], w.size(), pos[0], zkp->n_vars));
    groth16::prove_timings tm;
    const auto t1 = std::chrono::steady_clock::now();
    progress_step proving("cuzk prove", "proving");
    const groth16::proof_t<C> pr = gpu ? prove_gpu(zkp, w, tm) : groth16::prove_snarkjs(zkp->pk, std::span<const F>(w), opt, &tm);
    proving.end();
    const double t_prove = secs_since(t1);
    const std::span<const F> pub = std::span<const F>(w).subspan(1, zkp->n_public);
    if (self_verify) self_check<C>(pos, *zkp, pr, pub, ro.curve == io::curve_check::check);
    read_as("argument 3, the proof to write", [&] { io::write_proof_json<C>(pos[2], pr); });
    read_as("argument 4, the public signals to write",
            [&] { io::write_public_json<F>(pos[3], pub); });
    std::fprintf(stderr,
                 "cuzk prove: curve %s; load %.3f s, prove %.3f s (H by NTTs %.3f; multi-scalar multiplications (MSM) "
                 "over the key's H %.3f, L %.3f, A %.3f, B in G1 %.3f, B in G2 %.3f)\n",
                 C::snarkjs_name, t_load, t_prove, tm.h_ns * 1e-9, tm.msm_h_ns * 1e-9, tm.msm_l_ns * 1e-9,
                 tm.msm_a_ns * 1e-9, tm.msm_b1_ns * 1e-9, tm.msm_b2_ns * 1e-9);
    return 0;
}

// The curve of a snarkjs file, for the error messages of `role`.
curve_id file_curve(const std::string& role, const std::string& path)
{
    return read_as(role, [&] { return io::snarkjs_file_curve(path); });
}

} // namespace

int cmd_setup(args a)
{
    if (is_sha256(a)) return sha256_setup(a.subspan(1));
    const options o(a, {}, 2, 2);
    if (o.help())
        return show_help(setup_usage, "A single-party development key (NOT a trusted ceremony) for a circom circuit, "
                         "written as a snarkjs .zkey on the circuit's curve (bls12381 or bn128, from its prime); "
                         "`setup sha256 --help` for the built-in circuit.",
                         {});
    const std::string r1cs_path = o.positional()[0], zkey_path = o.positional()[1];
    if (file_curve("argument 1, the circuit (circom .r1cs)", r1cs_path) == curve_id::bn254)
        return setup_on<bn254_curve>(r1cs_path, zkey_path);
    return setup_on<bls12_381_curve>(r1cs_path, zkey_path);
}

int cmd_prove(args a)
{
    if (is_sha256(a)) return sha256_prove(a.subspan(1));
    const options o(a, prove_flags, 4, 4);
    if (o.help())
        return show_help(prove_usage, "A Groth16 proof with rapidsnark's arguments: a snarkjs .zkey and its witness "
                         "in (curve bls12381 or bn128, from the key), a snarkjs proof.json and public.json out; "
                         "`prove sha256 --help` for the built-in circuit.", prove_flags);
    const auto& pos = o.positional();
    groth16::prove_options opt;
    opt.threads = unsigned(o.get_u64_or("--threads", 0, 4096, 0));
    if (o.has("--gpu") && !cuda_available()) throw error(errc::unsupported, "--gpu: " + no_gpu_reason());
    if (file_curve("argument 1, the proving key (.zkey)", pos[0]) == curve_id::bn254)
        return prove_on<bn254_curve>(pos, opt, o.has("--gpu"), !o.has("--no-verify"));
    return prove_on<bls12_381_curve>(pos, opt, o.has("--gpu"), !o.has("--no-verify"));
}

namespace {

// The verification for the curve C of the key: the public signals and the
// proof must be for C too.
template <class C>
int verify_on(const io::json& vkj, const std::string& vk_path, const std::string& pub_path,
              const std::string& proof_path)
{
    const io::snarkjs_vk_t<C> svk = read_as("argument 1, the verification key (verification_key.json)",
                                            [&] { return io::vk_from_json<C>(vkj, vk_path); });
    const std::vector<typename C::fr> pub =
        read_as("argument 2, the public signals (public.json)", [&] { return io::read_public_json<C>(pub_path); });
    if (pub.size() != svk.n_public())
        throw error(errc::invalid_argument, fmt::format("argument 2, {}: {} public signals, the key {} expects {}",
                                                        pub_path, pub.size(), vk_path, svk.n_public()));
    const groth16::proof_t<C> pr =
        read_as("argument 3, the proof (proof.json)", [&] { return io::read_proof_json<C>(proof_path); });
    const auto pvk = groth16::prepare_verifying_key(svk.to_verifying_key());
    if (groth16::verify<C>(pvk, pr, pub)) {
        std::printf("OK\n");
        return 0;
    }
    std::printf("INVALID: %s does not verify for %s under %s\n", proof_path.c_str(), pub_path.c_str(),
                vk_path.c_str());
    return 1;
}

} // namespace

int cmd_verify(args a)
{
    if (is_sha256(a)) return sha256_verify(a.subspan(1));
    const options o(a, {}, 3, 3);
    if (o.help())
        return show_help(verify_usage, "Like `snarkjs groth16 verify`: prints OK and exits 0 when the proof is valid, "
                         "INVALID and exits 1 otherwise. The curve (bls12381 or bn128) is the one the verification "
                         "key names. A first argument ending in .vk is taken as `verify sha256`.",
                         {});
    const std::string vk_path = o.positional()[0], pub_path = o.positional()[1], proof_path = o.positional()[2];
    if (has_suffix(vk_path, ".vk")) return sha256_verify(a);
    const io::json vkj = read_as("argument 1, the verification key (verification_key.json)", [&] {
        return io::json::parse(io::read_text_file(vk_path), vk_path);
    });
    const std::optional<curve_id> c =
        read_as("argument 1, the verification key (verification_key.json)", [&] { return io::json_curve(vkj, vk_path); });
    if (c == curve_id::bn254) return verify_on<bn254_curve>(vkj, vk_path, pub_path, proof_path);
    return verify_on<bls12_381_curve>(vkj, vk_path, pub_path, proof_path);   // a missing curve is refused there
}

} // namespace cuzk::cli
