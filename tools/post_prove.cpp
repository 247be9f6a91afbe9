// `cuzk post circuit | setup | prove | verify`: the PoSt circuit's size, a
// development key, Groth16 proofs of vanilla proof files through the proving
// engine, and their verification.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/parameters.hpp"
#include "cuzk/filecoin/post/bincode.hpp"
#include "cuzk/filecoin/post/circuit.hpp"
#include "cuzk/filecoin/post/prove.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/timeline/analysis.hpp"
#include "cuzk/timeline/render.hpp"
#include "cuzk/timeline/sinks.hpp"
#include "cuzk/util/parallel.hpp"
#include "cli_util.hpp"
#include "engine_report.hpp"
#include "post_commands.hpp"

namespace cuzk::cli::post {

using io::json;
using porep::hex32;
using porep::print_result;
using porep::use_gpu;
namespace fc = filecoin;

namespace {

using steady = std::chrono::steady_clock;

std::string shape_of(const fc::post_config& c)
{
    return fmt::format("{} sectors x {} challenges, {} nodes, tree {}", c.circuit_sectors(), c.circuit_challenges(),
                       c.nodes, c.tree.name());
}

// The key prove uses: a .params file (mapped on the GPU, where the engine
// decodes its points onto the devices; decoded here for the CPU prover), or
// (--dev-key) a development key made in memory, its .vk written when --vk is given.
fc::post_key prove_key(const options& o, const fc::post_config& c, bool gpu, unsigned threads)
{
    if (o.has("--parameters-json") && !o.has("--params")) throw usage_error("--parameters-json goes with --params");
    return proof_key(
        o, "cuzk post prove", gpu,
        [&](const std::string& path) {
            if (o.has("--parameters-json")) {
                fc::check_params_digest(path, o.get("--parameters-json"));
                std::fprintf(stderr, "cuzk post prove: %s matches its digest in %s\n", path.c_str(),
                             o.get("--parameters-json").c_str());
            }
            return gpu ? fc::map_post_key(c, path, threads) : fc::load_post_key(c, path, threads);
        },
        [&] { return fc::post_dev_setup(c, gpu, threads); });
}

// --sectors ID:COMM_R,...
std::vector<fc::post_public_sector> parse_sectors(const std::string& list)
{
    std::vector<fc::post_public_sector> out;
    for (const std::string& item : split_list(list)) {
        const size_t colon = item.find(':');
        if (colon == std::string::npos)
            throw usage_error(fmt::format("--sectors: expected ID:COMM_R (64 hex digits), got '{}'", item));
        fc::post_public_sector s;
        s.sector_id = parse_u64("--sectors", item.substr(0, colon), 0, UINT64_MAX);
        try {
            s.comm_r = fc::parse_hex32(item.substr(colon + 1), fmt::format("--sectors: sector {}'s comm_r", s.sector_id));
        } catch (const error& e) {
            throw usage_error(e.what());
        }
        out.push_back(s);
    }
    return out;
}

} // namespace

int post_circuit_cmd(const options& o)
{
    const fc::post_config c = parse_post_proof(o);
    return porep::print_circuit_size(o, fc::post_circuit(c),
                                     {{"registered_proof", json::string(c.name)}, {"shape", json::string(shape_of(c))}});
}

int post_setup(const options& o)
{
    const fc::post_config c = parse_post_proof(o);
    const bool gpu = use_gpu(o);
    const unsigned threads = unsigned(o.get_u64_or("--threads", 0, 1024, 0));
    const std::string& out = o.get("--out");
    const std::string& vk = o.get("--vk");
    const auto t0 = steady::now();
    std::fprintf(stderr, "cuzk post setup: recording the %s circuit (%s) and making the key on the %s\n", c.name.c_str(),
                 shape_of(c).c_str(), gpu ? "GPU" : "CPU");
    const fc::post_key k = fc::post_dev_setup(c, gpu, threads);
    std::fprintf(stderr, "cuzk post setup: key made in %.1f s (single-party development key, NOT a trusted ceremony)\n",
                 secs_since(t0));
    io::write_params(out, *k.pk);
    io::write_vk(vk, k.pk->vk);
    print_result(json::object({{"params", json::string(out)},
                               {"vk", json::string(vk)},
                               {"registered_proof", json::string(c.name)},
                               {"constraints", json::number(uint64_t(k.pce->num_constraints))},
                               {"inputs", json::number(uint64_t(k.pce->num_inputs))},
                               {"aux", json::number(uint64_t(k.pce->num_aux))}}),
                 o.has("--json"));
    return 0;
}

namespace {

// The vanilla proofs to prove: the files given, or (--synthetic N) made-up
// proofs of N sectors numbered 1 … N.
std::vector<fc::post_sector_proof> prove_inputs(const options& o, const fc::post_config& c, const fc::domain& randomness,
                                                unsigned threads)
{
    const std::vector<std::string>& files = o.positional();
    if (o.has("--synthetic")) {
        if (!files.empty()) throw usage_error("--synthetic takes no vanilla proof files");
        const uint64_t n = o.get_u64_or("--synthetic", 1, 1u << 20, 1);
        if (c.type == fc::post_type::winning && n != 1) throw usage_error(c.name + " proves one sector: --synthetic 1");
        const auto t0 = steady::now();
        auto proofs = fc::post_synthetic_vanilla(c, randomness, size_t(n), o.get_u64_or("--gen-seed", 0, UINT64_MAX, 0),
                                                 1, threads);
        std::fprintf(stderr, "cuzk post prove: made-up vanilla proofs of %s in %.1f s\n",
                     count_of(proofs.size(), "sector").c_str(), secs_since(t0));
        return proofs;
    }
    if (files.empty()) throw usage_error("give the vanilla proof files, or --synthetic N");
    if (c.type == fc::post_type::winning && files.size() != 1)
        throw usage_error(fmt::format("{} proves one sector: give one vanilla proof file, not {}", c.name, files.size()));
    std::vector<fc::post_sector_proof> proofs;
    for (const std::string& f : files) {
        const io::mapped_file m(f);
        fc::post_sector_proof p = fc::post_vanilla_from_bincode(m.bytes(), c, f);
        // Another proof type's file of the same tree reads; say so here, by name.
        if (p.inclusion_proofs.size() != c.challenge_count)
            throw error(errc::bad_format,
                        fmt::format("{}: sector {}: {} challenges, {} has {} (a vanilla proof of another PoSt type?)", f,
                                    p.sector_id, p.inclusion_proofs.size(), c.name, c.challenge_count));
        proofs.push_back(std::move(p));
    }
    return proofs;
}

} // namespace

int post_prove_cmd(const options& o)
{
    const fc::post_config c = parse_post_proof(o);
    const fc::domain randomness = hex32(o, "--randomness");
    const unsigned first = parse_partition(o, c);
    const std::string& out = o.get("--out");
    const unsigned threads = unsigned(o.get_u64_or("--threads", 0, 1024, 0));
    const unsigned repeat = unsigned(o.get_u64_or("--repeat", 1, 1000, 1));
    const std::vector<fc::post_sector_proof> proofs = prove_inputs(o, c, randomness, threads);
    // The vanilla proofs checked before a key is made or loaded (a 32 GiB
    // WindowPoSt development key takes minutes): faulty sectors named.
    if (!o.has("--synthetic")) fc::post_check_vanilla(c, randomness, proofs, first, threads);
    const unsigned partitions = c.partitions_for(proofs.size());

    const bool gpu = use_gpu(o);
    pipeline::engine_config ec = proof_engine(o, gpu, partitions, threads);   // its flags before the key
    const fc::post_key k = prove_key(o, c, gpu, threads);
    timeline::recorder rec;
    ec.sink = &rec;
    pipeline::engine eng(ec);
    auto t0 = steady::now();
    const auto key = fc::add_porep_key(eng, k, pipeline::key_options{c.name});
    const auto placement = report_key("cuzk post prove", eng, key, k.params != nullptr, secs_since(t0));
    std::fprintf(stderr, "cuzk post prove: proving %s as %s from partition %u on the %s%s\n",
                 count_of(proofs.size(), "sector").c_str(), count_of(partitions, "partition").c_str(), first,
                 gpu ? "GPU" : "CPU", repeat > 1 ? fmt::format(", {} times", repeat).c_str() : "");
    std::vector<uint8_t> proof;
    std::vector<double> seconds;
    for (unsigned r = 0; r < repeat; ++r) {
        t0 = steady::now();
        proof = fc::post_prove(eng, key, c, randomness, proofs, first, threads);
        seconds.push_back(secs_since(t0));
    }
    io::output_file f(out);
    f.write(proof);
    f.close();
    const std::vector<timeline::event> events = rec.events();
    if (o.has("--timeline")) write_timeline(o.get("--timeline"), events);
    if (o.has("--waterfall")) std::fputs(timeline::render_text(timeline::analyse(events)).c_str(), stderr);
    const bool verified = fc::post_verify(k.pk->vk, proof, c, randomness, fc::post_public_sectors(proofs), first);
    std::vector<json> secs;
    for (double v : seconds) secs.push_back(json::number(fmt::format("{:.3f}", v)));
    print_result(json::object({{"proof", json::string(out)},
                               {"registered_proof", json::string(c.name)},
                               {"sectors", json::number(uint64_t(proofs.size()))},
                               {"partitions", json::number(uint64_t(partitions))},
                               {"first_partition", json::number(uint64_t(first))},
                               {"bytes", json::number(uint64_t(proof.size()))},
                               {"backend", json::string(gpu ? "cuda" : "cpu")},
                               {"key", json::string(placement_name(placement))},
                               {"seconds", json::array(std::move(secs))},
                               {"verified", json::boolean(verified)}}),
                 o.has("--json"));
    return verified ? 0 : 1;
}

int post_verify_cmd(const options& o)
{
    const fc::post_config c = parse_post_proof(o);
    const fc::domain randomness = hex32(o, "--randomness");
    const std::vector<fc::post_public_sector> sectors = parse_sectors(o.get("--sectors"));
    const unsigned first = parse_partition(o, c);
    const groth16::verifying_key vk = read_as("--vk", [&] { return io::read_vk(o.get("--vk")); });
    const std::string& path = o.positional()[0];
    const io::mapped_file proof(path);
    const bool valid = read_as(path, [&] { return fc::post_verify(vk, proof.bytes(), c, randomness, sectors, first); });
    print_result(json::object({{"valid", json::boolean(valid)}}), o.has("--json"));
    return valid ? 0 : 1;
}

} // namespace cuzk::cli::post
