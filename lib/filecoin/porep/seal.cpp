// Sealing a test sector into its directory.
#include "cuzk/filecoin/porep/seal.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/comm_d.hpp"
#include "cuzk/filecoin/porep/challenges.hpp"
#include "cuzk/filecoin/porep/graph.hpp"
#include "cuzk/filecoin/porep/labels.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "replica.hpp"
#include "sector_dir.hpp"

namespace cuzk::filecoin {

namespace {

void report(const seal_progress& p, const char* step, uint64_t done, uint64_t total)
{
    if (p) p(step, done, total);
}

void write_bytes(const std::string& path, const uint8_t* p, size_t n)
{
    io::output_file f(path);
    f.write(p, n);
    f.close();
}

void write_labels(const std::string& dir, const sdr_labels& labels)
{
    io::output_file f(detail::sector_file(dir, "labels.bin"));
    for (unsigned l = 1; l <= labels.layers(); ++l) {
        const auto layer = labels.layer(l);
        f.write(reinterpret_cast<const uint8_t*>(layer.data()), layer.size_bytes());
    }
    f.close();
}

sdr_labels label_sector(const seal_config& config, const domain& replica_id, unsigned threads,
                        const seal_progress& progress)
{
    const sdr_graph g(config.nodes, config.porep_id, config.api);
    report(progress, "parents", 0, 1);
    const std::vector<uint32_t> cache = build_parent_cache(g, threads);
    report(progress, "parents", 1, 1);
    report(progress, "labels", 0, config.layers);
    return generate_labels(
        g, replica_id, config.layers, &cache,
        [&](unsigned layer) { report(progress, "labels", layer, config.layers); }, threads);
}

} // namespace

seal_commitments seal_sector(const seal_config& config, const replica_source& replica, std::vector<uint8_t> padded,
                             const std::string& dir, unsigned threads, const seal_progress& progress, bool gpu)
{
    if (padded.size() != config.sector_bytes())
        throw error(errc::bad_length,
                    fmt::format("seal: data holds {} padded bytes, the sector {}", padded.size(), config.sector_bytes()));
    std::filesystem::create_directories(dir);
    seal_commitments c;
    report(progress, "comm_d", 0, 1);
    c.comm_d = compute_comm_d(padded, threads);
    report(progress, "comm_d", 1, 1);
    c.replica_id = replica.replica_id ? *replica.replica_id
                                      : replica_id(replica.prover_id, replica.sector_id, replica.ticket, c.comm_d,
                                                   config.porep_id);
    const sdr_labels labels = label_sector(config, c.replica_id, threads, progress);
    report(progress, "trees", 0, 1);
    const replica_trees trees = build_replica_trees(config, labels, padded, threads, gpu);
    report(progress, "trees", 1, 1);
    c.comm_c = trees.tree_c.root();
    c.comm_r_last = trees.tree_r_last.root();
    c.comm_r = comm_r_of(c.comm_c, c.comm_r_last);

    write_bytes(detail::sector_file(dir, "data.bin"), padded.data(), padded.size());
    write_labels(dir, labels);
    sector_info info{config, c, replica};
    info.replica.replica_id = c.replica_id;
    detail::write_sector_json(dir, info);
    return c;
}

sector_info read_sector_info(const std::string& dir) { return detail::read_sector_json(dir); }

} // namespace cuzk::filecoin
