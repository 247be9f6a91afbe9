// cuzk — the C1 JSON writer: serde_json's compact rendering of
// SealCommitPhase1Output (see c1_json.hpp), streamed in 64 KiB pieces.
#include "cuzk/filecoin/porep/c1_json.hpp"

#include <fmt/format.h>

#include <charconv>
#include <ostream>

#include "c1_json_shape.hpp"
#include "cuzk/error.hpp"

namespace cuzk::filecoin {

namespace {

// Collects output in a string; with a stream, hands it over whenever it
// passes 64 KiB.
class sink {
public:
    explicit sink(std::string& target) : buf_(target) {}
    sink(std::string& scratch, std::ostream& os) : buf_(scratch), os_(&os) {}

    void put(char c) { buf_.push_back(c); }
    void put(std::string_view s) { buf_.append(s); }
    void num(uint64_t v)
    {
        char tmp[24];
        buf_.append(tmp, std::to_chars(tmp, tmp + sizeof tmp, v).ptr);
    }
    void key(std::string_view k, bool first = false)
    {
        if (!first) put(',');
        put('"');
        put(k);
        put("\":");
    }
    void bytes32(const domain& d);
    void maybe_flush()
    {
        if (os_ && buf_.size() >= (size_t(1) << 16)) flush();
    }
    void flush()
    {
        if (!os_) return;
        os_->write(buf_.data(), std::streamsize(buf_.size()));
        if (!*os_) throw error(errc::io, "write_c1_json: writing to the output stream failed");
        buf_.clear();
    }

private:
    std::string& buf_;
    std::ostream* os_ = nullptr;
};

// [b0,b1,...,b31] with each byte in decimal.
void sink::bytes32(const domain& d)
{
    char tmp[32 * 4 + 2];
    char* p = tmp;
    *p++ = '[';
    for (size_t i = 0; i < 32; ++i) {
        if (i) *p++ = ',';
        p = std::to_chars(p, p + 4, d[i]).ptr;
    }
    *p++ = ']';
    buf_.append(tmp, p);
}

void write_path(sink& s, const std::vector<path_element>& path)
{
    s.put("{\"path\":[");
    for (size_t i = 0; i < path.size(); ++i) {
        if (i) s.put(',');
        s.put("{\"hashes\":[");
        for (size_t j = 0; j < path[i].hashes.size(); ++j) {
            if (j) s.put(',');
            s.bytes32(path[i].hashes[j]);
        }
        s.put("],\"index\":");
        s.num(path[i].index);
        s.put('}');
    }
    s.put("]}");
}

// {"data":{"Single"|"Sub"|"Top":{...}}}, the variant following the content.
void write_merkle(sink& s, const merkle_proof& m)
{
    const bool top = !m.top.empty(), sub = top || !m.sub.empty();
    s.put(top ? "{\"data\":{\"Top\":{" : sub ? "{\"data\":{\"Sub\":{" : "{\"data\":{\"Single\":{");
    if (!sub) {
        s.key("root", true); s.bytes32(m.root);
        s.key("leaf"); s.bytes32(m.leaf);
        s.key("path"); write_path(s, m.base);
    } else {
        s.key("base_proof", true); write_path(s, m.base);
        s.key("sub_proof"); write_path(s, m.sub);
        if (top) {
            s.key("top_proof");
            write_path(s, m.top);
        }
        s.key("root"); s.bytes32(m.root);
        s.key("leaf"); s.bytes32(m.leaf);
    }
    s.put("}}}");
}

void write_column(sink& s, const column_proof& c)
{
    s.put("{\"column\":{\"index\":");
    s.num(c.index);
    s.put(",\"rows\":[");
    for (size_t i = 0; i < c.rows.size(); ++i) {
        if (i) s.put(',');
        s.bytes32(c.rows[i]);
    }
    s.put("],\"_h\":null},\"inclusion_proof\":");
    write_merkle(s, c.inclusion);
    s.put('}');
    s.maybe_flush();
}

void write_columns(sink& s, const std::vector<column_proof>& cols)
{
    s.put('[');
    for (size_t i = 0; i < cols.size(); ++i) {
        if (i) s.put(',');
        write_column(s, cols[i]);
    }
    s.put(']');
}

// {"parents":[...],"layer_index":n,"node":n}: labeling and encoding proofs.
void write_parents_record(sink& s, const std::vector<domain>& parents, uint32_t layer_index, uint64_t node)
{
    s.put("{\"parents\":[");
    for (size_t i = 0; i < parents.size(); ++i) {
        if (i) s.put(',');
        s.bytes32(parents[i]);
    }
    s.put("],\"layer_index\":");
    s.num(layer_index);
    s.put(",\"node\":");
    s.num(node);
    s.put('}');
}

void write_challenge(sink& s, const challenge_proof& p)
{
    s.put('{');
    s.key("comm_d_proofs", true); write_merkle(s, p.comm_d_proof);
    s.key("comm_r_last_proof"); write_merkle(s, p.comm_r_last_proof);
    s.key("replica_column_proofs"); s.put('{');
    s.key("c_x", true); write_column(s, p.c_x);
    s.key("drg_parents"); write_columns(s, p.drg_parents);
    s.key("exp_parents"); write_columns(s, p.exp_parents);
    s.put('}');
    s.key("labeling_proofs"); s.put('[');
    for (size_t i = 0; i < p.labeling_proofs.size(); ++i) {
        if (i) s.put(',');
        const labeling_proof& lp = p.labeling_proofs[i];
        write_parents_record(s, lp.parents, lp.layer_index, lp.node);
    }
    s.put(']');
    s.key("encoding_proof"); write_parents_record(s, p.encoding.parents, p.encoding.layer_index, p.encoding.node);
    s.put('}');
}

[[noreturn]] void bad_config(const std::string& msg)
{
    throw error(errc::invalid_argument, "write_c1_json: " + msg);
}

// A registered config must be exactly the registry's; a custom one must be
// within what the reader accepts.
void check_config(const seal_config& c)
{
    if (c.registered_id >= 0) {
        const seal_config r = registered_seal_proof(c.registered_id);
        if (c.nodes != r.nodes || c.layers != r.layers || c.partitions != r.partitions ||
            c.challenges_per_partition != r.challenges_per_partition || !(c.tree == r.tree) ||
            c.porep_id != r.porep_id || c.api != r.api)
            bad_config(fmt::format("the config names registered proof {} ({}) but differs from it",
                                   c.registered_id, r.name));
        return;
    }
    if (c.partitions > c1json::k_max_custom_partitions || c.challenges_per_partition > c1json::k_max_custom_challenges)
        bad_config(fmt::format("custom shape: {} partitions x {} challenges exceeds {} x {}", c.partitions,
                               c.challenges_per_partition, c1json::k_max_custom_partitions,
                               c1json::k_max_custom_challenges));
    if (c.tree.base > 9999 || c.tree.sub > 9999 || c.tree.top > 9999)
        bad_config("custom shape: tree arities above 9999");
    // Re-derive through the factory, which checks the rest.
    (void)seal_config::custom(c.nodes, c.layers, c.challenges_per_partition, c.tree, c.porep_id, c.api,
                              c.partitions);
    c1json::c1_shape shape;
    if (const std::string why = c1json::shape_of(c, shape); !why.empty()) bad_config("custom shape: " + why);
}

void write_custom_config(sink& s, const seal_config& c)
{
    s.key("cuzk_config"); s.put('{');
    s.key("nodes", true); s.num(c.nodes);
    s.key("layers"); s.num(c.layers);
    s.key("partitions"); s.num(c.partitions);
    s.key("challenges"); s.num(c.challenges_per_partition);
    s.key("tree"); s.put('"'); s.put(c.tree.name()); s.put('"');
    s.key("porep_id"); s.bytes32(c.porep_id);
    s.key("api"); s.put('"'); s.put(c1json::api_name(c.api)); s.put('"');
    s.put('}');
}

void write_all(sink& s, const c1_output& c1)
{
    check_config(c1.config);
    const bool custom = c1.config.registered_id < 0;
    s.put('{');
    s.key("registered_proof", true); s.put('"');
    s.put(custom ? std::string(c1json::k_custom_name) : registered_seal_proof(c1.config.registered_id).name);
    s.put('"');
    if (custom) write_custom_config(s, c1.config);
    s.key("vanilla_proofs"); s.put('{');
    s.key(c1json::vanilla_variant(c1.config), true); s.put('[');
    for (size_t k = 0; k < c1.partitions.size(); ++k) {
        if (k) s.put(',');
        s.put('[');
        for (size_t i = 0; i < c1.partitions[k].size(); ++i) {
            if (i) s.put(',');
            write_challenge(s, c1.partitions[k][i]);
        }
        s.put(']');
    }
    s.put("]}");
    s.key("comm_r"); s.bytes32(c1.comm_r);
    s.key("comm_d"); s.bytes32(c1.comm_d);
    s.key("replica_id"); s.bytes32(c1.replica_id);
    s.key("seed"); s.bytes32(c1.seed);
    s.key("ticket"); s.bytes32(c1.ticket);
    s.put('}');
    s.flush();
}

} // namespace

void write_c1_json(const c1_output& c1, std::ostream& out)
{
    std::string scratch;
    scratch.reserve(size_t(1) << 17);
    sink s(scratch, out);
    write_all(s, c1);
}

void write_c1_json(const c1_output& c1, std::string& out)
{
    sink s(out);
    write_all(s, c1);
}

} // namespace cuzk::filecoin
