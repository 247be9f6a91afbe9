// `cuzk post challenges | vanilla`: the challenged leaves of a PoSt (and
// WinningPoSt's choice of sector), and the vanilla proofs of sealed test
// sectors in Filecoin's bytes.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/seal.hpp"
#include "cuzk/filecoin/post/bincode.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cli_util.hpp"
#include "post_commands.hpp"

namespace cuzk::cli::post {

using io::json;
using porep::hex32;
using porep::hex_json;
namespace fc = filecoin;

namespace {

using steady = std::chrono::steady_clock;

// --sector-ids 3,4,...: sector numbers.
std::vector<uint64_t> parse_sector_ids(const std::string& list)
{
    std::vector<uint64_t> ids;
    for (const std::string& item : split_list(list)) ids.push_back(parse_u64("--sector-ids", item, 0, UINT64_MAX));
    return ids;
}

} // namespace

int post_challenges(const options& o)
{
    const fc::post_config c = parse_post_proof(o);
    const fc::domain randomness = hex32(o, "--randomness");
    if (o.has("--sector-ids") == o.has("--winning-set"))
        throw usage_error("give exactly one of --sector-ids and --winning-set");
    if (o.has("--winning-set")) {
        if (c.type != fc::post_type::winning)
            throw usage_error(fmt::format("--winning-set: {} is not a WinningPoSt proof", c.name));
        const uint64_t n = o.get_u64("--winning-set", 1, UINT64_MAX);
        const auto chosen = fc::winning_post_sector_challenge(randomness, hex32(o, "--prover-id"), n, c.sector_count);
        porep::print_result(json::object({{"registered_proof", json::string(c.name)},
                                          {"sector_set_len", json::number(n)},
                                          {"sector_index", chosen.size() == 1 ? json::number(chosen[0]) : u64_array(chosen)}}),
                            o.has("--json"));
        return 0;
    }
    if (o.has("--prover-id")) throw usage_error("--prover-id goes with --winning-set");
    const std::vector<uint64_t> ids = parse_sector_ids(o.get("--sector-ids"));
    const auto leaves = fc::post_sector_challenges(c, randomness, ids);
    json sectors = json::array();
    for (size_t i = 0; i < ids.size(); ++i)
        sectors.push_back(json::object({{"sector_id", json::number(ids[i])}, {"leaves", u64_array(leaves[i])}}));
    print_with_sectors(json::object({{"registered_proof", json::string(c.name)},
                                     {"challenges_per_sector", json::number(uint64_t(c.challenge_count))}}),
                       sectors, o.has("--json"));
    return 0;
}

int post_vanilla(const options& o)
{
    const fc::post_config c = parse_post_proof(o);
    const fc::domain randomness = hex32(o, "--randomness");
    const std::string& out_dir = o.get("--out-dir");
    const unsigned threads = unsigned(o.get_u64_or("--threads", 0, 1024, 0));
    const std::vector<std::string>& dirs = o.positional();
    if (c.type == fc::post_type::winning && dirs.size() != 1)
        throw usage_error(fmt::format("{} proves one sector: give one sector directory, not {}", c.name, dirs.size()));

    std::vector<uint64_t> ids;
    std::set<uint64_t> seen;
    for (const std::string& d : dirs) {
        const uint64_t id = fc::read_sector_info(d).replica.sector_id;
        if (!seen.insert(id).second)
            throw error(errc::invalid_argument, fmt::format("{}: sector {} is given twice", d, id));
        ids.push_back(id);
    }
    const auto challenges = fc::post_sector_challenges(c, randomness, ids);

    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) throw error(errc::io, fmt::format("{}: cannot create the directory: {}", out_dir, ec.message()));
    json sectors = json::array();
    const auto t_all = steady::now();
    for (size_t i = 0; i < dirs.size(); ++i) {
        const auto t0 = steady::now();
        const fc::post_sector_proof p = fc::post_vanilla_proof(dirs[i], c, challenges[i], threads);   // names the dir
        const std::vector<uint8_t> bytes = fc::post_vanilla_to_bincode(p, c);
        const std::string file = (std::filesystem::path(out_dir) / fmt::format("{}.vanilla", ids[i])).string();
        io::output_file f(file);
        f.write(bytes);
        f.close();
        std::fprintf(stderr, "cuzk post vanilla: sector %llu (%s): %zu bytes in %.1f s\n", (unsigned long long)ids[i],
                     dirs[i].c_str(), bytes.size(), secs_since(t0));
        sectors.push_back(json::object({{"sector_id", json::number(ids[i])},
                                        {"comm_r", hex_json(p.comm_r)},
                                        {"file", json::string(file)}}));
    }
    print_with_sectors(json::object({{"registered_proof", json::string(c.name)},
                                     {"seconds", json::number(fmt::format("{:.3f}", secs_since(t_all)))}}),
                       sectors, o.has("--json"));
    return 0;
}

} // namespace cuzk::cli::post
