// `cuzk porep seal | c1 | check`: seal a test sector, write its C1 output,
// and check a C1 file (structure, then every vanilla proof).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/fr32.hpp"
#include "cuzk/filecoin/porep/c1_json.hpp"
#include "cuzk/filecoin/porep/graph.hpp"
#include "cuzk/filecoin/porep/seal.hpp"
#include "cuzk/filecoin/porep/synthetic_c1.hpp"
#include "cuzk/filecoin/porep/vanilla_verify.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cli_util.hpp"
#include "porep_commands.hpp"

namespace cuzk::cli::porep {

using io::json;
namespace fc = filecoin;

namespace {

using steady = std::chrono::steady_clock;

// One stderr line per step and per reported stage of it, with the time since start.
fc::seal_progress progress_lines(const char* command)
{
    const auto t0 = steady::now();
    return [command, t0](const char* step, uint64_t done, uint64_t total) {
        const double s = std::chrono::duration<double>(steady::now() - t0).count();
        std::fprintf(stderr, "cuzk porep %s: %7.1f s  %s %llu/%llu\n", command, s, step, (unsigned long long)done,
                     (unsigned long long)total);
    };
}

fc::tree_shape parse_tree(const std::string& s)
{
    fc::tree_shape t;
    if (std::sscanf(s.c_str(), "%u-%u-%u", &t.base, &t.sub, &t.top) != 3 || t.name() != s)
        throw usage_error(fmt::format("--tree: expected A-B-C (e.g. 8-0-0), got '{}'", s));
    return t;
}

fc::seal_config seal_shape(const options& o)
{
    const porep_id_arg pid = parse_porep_id(o);
    if (o.has("--nodes") == o.has("--sector-size")) throw usage_error("give exactly one of --sector-size and --nodes");
    if (o.has("--nodes"))
        return fc::seal_config::custom(o.get_u64("--nodes", 2, uint64_t(1) << 32), unsigned(o.get_u64_or("--layers", 1, 15, 2)),
                                       unsigned(o.get_u64_or("--challenges", 1, 1u << 20, 2)),
                                       parse_tree(o.get_or("--tree", "8-0-0")), pid.id, pid.api,
                                       unsigned(o.get_u64_or("--partitions", 1, 1024, 1)));
    const uint64_t bytes = fc::parse_sector_size(o.get("--sector-size"));
    if (pid.registered >= 0) {
        fc::seal_config c = fc::registered_seal_proof(pid.registered);
        if (c.sector_bytes() != bytes)
            throw usage_error(fmt::format("--porep-id {} is a {}-byte sector, --sector-size says {}", pid.registered,
                                          c.sector_bytes(), bytes));
        return c;
    }
    for (int id = 5; id <= 9; ++id) {   // the V1_1 shape of that size, under the given porep id
        const fc::seal_config c = fc::registered_seal_proof(id);
        if (c.sector_bytes() == bytes)
            return fc::seal_config::custom(c.nodes, c.layers, c.challenges_per_partition, c.tree, pid.id, pid.api,
                                           c.partitions);
    }
    throw usage_error(fmt::format("--sector-size: no Filecoin sector has {} bytes", bytes));
}

fc::replica_source replica_args(const options& o)
{
    fc::replica_source r;
    if (o.has("--replica-id")) {
        if (o.has("--prover-id") || o.has("--ticket")) throw usage_error("--replica-id excludes --prover-id and --ticket");
        r.replica_id = hex32(o, "--replica-id");
        return r;
    }
    r.prover_id = hex32(o, "--prover-id");
    r.sector_id = o.get_u64("--sector-id", 0, UINT64_MAX);
    r.ticket = hex32(o, "--ticket");
    return r;
}

// The shape of `c1 --synthetic`: a --nodes shape or a size with a porep id
// as for sealing, else the registered proof a lone --sector-size (its V1_1
// proof) or a lone registered --porep-id names.
fc::seal_config synthetic_shape(const options& o)
{
    if (o.has("--nodes") || (o.has("--sector-size") && o.has("--porep-id"))) return seal_shape(o);
    if (o.has("--sector-size")) {
        const uint64_t bytes = fc::parse_sector_size(o.get("--sector-size"));
        for (int id = 5; id <= 9; ++id)
            if (fc::registered_seal_proof(id).sector_bytes() == bytes) return fc::registered_seal_proof(id);
        throw usage_error(fmt::format("--sector-size: no Filecoin sector has {} bytes", bytes));
    }
    if (!o.has("--porep-id")) throw usage_error("--synthetic needs --sector-size S, --porep-id ID or a --nodes shape");
    const porep_id_arg pid = parse_porep_id(o);
    if (pid.registered < 0) throw usage_error("--porep-id: 64 hex digits need --sector-size or a --nodes shape");
    return fc::registered_seal_proof(pid.registered);
}

// DIR and --seed belong to a sealed sector, the shape and generator flags to
// --synthetic; refuses a mix of the two.
void check_c1_mode(const options& o)
{
    static const char* const synthetic_only[] = {"--sector-size", "--porep-id", "--nodes", "--layers", "--challenges",
                                                 "--partitions", "--tree", "--gen-seed", "--zero", "--miner-id",
                                                 "--sector-number"};
    if (o.has("--synthetic")) {
        if (!o.positional().empty()) throw usage_error("--synthetic takes no sector directory");
        if (o.has("--seed")) throw usage_error("--seed is a sealed sector's interactive seed; with --synthetic use --gen-seed N");
        if ((o.has("--miner-id") || o.has("--sector-number")) && !o.has("--zero"))
            throw usage_error("--miner-id and --sector-number need --zero (only a zero-data sector's replica_id derives "
                              "from its sealer)");
        return;
    }
    if (o.positional().size() != 1) throw usage_error("expected the sealed sector's directory (or --synthetic)");
    for (const char* f : synthetic_only)
        if (o.has(f)) throw usage_error(fmt::format("{} needs --synthetic", f));
}

// Who sealed a synthetic zero-data sector: the generator's identity, or
// the miner (--miner-id: its prover id) and sector number the flags give.
fc::c1_identity synthetic_sealer(const options& o)
{
    fc::c1_identity id = fc::synthetic_identity(o.get_u64_or("--gen-seed", 0, UINT64_MAX, 0));
    if (o.has("--miner-id")) id.prover_id = fc::prover_id_of_actor(o.get_u64_or("--miner-id", 0, UINT64_MAX, 0));
    id.sector_id = o.get_u64_or("--sector-number", 0, UINT64_MAX, id.sector_id);
    return id;
}

fc::c1_output synthetic_output(const options& o, unsigned threads)
{
    fc::synthetic_c1_options so;
    so.seed = o.get_u64_or("--gen-seed", 0, UINT64_MAX, 0);
    so.zero_data = o.has("--zero");
    if (so.zero_data) so.identity = synthetic_sealer(o);
    so.threads = threads;
    return fc::synthetic_c1(synthetic_shape(o), so);
}

// Writes the C1 JSON to `path`; returns its size in bytes.
uint64_t write_c1_file(const fc::c1_output& c1, const std::string& path)
{
    std::string text;
    fc::write_c1_json(c1, text);
    io::output_file f(path);
    f.write(reinterpret_cast<const uint8_t*>(text.data()), text.size());
    f.close();
    return text.size();
}

} // namespace


int porep_seal(const options& o)
{
    const fc::seal_config c = seal_shape(o);
    // Held at once: the data, the parent cache (14 parents of 4 bytes), every
    // layer's labels and the two trees' leaves (32 bytes a node each).
    require_host_memory(o.has("--nodes") ? "--nodes" : "--sector-size",
                        c.nodes * (32 * (uint64_t(c.layers) + 3) + 4 * fc::sdr_graph::degree),
                        fmt::format("sealing {} nodes in {} layers", c.nodes, c.layers));
    const fc::replica_source r = replica_args(o);
    // The sector directory: made here, or one that exists (never a file or a device).
    const std::string& out = o.get("--out");
    std::error_code ec;
    if (std::filesystem::exists(out, ec) && !std::filesystem::is_directory(out, ec))
        throw usage_error(fmt::format("--out: {} exists and is not a directory (the sealed sector is a directory)", out));
    const auto c_ = fc::seal_sector(c, r, sector_data(o, c.sector_bytes()), o.get("--out"), unsigned(o.get_u64_or("--threads", 0, 1024, 0)),
                                    progress_lines("seal"), use_gpu(o));
    print_result(json::object({{"comm_d", hex_json(c_.comm_d)},
                               {"comm_c", hex_json(c_.comm_c)},
                               {"comm_r_last", hex_json(c_.comm_r_last)},
                               {"comm_r", hex_json(c_.comm_r)},
                               {"replica_id", hex_json(c_.replica_id)}}),
                 o.has("--json"));
    return 0;
}


int porep_c1(const options& o)
{
    check_c1_mode(o);
    const unsigned threads = unsigned(o.get_u64_or("--threads", 0, 1024, 0));
    const auto t0 = steady::now();
    const fc::c1_output c1 = o.has("--synthetic")
                                 ? synthetic_output(o, threads)
                                 : fc::commit_phase1(o.positional()[0], hex32(o, "--seed"), threads, progress_lines("c1"),
                                                     use_gpu(o));
    const double generate_s = std::chrono::duration<double>(steady::now() - t0).count();
    fc::verify_c1(c1, threads);   // never write a file C2 would refuse
    const uint64_t bytes = write_c1_file(c1, o.get("--out"));
    json r = json::object({{"file", json::string(o.get("--out"))},
                           {"registered_proof", json::string(c1.config.name)},
                           {"bytes", json::number(bytes)},
                           {"partitions", json::number(uint64_t(c1.partitions.size()))},
                           {"challenges_per_partition", json::number(uint64_t(c1.partitions[0].size()))},
                           {"comm_r", hex_json(c1.comm_r)},
                           {"comm_d", hex_json(c1.comm_d)},
                           {"c1_seconds", json::number(fmt::format("{:.3f}", generate_s))}});
    if (o.has("--zero")) {   // what `porep check --prover-id --sector-id` needs to check replica_id
        const fc::c1_identity id = synthetic_sealer(o);
        r.set("prover_id", hex_json(id.prover_id));
        r.set("sector_id", json::number(id.sector_id));
    }
    print_result(r, o.has("--json"));
    return 0;
}


int porep_check(const options& o)
{
    const std::string& path = o.positional()[0];
    const fc::c1_output c1 = fc::read_c1_json(io::read_text_file(path), path);
    fc::c1_identity id;
    const bool has_id = o.has("--prover-id") || o.has("--sector-id");
    if (has_id) id = {hex32(o, "--prover-id"), o.get_u64("--sector-id", 0, UINT64_MAX)};
    try {
        fc::verify_c1(c1, unsigned(o.get_u64_or("--threads", 0, 1024, 0)), has_id ? &id : nullptr);
    } catch (const error& e) {
        throw error(e.code(), fmt::format("{}: {}", path, e.what()));
    }
    print_result(json::object({{"file", json::string(path)},
                               {"registered_proof", json::string(c1.config.name)},
                               {"comm_r", hex_json(c1.comm_r)},
                               {"comm_d", hex_json(c1.comm_d)},
                               {"vanilla_proofs", json::string("OK")}}),
                 o.has("--json"));
    return 0;
}

} // namespace cuzk::cli::porep
