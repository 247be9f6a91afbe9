// cuzk — one MerkleProof in bincode bytes, shared by the PoSt and SnapDeals
// vanilla proof readers and writers (bincode_merkle.hpp).
#include "bincode_merkle.hpp"

namespace cuzk::filecoin::detail {

namespace {

constexpr const char* k_variant_names[] = {"Single", "Sub", "Top"};

// merkle_proof's three parts, in the order the Sub and Top variants write them.
constexpr std::vector<path_element> merkle_proof::*k_parts[] = {&merkle_proof::base, &merkle_proof::sub,
                                                                 &merkle_proof::top};
constexpr const char* k_part_names[] = {"base", "sub", "top"};

[[noreturn]] void bad_argument(std::string_view what, const std::string& msg)
{
    throw error(errc::invalid_argument, fmt::format("{}: {}", what, msg));
}

void put_path(std::vector<uint8_t>& out, const std::vector<path_element>& path)
{
    put_le(out, path.size(), 8);
    for (const path_element& e : path) {
        put_le(out, e.hashes.size(), 8);
        for (const domain& h : e.hashes) put_domain(out, h);
        put_le(out, e.index, 8);
    }
}

std::string path_field(const proof_name& name, const path_shape& s)
{
    return fmt::format("{}.{}.path", name.str(), s.name);
}

void read_element(byte_reader& r, const proof_name& name, const path_shape& s, size_t l, path_element& e)
{
    auto field = [&](const char* member) { return fmt::format("{}[{}].{}", path_field(name, s), l, member); };
    size_t at = r.pos();
    const uint64_t count = r.le(8, [&] { return field("hashes"); });
    if (count != s.arity - 1)
        r.fail(errc::bad_format, at, field("hashes"),
               fmt::format("{} hashes; arity {} takes {}", count, s.arity, s.arity - 1));
    e.hashes.resize(count);
    for (size_t h = 0; h < count; ++h) r.get(e.hashes[h], [&] { return fmt::format("{}[{}]", field("hashes"), h); });
    at = r.pos();
    const uint64_t index = r.le(8, [&] { return field("index"); });
    if (index >= s.arity)
        r.fail(errc::bad_format, at, field("index"), fmt::format("{} is not below the arity {}", index, s.arity));
    e.index = uint32_t(index);
}

void read_path(byte_reader& r, const proof_name& name, const merkle_layout& lay, size_t k,
               std::vector<path_element>& out)
{
    const path_shape& s = lay.parts[k];
    const size_t at = r.pos();
    const uint64_t levels = r.le(8, [&] { return path_field(name, s); });
    if (levels != s.levels)
        r.fail(errc::bad_format, at, path_field(name, s),
               fmt::format("{} levels; the {} has {} {} levels", levels, lay.tree, s.levels, k_part_names[k]));
    out.resize(levels);
    for (size_t l = 0; l < levels; ++l) read_element(r, name, s, l, out[l]);
}

} // namespace

merkle_layout make_merkle_layout(const tree_shape& shape, uint64_t base_levels, std::string tree)
{
    merkle_layout lay;
    lay.kind = shape.top ? proof_variant::top : shape.sub ? proof_variant::sub : proof_variant::single;
    lay.parts.push_back({lay.kind == proof_variant::single ? "path" : "base_proof", shape.base, base_levels});
    if (shape.sub) lay.parts.push_back({"sub_proof", shape.sub, 1});
    if (shape.top) lay.parts.push_back({"top_proof", shape.top, 1});
    lay.bytes = 4 + 32 + 32;   // variant, root, leaf
    for (const path_shape& s : lay.parts) lay.bytes += 8 + s.levels * (8 + 32 * (s.arity - 1) + 8);
    lay.tree = std::move(tree);
    return lay;
}

std::string proof_name::str() const
{
    return member ? fmt::format("{}[{}].{}", list, n, member) : fmt::format("{}[{}]", list, n);
}

// ---- writer ----

void put_le(std::vector<uint8_t>& out, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

void put_domain(std::vector<uint8_t>& out, const domain& d) { out.insert(out.end(), d.begin(), d.end()); }

void check_merkle_fits(const merkle_proof& p, const merkle_layout& lay, const proof_name& name,
                       std::string_view what)
{
    for (size_t k = 0; k < 3; ++k) {
        const std::vector<path_element>& part = p.*k_parts[k];
        const uint64_t want = k < lay.parts.size() ? lay.parts[k].levels : 0;
        if (part.size() != want)
            bad_argument(what, fmt::format("{}: {} {} levels; the {} has {}", name.str(), part.size(), k_part_names[k],
                                           lay.tree, want));
        for (size_t l = 0; l < part.size(); ++l) {
            const uint64_t arity = lay.parts[k].arity;
            if (part[l].hashes.size() != arity - 1 || part[l].index >= arity)
                bad_argument(what, fmt::format("{}.{}[{}]: {} hashes and index {}; arity {} takes {} hashes and an "
                                               "index below {}",
                                               name.str(), k_part_names[k], l, part[l].hashes.size(), part[l].index,
                                               arity, arity - 1, arity));
        }
    }
}

void put_merkle(std::vector<uint8_t>& out, const merkle_proof& p, const merkle_layout& lay)
{
    put_le(out, uint32_t(lay.kind), 4);
    if (lay.kind == proof_variant::single) {   // Single { root, leaf, path }
        put_domain(out, p.root);
        put_domain(out, p.leaf);
        put_path(out, p.base);
        return;
    }
    for (size_t k = 0; k < lay.parts.size(); ++k) put_path(out, p.*k_parts[k]);   // Sub, Top: paths, root, leaf
    put_domain(out, p.root);
    put_domain(out, p.leaf);
}

// ---- reader ----

void read_merkle_variant(byte_reader& r, const proof_name& name, const merkle_layout& lay)
{
    auto field = [&] { return name.str() + ".data"; };
    const size_t at = r.pos();
    const uint64_t v = r.le(4, field);
    if (v != uint32_t(lay.kind))
        r.fail(errc::bad_format, at, field(),
               fmt::format("variant {} ({}); the {} takes variant {} ({})", v, v < 3 ? k_variant_names[v] : "unknown",
                           lay.tree, uint32_t(lay.kind), k_variant_names[uint32_t(lay.kind)]));
}

merkle_proof read_merkle(byte_reader& r, const proof_name& name, const merkle_layout& lay)
{
    auto field = [&](const char* member) { return fmt::format("{}.{}", name.str(), member); };
    read_merkle_variant(r, name, lay);
    merkle_proof p;
    if (lay.kind == proof_variant::single) {   // Single { root, leaf, path }
        r.get(p.root, [&] { return field("root"); });
        r.get(p.leaf, [&] { return field("leaf"); });
        read_path(r, name, lay, 0, p.base);
        return p;
    }
    for (size_t k = 0; k < lay.parts.size(); ++k) read_path(r, name, lay, k, p.*k_parts[k]);
    r.get(p.root, [&] { return field("root"); });
    r.get(p.leaf, [&] { return field("leaf"); });
    return p;
}

} // namespace cuzk::filecoin::detail
