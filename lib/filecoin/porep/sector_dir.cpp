// The sealed test sector's directory: sector.json (config and commitments),
// data.bin (the padded data) and labels.bin (every layer's labels, layer 1
// first). The layout is in docs/FORMATS.md §5.1, "Sealed test sector".
#include "sector_dir.hpp"

#include <sys/stat.h>

#include <filesystem>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/challenges.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::filecoin::detail {

namespace {

using io::json;

const char* api_name(api_version a)
{
    return a == api_version::v1_0 ? "1.0" : a == api_version::v1_1 ? "1.1" : "1.2";
}

api_version api_from(const std::string& s, const std::string& where)
{
    if (s == "1.0") return api_version::v1_0;
    if (s == "1.1") return api_version::v1_1;
    if (s == "1.2") return api_version::v1_2;
    throw error(errc::bad_format, fmt::format("{}: api: expected 1.0, 1.1 or 1.2, got '{}'", where, s));
}

const json& member(const json& j, const char* key, const std::string& where)
{
    const json* m = j.find(key);
    if (!m) throw error(errc::bad_format, fmt::format("{}: missing key '{}'", where, key));
    return *m;
}

std::string str(const json& j, const char* key, const std::string& where)
{
    const json& m = member(j, key, where);
    if (!m.is_string()) throw error(errc::bad_format, fmt::format("{}: '{}' must be a string", where, key));
    return m.as_string();
}

uint64_t num(const json& j, const char* key, const std::string& where)
{
    const auto v = member(j, key, where).as_u64();
    if (!v) throw error(errc::bad_format, fmt::format("{}: '{}' must be an unsigned integer", where, key));
    return *v;
}

domain hex(const json& j, const char* key, const std::string& where)
{
    try {
        return parse_hex32(str(j, key, where), key);
    } catch (const error& e) {
        throw error(errc::bad_format, fmt::format("{}: {}", where, e.what()));
    }
}

tree_shape shape_from(const std::string& s, const std::string& where)
{
    tree_shape t;
    if (std::sscanf(s.c_str(), "%u-%u-%u", &t.base, &t.sub, &t.top) != 3 || t.name() != s)
        throw error(errc::bad_format, fmt::format("{}: tree: expected A-B-C, got '{}'", where, s));
    return t;
}

json config_json(const seal_config& c)
{
    return json::object({{"registered_proof", json::string(c.registered_id >= 0 ? c.name : "custom")},
                         {"registered_id", json::number(uint64_t(c.registered_id >= 0 ? c.registered_id : 0))},
                         {"nodes", json::number(c.nodes)},
                         {"layers", json::number(uint64_t(c.layers))},
                         {"partitions", json::number(uint64_t(c.partitions))},
                         {"challenges_per_partition", json::number(uint64_t(c.challenges_per_partition))},
                         {"tree", json::string(c.tree.name())},
                         {"porep_id", json::string(to_hex(c.porep_id))},
                         {"api", json::string(api_name(c.api))}});
}

// A registered proof's config: every member is read as a custom one's is
// (types and ranges), and each must equal the registered proof's own value.
void check_registered_members(const json& j, const seal_config& c, const std::string& where)
{
    auto same = [&](const char* key, const std::string& got, const std::string& want) {
        if (got != want)
            throw error(errc::bad_format, fmt::format("{}: {}: {} does not match {}'s {}", where, key, got, c.name, want));
    };
    same("nodes", std::to_string(num(j, "nodes", where)), std::to_string(c.nodes));
    same("layers", std::to_string(num(j, "layers", where)), std::to_string(c.layers));
    same("partitions", std::to_string(num(j, "partitions", where)), std::to_string(c.partitions));
    same("challenges_per_partition", std::to_string(num(j, "challenges_per_partition", where)),
         std::to_string(c.challenges_per_partition));
    same("tree", shape_from(str(j, "tree", where), where).name(), c.tree.name());
    same("porep_id", to_hex(hex(j, "porep_id", where)), to_hex(c.porep_id));
    same("api", api_name(api_from(str(j, "api", where), where)), api_name(c.api));
}

seal_config config_from(const json& j, const std::string& where)
{
    if (!j.is_object()) throw error(errc::bad_format, fmt::format("{}: expected an object", where));
    if (str(j, "registered_proof", where) != "custom") {
        const uint64_t id = num(j, "registered_id", where);
        if (id > 1000) throw error(errc::bad_format, fmt::format("{}: registered_id {} is not a registered proof", where, id));
        const seal_config c = registered_seal_proof(int(id));
        if (c.name != str(j, "registered_proof", where))
            throw error(errc::bad_format, fmt::format("{}: registered_proof does not match registered_id", where));
        check_registered_members(j, c, where);
        return c;
    }
    return seal_config::custom(num(j, "nodes", where), unsigned(num(j, "layers", where)),
                               unsigned(num(j, "challenges_per_partition", where)),
                               shape_from(str(j, "tree", where), where), hex(j, "porep_id", where),
                               api_from(str(j, "api", where), where), unsigned(num(j, "partitions", where)));
}

// replica_id against the prover id, sector id, ticket, comm_d and porep id
// it is derived from. A sector sealed from a given replica id (no prover id,
// sector id or ticket: all zero) has nothing to check it against.
void check_replica_id(const sector_info& s, const std::string& path)
{
    const replica_source& r = s.replica;
    if (r.prover_id == domain{} && r.sector_id == 0 && r.ticket == domain{}) return;
    const domain want = replica_id(r.prover_id, r.sector_id, r.ticket, s.comm.comm_d, s.config.porep_id);
    if (want != s.comm.replica_id)
        throw error(errc::bad_format,
                    fmt::format("{}: replica_id {} is not the one prover_id, sector_id, ticket, comm_d and the "
                                "config's porep_id give ({})",
                                path, to_hex(s.comm.replica_id), to_hex(want)));
}

} // namespace

