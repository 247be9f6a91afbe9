// `cuzk porep labels | parents | poseidon | inputs`: Filecoin's primitives
// one value at a time, for checking against other implementations.
#include <cstdio>

#include <fmt/format.h>

#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/filecoin/porep/challenges.hpp"
#include "cuzk/filecoin/porep/graph.hpp"
#include "cuzk/filecoin/porep/labels.hpp"
#include "cuzk/filecoin/porep/public_inputs.hpp"
#include "cuzk/io/decimal.hpp"
#include "cli_util.hpp"
#include "porep_commands.hpp"

namespace cuzk::cli::porep {

using io::json;
namespace fc = filecoin;

namespace {

json u64_array(const std::vector<uint64_t>& v)
{
    json a = json::array();
    for (uint64_t x : v) a.push_back(json::number(x));
    return a;
}

fr parse_fr(const std::string& s)
{
    fr::repr v = fr::repr::zero();
    bool ok;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        const std::string h = s.substr(2);
        ok = !h.empty() && h.size() <= 64;
        for (size_t i = 0; ok && i < h.size(); ++i) {
            const char c = h[h.size() - 1 - i];
            const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                          : std::isxdigit(static_cast<unsigned char>(c)) ? (std::tolower(c) - 'a' + 10) : -1;
            ok = d >= 0;
            if (ok) v.l[i / 16] |= uint64_t(d) << (4 * (i % 16));
        }
    } else {
        ok = io::from_decimal(s, v);
    }
    if (!ok || !fr::is_canonical(v))
        throw usage_error(fmt::format("poseidon input '{}': expected a field element (decimal or 0x-hex, < r)", s));
    return fr::from_repr(v);
}

} // namespace


int porep_labels(const options& o)
{
    const auto pid = parse_porep_id(o);
    const uint64_t nodes = o.get_u64("--nodes", 2, uint64_t(1) << 32);
    const unsigned layers = unsigned(o.get_u64("--layers", 1, 15));
    // Every layer's labels (32 bytes a node) and the parent cache (14 parents of 4 bytes).
    require_host_memory("--nodes", nodes * (32 * layers + 4 * fc::sdr_graph::degree),
                        fmt::format("labelling {} nodes in {} layers", nodes, layers));
    const fc::sdr_graph g(nodes, pid.id, pid.api);
    const auto labels = fc::generate_labels(g, hex32(o, "--replica-id"), layers, nullptr, {},
                                            unsigned(o.get_u64_or("--threads", 0, 1024, 0)));
    json out = json::object({{"last_label", hex_json(labels.at(layers, nodes - 1))}});
    if (!o.has("--last")) {
        json per_layer = json::array();
        for (unsigned l = 1; l <= layers; ++l) per_layer.push_back(hex_json(labels.at(l, nodes - 1)));
        out.set("last_node_per_layer", std::move(per_layer));
    }
    print_result(out, o.has("--json"));
    return 0;
}


int porep_parents(const options& o)
{
    const auto pid = parse_porep_id(o);
    const fc::sdr_graph g(o.get_u64("--nodes", 2, uint64_t(1) << 32), pid.id, pid.api);
    if (o.has("--node") == o.has("--cache-digest")) throw usage_error("give exactly one of --node I and --cache-digest");
    json out = json::object();
    if (o.has("--node")) {
        uint32_t p[fc::sdr_graph::degree];
        g.parents(o.get_u64("--node", 0, g.nodes() - 1), p);
        out.set("drg", u64_array({p, p + 6}));
        out.set("exp", u64_array({p + 6, p + 14}));
    } else {
        require_host_memory("--nodes", g.nodes() * 4 * fc::sdr_graph::degree,
                            fmt::format("the parent cache of {} nodes", g.nodes()));
        const auto cache = fc::build_parent_cache(g, unsigned(o.get_u64_or("--threads", 0, 1024, 0)));
        out.set("cache_sha256", json::string(fc::to_hex(fc::parent_cache_sha256(cache))));
        out.set("cache_name", json::string(fc::parent_cache_name(g)));
    }
    print_result(out, o.has("--json"));
    return 0;
}


int porep_poseidon(const options& o)
{
    const unsigned arity = unsigned(o.get_u64("--arity", 1, 64));
    if (!fc::poseidon_arity_supported(arity))
        throw usage_error(fmt::format("--arity: expected 2, 4, 8, 11, 16, 24 or 36, got {}", arity));
    if (o.positional().size() != arity)
        throw usage_error(fmt::format("arity {} needs {} inputs, got {}", arity, arity, o.positional().size()));
    std::vector<fr> x;
    for (const auto& s : o.positional()) x.push_back(parse_fr(s));
    print_result(json::object({{"hash", hex_json(fc::fr_to_domain(fc::poseidon_hash(x)))}}), o.has("--json"));
    return 0;
}


int porep_inputs(const options& o)
{
    const auto pid = parse_porep_id(o);
    if (pid.registered < 0) throw usage_error("--porep-id: give a registered proof number (the shape comes from it)");
    const fc::seal_config cfg = fc::registered_seal_proof(pid.registered);
    const fc::domain comm_d = hex32(o, "--comm-d"), comm_r = hex32(o, "--comm-r");
    const fc::domain rid = fc::replica_id(hex32(o, "--prover-id"), o.get_u64("--sector-id", 0, UINT64_MAX),
                                          hex32(o, "--ticket"), comm_d, cfg.porep_id);
    const unsigned k = unsigned(o.get_u64_or("--partition", 0, cfg.partitions - 1, 0));
    const auto pi = fc::porep_public_inputs(cfg, rid, comm_d, comm_r, hex32(o, "--seed"), k);
    json inputs = json::array();
    std::vector<uint8_t> concat;
    for (const fr& x : pi.inputs) {
        const fc::domain d = fc::fr_to_domain(x);
        inputs.push_back(hex_json(d));
        concat.insert(concat.end(), d.begin(), d.end());
    }
    print_result(json::object({{"replica_id", hex_json(rid)},
                               {"challenges", u64_array(pi.challenges)},
                               {"inputs", std::move(inputs)},
                               {"sha256", json::string(fc::to_hex(fc::sha256(concat)))}}),
                 o.has("--json"));
    return 0;
}

} // namespace cuzk::cli::porep
