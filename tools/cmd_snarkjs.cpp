// `cuzk setup | prove | verify` on snarkjs/circom files (curve bls12381), with
// the same arguments as rapidsnark's prover and `snarkjs groth16 verify`; and
// the bellperson-format variants for the built-in SHA-256 circuit (sha256.cpp).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "options.hpp"
#include "cuzk/backend/gpu_prover.hpp"
#include "cuzk/error.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/json.hpp"
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

double secs_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

// circom r1cs → setup description. Wire 0 is ONE, then public outputs, public
// inputs, private inputs and internal wires: exactly cuzk's variable order.
static groth16::r1cs_description describe_r1cs(const io::r1cs_file& r)
{
    groth16::r1cs_description d;
    d.num_inputs = 1 + r.n_pub_out + r.n_pub_in;
    if (r.n_wires < d.num_inputs)
        throw error(errc::bad_format, fmt::format("r1cs: {} wires but {} public signals", r.n_wires, d.num_inputs - 1));
    d.num_aux = r.n_wires - d.num_inputs;
    d.num_constraints = r.n_constraints;
    const io::r1cs_file* rp = &r;
    d.for_each_entry = [rp](const std::function<void(int, uint32_t, uint32_t, const fr&)>& fn) {
        for (uint32_t row = 0; row < rp->constraints.size(); ++row)
            for (int m = 0; m < 3; ++m)
                for (const auto& [wire, coeff] : rp->constraints[row][m]) fn(m, row, wire, coeff);
    };
    return d;
}

int cmd_setup(args a)
{
    if (a.size() >= 1 && !std::strcmp(a[0], "sha256")) return sha256_setup(a.subspan(1));
    if (a.size() != 2) {
        std::fprintf(stderr, "usage: cuzk setup <circuit.r1cs> <circuit.zkey>\n"
                             "       cuzk setup sha256 [--blocks B] <out.params> <out.vk>\n");
        return 2;
    }
    const std::string r1cs_path = a[0], zkey_path = a[1];
    const auto t0 = std::chrono::steady_clock::now();
    const io::r1cs_file r = io::read_r1cs(r1cs_path);
    const groth16::r1cs_description d = describe_r1cs(r);
    std::fprintf(stderr,
                 "cuzk setup: %s: %u constraints, %u public signals, %u private; domain 2^%d\n"
                 "cuzk setup: single-party development key, NOT a trusted ceremony\n",
                 r1cs_path.c_str(), d.num_constraints, d.num_inputs - 1, d.num_aux,
                 int(__builtin_ctzll(groth16::groth16_domain_size(d))));
    const groth16::proving_key pk = groth16::setup_snarkjs(d);
    io::write_zkey(zkey_path, pk);
    std::fprintf(stderr, "cuzk setup: wrote %s in %.2f s\n", zkey_path.c_str(), secs_since(t0));
    return 0;
}

int cmd_prove(args a)
{
    if (a.size() >= 1 && !std::strcmp(a[0], "sha256")) return sha256_prove(a.subspan(1));
    unsigned threads = 0;
    bool gpu = false;
    std::vector<std::string> pos;
    for (size_t i = 0; i < a.size(); ++i) {
        if (!std::strcmp(a[i], "--threads") && i + 1 < a.size()) threads = unsigned(parse_u64("--threads", a[++i], 0, 4096));
        else if (!std::strcmp(a[i], "--gpu")) gpu = true;
        else pos.emplace_back(a[i]);
    }
    if (pos.size() != 4) {
        std::fprintf(stderr,
                     "usage: cuzk prove <circuit.zkey> <witness.wtns> <proof.json> <public.json> [--threads N] [--gpu]\n"
                     "       cuzk prove sha256 ...\n");
        return 2;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const auto zkp = std::make_shared<io::zkey>(io::read_zkey(pos[0]));
    const io::zkey& zk = *zkp;
    const double t_load = secs_since(t0);
    const std::vector<fr> w = io::read_wtns(pos[1]);
    if (w.size() != zk.n_vars)
        throw error(errc::invalid_argument, fmt::format("{}: the witness has {} values, {} expects {}", pos[1],
                                                        w.size(), pos[0], zk.n_vars));
    groth16::prove_options opt;
    opt.threads = threads;
    groth16::prove_timings tm;
    auto t1 = std::chrono::steady_clock::now();
    groth16::proof pr;
    if (gpu) {
        // The key on the device (uploaded once), then the device prover.
        const gpu_key key(std::shared_ptr<const groth16::proving_key>(zkp, &zkp->pk), {}, nullptr);
        std::fprintf(stderr, "cuzk prove: key on the GPU in %.3f s (%s)\n", secs_since(t1),
                     key.resident() ? "resident" : "streamed from host memory");
        t1 = std::chrono::steady_clock::now();
        pr = gpu_prove_snarkjs(key, w, os_random_fr(), os_random_fr(), nullptr, &tm);
    } else {
        pr = groth16::prove_snarkjs(zk.pk, w, opt, &tm);
    }
    const double t_prove = secs_since(t1);
    io::write_proof_json(pos[2], pr);
    io::write_public_json(pos[3], std::span<const fr>(w).subspan(1, zk.n_public));
    std::fprintf(stderr,
                 "cuzk prove: load %.3f s, prove %.3f s (H %.3f, MSM H %.3f, L %.3f, A %.3f, B1 %.3f, B2 %.3f)\n",
                 t_load, t_prove, tm.h_ns * 1e-9, tm.msm_h_ns * 1e-9, tm.msm_l_ns * 1e-9, tm.msm_a_ns * 1e-9,
                 tm.msm_b1_ns * 1e-9, tm.msm_b2_ns * 1e-9);
    return 0;
}

int cmd_verify(args a)
{
    if (a.size() >= 1 && !std::strcmp(a[0], "sha256")) return sha256_verify(a.subspan(1));
    if (a.size() != 3) {
        std::fprintf(stderr, "usage: cuzk verify <verification_key.json> <public.json> <proof.json>\n"
                             "       cuzk verify sha256 <file.vk> <public.json> <proof.bin>\n");
        return 2;
    }
    const std::string vk_path = a[0], pub_path = a[1], proof_path = a[2];
    if (has_suffix(vk_path, ".vk")) return sha256_verify(a);
    const io::snarkjs_vk svk = io::read_vk_json(vk_path);
    const std::vector<fr> pub = io::read_public_json(pub_path);
    if (pub.size() != svk.n_public()) {
        std::fprintf(stderr, "cuzk verify: %s has %zu public signals, %s expects %u\n", pub_path.c_str(), pub.size(),
                     vk_path.c_str(), svk.n_public());
        return 1;
    }
    const groth16::proof pr = io::read_proof_json(proof_path);
    const groth16::prepared_verifying_key pvk = groth16::prepare_verifying_key(svk.to_verifying_key());
    if (groth16::verify(pvk, pr, pub)) {
        std::printf("OK\n");
        return 0;
    }
    std::printf("INVALID: %s does not verify for %s under %s\n", proof_path.c_str(), pub_path.c_str(),
                vk_path.c_str());
    return 1;
}

} // namespace cuzk::cli