std::string sector_file(const std::string& dir, const char* name) { return (std::filesystem::path(dir) / name).string(); }

void write_sector_json(const std::string& dir, const sector_info& s)
{
    const json j = json::object({{"format", json::string("cuzk-sealed-sector")},
                                 {"version", json::number(uint64_t(1))},
                                 {"config", config_json(s.config)},
                                 {"prover_id", json::string(to_hex(s.replica.prover_id))},
                                 {"sector_id", json::number(s.replica.sector_id)},
                                 {"ticket", json::string(to_hex(s.replica.ticket))},
                                 {"replica_id", json::string(to_hex(s.comm.replica_id))},
                                 {"comm_d", json::string(to_hex(s.comm.comm_d))},
                                 {"comm_c", json::string(to_hex(s.comm.comm_c))},
                                 {"comm_r_last", json::string(to_hex(s.comm.comm_r_last))},
                                 {"comm_r", json::string(to_hex(s.comm.comm_r))}});
    const std::string text = j.dump(2) + "\n";
    const std::string tmp = sector_file(dir, "sector.json.tmp");
    io::output_file f(tmp);
    f.write(reinterpret_cast<const uint8_t*>(text.data()), text.size());
    f.close();
    std::filesystem::rename(tmp, sector_file(dir, "sector.json"));
}

sector_info read_sector_json(const std::string& dir)
{
    const std::string path = sector_file(dir, "sector.json");
    const json j = json::parse(io::read_text_file(path), path);
    if (!j.is_object() || str(j, "format", path) != "cuzk-sealed-sector" || num(j, "version", path) != 1)
        throw error(errc::bad_format, fmt::format("{}: not a cuzk sealed-sector file of version 1", path));
    sector_info s;
    s.config = config_from(member(j, "config", path), path + ": config");
    s.replica.prover_id = hex(j, "prover_id", path);
    s.replica.sector_id = num(j, "sector_id", path);
    s.replica.ticket = hex(j, "ticket", path);
    s.comm.replica_id = hex(j, "replica_id", path);
    s.replica.replica_id = s.comm.replica_id;
    s.comm.comm_d = hex(j, "comm_d", path);
    s.comm.comm_c = hex(j, "comm_c", path);
    s.comm.comm_r_last = hex(j, "comm_r_last", path);
    s.comm.comm_r = hex(j, "comm_r", path);
    check_replica_id(s, path);
    return s;
}

io::mapped_file map_sector_file(const std::string& dir, const char* name, uint64_t expected_bytes)
{
    const std::string path = sector_file(dir, name);
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        throw error(errc::io, fmt::format("{}: missing or not a regular file", path));
    if (uint64_t(st.st_size) != expected_bytes)
        throw error(errc::bad_length,
                    fmt::format("{}: holds {} bytes, the sector's config needs {}", path, st.st_size, expected_bytes));
    return io::mapped_file(path);
}

std::vector<fr> read_replica_nodes(const std::string& dir, const seal_config& c, unsigned threads)
{
    const io::mapped_file data = map_sector_file(dir, "data.bin", c.sector_bytes());
    const io::mapped_file labels = map_sector_file(dir, "labels.bin", uint64_t(c.layers) * c.sector_bytes());
    const uint8_t* last = labels.data() + uint64_t(c.layers - 1) * c.sector_bytes();
    std::vector<fr> replica(c.nodes);
    parallel_for(threads, c.nodes, [&](size_t b, size_t e, unsigned) {
        for (size_t i = b; i < e; ++i) {
            fr d, l;
            if (!fr::from_bytes_le(data.data() + 32 * i, d) || !fr::from_bytes_le(last + 32 * i, l))
                throw error(errc::non_canonical,
                            fmt::format("{}: node {} of data.bin or labels.bin is not a field element", dir, i));
            replica[i] = l + d;
        }
    });
    return replica;
}

} // namespace cuzk::filecoin::detail
