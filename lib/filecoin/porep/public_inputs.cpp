#include "cuzk/filecoin/porep/public_inputs.hpp"

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/challenges.hpp"
#include "cuzk/filecoin/porep/graph.hpp"

namespace cuzk::filecoin {

partition_inputs porep_public_inputs(const seal_config& config, const domain& replica_id, const domain& comm_d,
                                     const domain& comm_r, const domain& seed, unsigned partition)
{
    if (partition >= config.partitions)
        throw error(errc::invalid_argument,
                    fmt::format("partition {} out of range: the proof has {}", partition, config.partitions));
    partition_inputs r;
    r.challenges = porep_challenges(config, replica_id, comm_r, seed, partition);
    const sdr_graph g(config.nodes, config.porep_id, config.api);
    r.inputs = {domain_to_fr(replica_id, "replica_id"), domain_to_fr(comm_d, "comm_d"), domain_to_fr(comm_r, "comm_r")};
    for (const uint64_t c : r.challenges) {
        const fr fc = fr::from_u64(c);
        r.inputs.push_back(fc);
        uint32_t parents[sdr_graph::degree];
        g.parents(c, parents);
        for (uint32_t p : parents) r.inputs.push_back(fr::from_u64(p));
        r.inputs.insert(r.inputs.end(), {fc, fc, fc});
    }
    return r;
}

} // namespace cuzk::filecoin
