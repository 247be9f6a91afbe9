// `cuzk update <command>`: Filecoin SnapDeals (EmptySectorUpdate): the
// update of a sealed test sector and its vanilla proofs, the circuit's
// size, Groth16 proofs through the proving engine (of vanilla proof files
// or a made-up update), and their verification.
#include <chrono>
#include <filesystem>
#include <cstdio>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/update/bincode.hpp"
#include "cuzk/filecoin/update/circuit.hpp"
#include "cuzk/filecoin/update/prove.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/timeline/analysis.hpp"
#include "cuzk/timeline/render.hpp"
#include "cuzk/timeline/sinks.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "engine_report.hpp"
#include "porep_common.hpp"

namespace cuzk::cli {

namespace {

using io::json;
using porep::print_result;
namespace fc = filecoin;
using steady = std::chrono::steady_clock;

namespace flag {
inline constexpr flag_spec proof{"--proof", "NAME|ID",
                                 "registered update proof: its name (StackedDrg32GiBV1, StackedDrg2KiBV1, ...) or "
                                 "its number 0..4 (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)"};
inline constexpr flag_spec h{"--h", "H", "the encoding's h (bits of rho's index; default the production value)"};
inline constexpr flag_spec threads{"--threads", "T", "threads (default: all cores)"};
inline constexpr flag_spec json{"--json", nullptr, "print one JSON object"};
} // namespace flag

constexpr flag_spec circuit_flags[] = {flag::proof, flag::json};
constexpr flag_spec vanilla_flags[] = {
    flag::proof,
    {"--sector", "DIR", "the sealed test sector to update (cuzk porep seal --out DIR)"},
    {"--data", "FILE", "the new data, unpadded (at most 127/128 of the sector, zero-filled after); default all zero"},
    flag::h,
    {"--out-dir", "DIR", "where to write partition-<k>.vanilla (Filecoin's bytes) and public.json"},
    flag::threads,
    flag::json,
};
constexpr flag_spec prove_flags[] = {
    flag::proof,
    {"--params", "FILE", "the circuit's key (bellperson .params); mapped on the GPU, decoded on the CPU"},
    {"--dev-key", nullptr, "or: make a development key in memory for the circuit (tests, benchmarks)"},
    {"--vk", "FILE", "with --dev-key: write its verifying key here"},
    {"--public", "FILE", "the update's public values (public.json from `cuzk update vanilla`), with the vanilla "
                         "partition proof files in order"},
    {"--synthetic", nullptr, "or: prove a made-up update (block-constant trees; no sector needed)"},
    {"--gen-seed", "S", "the made-up update's seed (default 0)"},
    flag::h,
    {"--repeat", "N", "prove N times with the same key and engine (a benchmark; default 1)"},
    {"--timeline", "FILE", "write the run's timeline (CSV, or a Chrome trace for *.json)"},
    {"--waterfall", nullptr, "print the waterfall and timeline summary on stderr"},
    {"--out", "FILE", "where to write the proof (192 bytes per partition)"},
    {"--backend", "auto|cpu|cuda", "where to prove (default auto: the GPU when present)"},
    {"--devices", "LIST", "CUDA devices to prove on, e.g. 0,2 (default: every visible GPU)"},
    {"--cpu-devices", "N", "devices the CPU prover models (default 1)"},
    {"--batch", "N", "GPU, a key streamed from host memory: at most N partitions proved together, each chunk of points copied once for all (default: as the device's plan fits; 1: one at a time)"},
    {"--device-memory-budget", "SIZE", "device memory for resident keys and prove scratch, e.g. 80G (default: all; "
                                       "a key is kept resident when its points fit the budget)"},
    host_budget_flag,
    flag::threads,
    flag::json,
};
constexpr flag_spec verify_flags[] = {
    flag::proof,
    {"--vk", "FILE", "verifying key (bellperson .vk)"},
    {"--comm-r-old", "HEX", "the sector's comm_r before the update, 64 hex digits"},
    {"--comm-d-new", "HEX", "the new data's comm_d, 64 hex digits"},
    {"--comm-r-new", "HEX", "the updated sector's comm_r, 64 hex digits"},
    flag::h,
    flag::json,
};

fc::update_config parse_update_proof(const options& o)
{
    const std::string& p = o.get("--proof");
    try {
        if (!p.empty() && p.find_first_not_of("0123456789") == std::string::npos)
            return fc::registered_update_proof(int(parse_u64("--proof", p, 0, 1000)));
        return fc::registered_update_proof(p);
    } catch (const error& e) {
        throw usage_error(e.what());
    }
}

unsigned parse_h(const options& o, const fc::update_config& c)
{
    const unsigned h = unsigned(o.get_u64_or("--h", 1, 64, c.h_default()));
    try {
        c.h_select(h);
    } catch (const error& e) {
        throw usage_error(e.what());
    }
    return h;
}

std::string shape_of(const fc::update_config& c)
{
    return fmt::format("{} partitions x {} challenges, {} nodes, tree {}", c.partitions, c.challenge_count, c.nodes,
                       c.tree.name());
}

json public_json(const fc::update_config& c, const fc::update_public& pub)
{
    return json::object({{"registered_proof", json::string(c.name)},
                         {"comm_r_old", json::string(fc::to_hex(pub.comm_r_old))},
                         {"comm_d_new", json::string(fc::to_hex(pub.comm_d_new))},
                         {"comm_r_new", json::string(fc::to_hex(pub.comm_r_new))},
                         {"h", json::number(uint64_t(pub.h))}});
}

fc::update_public read_public(const std::string& path, const fc::update_config& c)
{
    return read_as("--public", [&] {
        const io::mapped_file f(path);
        const json j = json::parse({reinterpret_cast<const char*>(f.data()), f.size()}, path);
        const auto member = [&](const char* key) -> const json& {
            const json* m = j.find(key);
            if (!m) throw error(errc::bad_format, fmt::format("{}: no member \"{}\"", path, key));
            return *m;
        };
        const auto text = [&](const char* key) -> std::string {
            const json& m = member(key);
            if (!m.is_string()) throw error(errc::bad_format, fmt::format("{}: \"{}\" must be a string", path, key));
            return m.as_string();
        };
        if (text("registered_proof") != c.name)
            throw error(errc::bad_format,
                        fmt::format("{}: an update of {}, not {}", path, text("registered_proof"), c.name));
        fc::update_public pub;
        pub.comm_r_old = fc::parse_hex32(text("comm_r_old"), path + ": comm_r_old");
        pub.comm_d_new = fc::parse_hex32(text("comm_d_new"), path + ": comm_d_new");
        pub.comm_r_new = fc::parse_hex32(text("comm_r_new"), path + ": comm_r_new");
        const std::optional<uint64_t> h = member("h").as_u64();
        if (!h || *h > 64) throw error(errc::bad_format, path + ": h is not a small integer");
        pub.h = unsigned(*h);
        c.h_select(pub.h);
        return pub;
    });
}

void write_text(const std::string& path, const std::string& text)
{
    io::output_file f(path);
    f.write(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    f.close();
}

int update_vanilla_cmd(const options& o)
{
    const fc::update_config c = parse_update_proof(o);
    const unsigned h = parse_h(o, c);
    const unsigned threads = unsigned(o.get_u64_or("--threads", 0, 1024, 0));
    const std::string& dir = o.get("--out-dir");
    const auto t0 = steady::now();
    const fc::update_vanilla u =
        fc::update_sector_vanilla(o.get("--sector"), c, porep::sector_data(o, c.sector_bytes()), h, threads);
    std::filesystem::create_directories(dir);
    std::vector<json> files;
    for (unsigned k = 0; k < c.partitions; ++k) {
        const std::string path = fmt::format("{}/partition-{}.vanilla", dir, k);
        io::output_file f(path);
        f.write(fc::update_partition_to_bincode(u.partitions[k], c));
        f.close();
        files.push_back(json::string(path));
    }
    write_text(dir + "/public.json", public_json(c, u.pub).dump() + "\n");
    print_result(json::object({{"registered_proof", json::string(c.name)},
                               {"comm_r_old", json::string(fc::to_hex(u.pub.comm_r_old))},
                               {"comm_d_new", json::string(fc::to_hex(u.pub.comm_d_new))},
                               {"comm_r_new", json::string(fc::to_hex(u.pub.comm_r_new))},
                               {"h", json::number(uint64_t(h))},
                               {"public", json::string(dir + "/public.json")},
                               {"vanilla", json::array(std::move(files))},
                               {"seconds", json::number(fmt::format("{:.3f}", secs_since(t0)))}}),
                 o.has("--json"));
    return 0;
}

int update_circuit_cmd(const options& o)
{
    const fc::update_config c = parse_update_proof(o);
    return porep::print_circuit_size(o, fc::update_circuit(c),
                                     {{"registered_proof", json::string(c.name)}, {"shape", json::string(shape_of(c))}});
}

// What prove proves: the vanilla partition proof files with --public, or
// (--synthetic) a made-up update.
fc::update_vanilla prove_inputs(const options& o, const fc::update_config& c, unsigned threads)
{
    const std::vector<std::string>& files = o.positional();
    if (o.has("--synthetic") == o.has("--public")) throw usage_error("give --public with the vanilla files, or --synthetic");
    if (o.has("--synthetic")) {
        if (!files.empty()) throw usage_error("--synthetic takes no vanilla proof files");
        const auto t0 = steady::now();
        fc::update_vanilla u =
            fc::update_synthetic_vanilla(c, parse_h(o, c), o.get_u64_or("--gen-seed", 0, UINT64_MAX, 0), threads);
        std::fprintf(stderr, "cuzk update prove: made-up %s update (%s) in %.1f s\n", c.name.c_str(),
                     shape_of(c).c_str(), secs_since(t0));
        return u;
    }
    if (o.has("--h") || o.has("--gen-seed")) throw usage_error("--h and --gen-seed go with --synthetic");
    if (files.size() != c.partitions)
        throw usage_error(fmt::format("{} has {} partitions: give their {} vanilla files in order, not {}", c.name,
                                      c.partitions, c.partitions, files.size()));
    fc::update_vanilla u;
    u.pub = read_public(o.get("--public"), c);
    for (const std::string& f : files) {
        const io::mapped_file m(f);
        u.partitions.push_back(fc::update_partition_from_bincode(m.bytes(), c, f));
    }
    // Checked here, before a key is made or loaded (a development key of a
    // 32 GiB update takes minutes): a vanilla file that does not hash to the
    // public values is refused naming the file, the challenge and the field.
    for (unsigned k = 0; k < u.partitions.size(); ++k)
        read_as(files[k], [&] { fc::update_check_vanilla(c, u.pub, k, u.partitions[k], threads); });
    return u;
}

fc::update_key prove_key(const options& o, const fc::update_config& c, bool gpu, unsigned threads)
{
    return proof_key(
        o, "cuzk update prove", gpu,
        [&](const std::string& path) {
            return gpu ? fc::map_update_key(c, path, threads) : fc::load_update_key(c, path, threads);
        },
        [&] { return fc::update_dev_setup(c, gpu, threads); });
}

int update_prove_cmd(const options& o)
{
    const fc::update_config c = parse_update_proof(o);
    const unsigned threads = unsigned(o.get_u64_or("--threads", 0, 1024, 0));
    const unsigned repeat = unsigned(o.get_u64_or("--repeat", 1, 1000, 1));
    auto t0 = steady::now();
    const fc::update_vanilla u = prove_inputs(o, c, threads);
    const unsigned h = u.pub.h;
    const bool gpu = porep::use_gpu(o);
    pipeline::engine_config ec = proof_engine(o, gpu, c.partitions, threads);   // its flags before the key
    const fc::update_key k = prove_key(o, c, gpu, threads);
    timeline::recorder rec;
    ec.sink = &rec;
    pipeline::engine eng(ec);
    t0 = steady::now();
    const auto key = fc::add_porep_key(eng, k, pipeline::key_options{c.name});
    const auto placement = report_key("cuzk update prove", eng, key, k.params != nullptr, secs_since(t0));
    std::vector<uint8_t> proof;
    std::vector<json> secs;
    for (unsigned r = 0; r < repeat; ++r) {
        t0 = steady::now();
        proof = fc::update_prove(eng, key, c, u.pub, u.partitions, threads);
        secs.push_back(json::number(fmt::format("{:.3f}", secs_since(t0))));
    }
    io::output_file f(o.get("--out"));
    f.write(proof);
    f.close();
    const std::vector<timeline::event> events = rec.events();
    if (o.has("--timeline")) write_timeline(o.get("--timeline"), events);
    if (o.has("--waterfall")) std::fputs(timeline::render_text(timeline::analyse(events)).c_str(), stderr);
    const bool verified = fc::update_verify(k.pk->vk, proof, c, u.pub);
    print_result(json::object({{"proof", json::string(o.get("--out"))},
                               {"registered_proof", json::string(c.name)},
                               {"partitions", json::number(uint64_t(c.partitions))},
                               {"bytes", json::number(uint64_t(proof.size()))},
                               {"comm_r_old", json::string(fc::to_hex(u.pub.comm_r_old))},
                               {"comm_d_new", json::string(fc::to_hex(u.pub.comm_d_new))},
                               {"comm_r_new", json::string(fc::to_hex(u.pub.comm_r_new))},
                               {"h", json::number(uint64_t(h))},
                               {"backend", json::string(gpu ? "cuda" : "cpu")},
                               {"key", json::string(placement_name(placement))},
                               {"seconds", json::array(std::move(secs))},
                               {"verified", json::boolean(verified)}}),
                 o.has("--json"));
    return verified ? 0 : 1;
}

int update_verify_cmd(const options& o)
{
    const fc::update_config c = parse_update_proof(o);
    fc::update_public pub;
    pub.comm_r_old = porep::hex32(o, "--comm-r-old");
    pub.comm_d_new = porep::hex32(o, "--comm-d-new");
    pub.comm_r_new = porep::hex32(o, "--comm-r-new");
    pub.h = parse_h(o, c);
    const groth16::verifying_key vk = read_as("--vk", [&] { return io::read_vk(o.get("--vk")); });
    const std::string& path = o.positional()[0];
    const io::mapped_file proof(path);
    const bool valid = read_as(path, [&] { return fc::update_verify(vk, proof.bytes(), c, pub); });
    print_result(json::object({{"valid", json::boolean(valid)}}), o.has("--json"));
    return valid ? 0 : 1;
}

const subcommand subcommands[] = {
    {"vanilla", "vanilla --proof P --sector DIR [--data FILE] [--h H] --out-dir DIR", vanilla_flags, 0, 0,
     update_vanilla_cmd},
    {"circuit", "circuit --proof P", circuit_flags, 0, 0, update_circuit_cmd},
    {"prove",
     "prove --proof P (--params key.params | --dev-key [--vk key.vk]) (--public public.json VANILLA... | "
     "--synthetic [--gen-seed S] [--h H]) [--repeat N] --out proof.bin",
     prove_flags, 0, 64, update_prove_cmd},
    {"verify", "verify --proof P --vk key.vk --comm-r-old HEX --comm-d-new HEX --comm-r-new HEX [--h H] proof.bin",
     verify_flags, 1, 1, update_verify_cmd},
};

} // namespace

int cmd_update(args a) { return run_subcommand("update", subcommands, a); }

} // namespace cuzk::cli
