// cuzk — PoSt vanilla proofs as bincode bytes: the writer and the strict
// reader (post_bincode.hpp; the layout is docs/FORMATS.md §5.5).
#include "cuzk/filecoin/post_bincode.hpp"

#include <fmt/format.h>

#include <string>
#include <type_traits>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/poseidon_tree.hpp"

namespace cuzk::filecoin {

namespace {

// ProofData's variants in declaration order; bincode writes the index as u32.
enum class variant : uint32_t { single = 0, sub = 1, top = 2 };
constexpr const char* k_variant_names[] = {"Single", "Sub", "Top"};

// merkle_proof's three parts, in the order the Sub and Top variants write them.
constexpr std::vector<path_element> merkle_proof::*k_parts[] = {&merkle_proof::base, &merkle_proof::sub,
                                                                 &merkle_proof::top};
constexpr const char* k_part_names[] = {"base", "sub", "top"};

// One written path (an InclusionPath): serde's field name, arity, levels.
struct part_shape {
    const char* name;
    uint64_t arity;
    uint64_t levels;
};

// What the config fixes about every inclusion proof.
struct proof_layout {
    variant kind = variant::single;
    std::vector<part_shape> parts;   // base, then sub and top where present
    uint64_t bytes = 0;              // one MerkleProof's encoded size
    std::string tree;                // "tree 8-8-0 of 512 nodes", for messages
};

[[noreturn]] void bad_config(std::string_view what, const std::string& msg)
{
    throw error(errc::invalid_argument, fmt::format("{}: {}", what, msg));
}

// Base levels of the config's tree: nodes = base_trees · base^k, k >= 1.
uint64_t base_levels(const post_config& c, std::string_view what)
{
    try {
        return poseidon_tree_base_height(c.nodes, c.tree);
    } catch (const error&) {
        bad_config(what, fmt::format("nodes = {} does not fit tree {}", c.nodes, c.tree.name()));
    }
}

proof_layout layout_of(const post_config& c, std::string_view what)
{
    proof_layout lay;
    const uint64_t levels = base_levels(c, what);
    lay.kind = c.tree.top ? variant::top : c.tree.sub ? variant::sub : variant::single;
    lay.parts.push_back({lay.kind == variant::single ? "path" : "base_proof", c.tree.base, levels});
    if (c.tree.sub) lay.parts.push_back({"sub_proof", c.tree.sub, 1});
    if (c.tree.top) lay.parts.push_back({"top_proof", c.tree.top, 1});
    lay.bytes = 4 + 32 + 32;   // variant, root, leaf
    for (const part_shape& s : lay.parts) lay.bytes += 8 + s.levels * (8 + 32 * (s.arity - 1) + 8);
    lay.tree = fmt::format("tree {} of {} nodes", c.tree.name(), c.nodes);
    return lay;
}

// ---- writer ----

void put_le(std::vector<uint8_t>& out, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

void put_domain(std::vector<uint8_t>& out, const domain& d) { out.insert(out.end(), d.begin(), d.end()); }

// The writer refuses what the reader would refuse.
void check_fits(const merkle_proof& p, const proof_layout& lay, size_t n)
{
    for (size_t k = 0; k < 3; ++k) {
        const std::vector<path_element>& part = p.*k_parts[k];
        const uint64_t want = k < lay.parts.size() ? lay.parts[k].levels : 0;
        if (part.size() != want)
            bad_config("post_vanilla_to_bincode", fmt::format("inclusion_proofs[{}]: {} {} levels; the {} has {}", n,
                                                              part.size(), k_part_names[k], lay.tree, want));
        for (size_t l = 0; l < part.size(); ++l) {
            const uint64_t arity = lay.parts[k].arity;
            if (part[l].hashes.size() != arity - 1 || part[l].index >= arity)
                bad_config("post_vanilla_to_bincode",
                           fmt::format("inclusion_proofs[{}].{}[{}]: {} hashes and index {}; arity {} takes {} "
                                       "hashes and an index below {}",
                                       n, k_part_names[k], l, part[l].hashes.size(), part[l].index, arity, arity - 1,
                                       arity));
        }
    }
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

void put_merkle(std::vector<uint8_t>& out, const merkle_proof& p, const proof_layout& lay)
{
    put_le(out, uint32_t(lay.kind), 4);
    if (lay.kind == variant::single) {   // Single { root, leaf, path }
        put_domain(out, p.root);
        put_domain(out, p.leaf);
        put_path(out, p.base);
        return;
    }
    for (size_t k = 0; k < lay.parts.size(); ++k) put_path(out, p.*k_parts[k]);   // Sub, Top: paths, root, leaf
    put_domain(out, p.root);
    put_domain(out, p.leaf);
}

} // namespace

std::vector<uint8_t> post_vanilla_to_bincode(const post_sector_proof& proof, const post_config& config)
{
    const proof_layout lay = layout_of(config, "post_vanilla_to_bincode");
    for (size_t n = 0; n < proof.inclusion_proofs.size(); ++n) check_fits(proof.inclusion_proofs[n], lay, n);
    std::vector<uint8_t> out;
    out.reserve(8 + 32 + 8 + 8 + proof.inclusion_proofs.size() * lay.bytes + 64);
    put_le(out, proof.sector_id, 8);
    put_domain(out, proof.comm_r);
    put_le(out, 1, 8);   // vanilla_proof.sectors: one SectorProof
    put_le(out, proof.inclusion_proofs.size(), 8);
    for (const merkle_proof& p : proof.inclusion_proofs) put_merkle(out, p, lay);
    put_domain(out, proof.comm_c);
    put_domain(out, proof.comm_r_last);
    return out;
}

namespace {

// ---- reader ----

// A field's name for messages: a string, or a callable that makes it (so
// that names are formatted only when something fails).
template <class F>
std::string name_of(const F& f)
{
    if constexpr (std::is_invocable_v<const F&>)
        return f();
    else
        return std::string(f);
}

class byte_reader {
public:
    byte_reader(std::span<const uint8_t> bytes, std::string_view what) : bytes_(bytes), what_(what) {}
    size_t pos() const { return pos_; }
    size_t left() const { return bytes_.size() - pos_; }

    [[noreturn]] void fail(errc code, size_t at, const std::string& field, const std::string& msg) const
    {
        throw error(code, fmt::format("{}: byte {}: {}: {}", what_, at, field, msg));
    }
    template <class F>
    void need(uint64_t n, const F& field) const
    {
        if (n > left()) fail(errc::bad_length, pos_, name_of(field), fmt::format("needs {} bytes, {} left", n, left()));
    }
    template <class F>
    uint64_t le(int n, const F& field)
    {
        need(n, field);
        uint64_t v = 0;
        for (int i = n - 1; i >= 0; --i) v = v << 8 | bytes_[pos_ + i];
        pos_ += n;
        return v;
    }
    template <class F>
    void get(domain& d, const F& field)
    {
        need(32, field);
        for (size_t i = 0; i < 32; ++i) d[i] = bytes_[pos_ + i];
        pos_ += 32;
    }

private:
    std::span<const uint8_t> bytes_;
    std::string_view what_;
    size_t pos_ = 0;
};

std::string path_field(size_t n, const part_shape& s) { return fmt::format("inclusion_proofs[{}].{}.path", n, s.name); }

void read_element(byte_reader& r, size_t n, const part_shape& s, size_t l, path_element& e)
{
    auto field = [&](const char* member) { return fmt::format("{}[{}].{}", path_field(n, s), l, member); };
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

void read_path(byte_reader& r, size_t n, const proof_layout& lay, size_t k, std::vector<path_element>& out)
{
    const part_shape& s = lay.parts[k];
    const size_t at = r.pos();
    const uint64_t levels = r.le(8, [&] { return path_field(n, s); });
    if (levels != s.levels)
        r.fail(errc::bad_format, at, path_field(n, s),
               fmt::format("{} levels; the {} has {} {} levels", levels, lay.tree, s.levels, k_part_names[k]));
    out.resize(levels);
    for (size_t l = 0; l < levels; ++l) read_element(r, n, s, l, out[l]);
}

void read_variant(byte_reader& r, size_t n, const proof_layout& lay)
{
    auto field = [&] { return fmt::format("inclusion_proofs[{}].data", n); };
    const size_t at = r.pos();
    const uint64_t v = r.le(4, field);
    if (v != uint32_t(lay.kind))
        r.fail(errc::bad_format, at, field(),
               fmt::format("variant {} ({}); the {} takes variant {} ({})", v, v < 3 ? k_variant_names[v] : "unknown",
                           lay.tree, uint32_t(lay.kind), k_variant_names[uint32_t(lay.kind)]));
}

merkle_proof read_merkle(byte_reader& r, size_t n, const proof_layout& lay)
{
    auto field = [&](const char* member) { return fmt::format("inclusion_proofs[{}].{}", n, member); };
    read_variant(r, n, lay);
    merkle_proof p;
    if (lay.kind == variant::single) {   // Single { root, leaf, path }
        r.get(p.root, [&] { return field("root"); });
        r.get(p.leaf, [&] { return field("leaf"); });
        read_path(r, n, lay, 0, p.base);
        return p;
    }
    for (size_t k = 0; k < lay.parts.size(); ++k) read_path(r, n, lay, k, p.*k_parts[k]);
    r.get(p.root, [&] { return field("root"); });
    r.get(p.leaf, [&] { return field("leaf"); });
    return p;
}

} // namespace

post_sector_proof post_vanilla_from_bincode(std::span<const uint8_t> bytes, const post_config& config,
                                            std::string_view what)
{
    const proof_layout lay = layout_of(config, what);
    byte_reader r(bytes, what);
    post_sector_proof out;
    out.sector_id = r.le(8, "sector_id");
    r.get(out.comm_r, "comm_r");
    size_t at = r.pos();
    const uint64_t sectors = r.le(8, "vanilla_proof.sectors");
    if (sectors != 1)
        r.fail(errc::bad_format, at, "vanilla_proof.sectors",
               fmt::format("{} sector proofs; a single sector's vanilla proof holds 1", sectors));
    at = r.pos();
    const uint64_t count = r.le(8, "inclusion_proofs");
    if (count > 0) {   // bytes of another tree shape: name the variant before the sizes disagree
        byte_reader peek = r;
        read_variant(peek, 0, lay);
    }
    if (r.left() < 64 || count > (r.left() - 64) / lay.bytes)   // comm_c and comm_r_last follow the proofs
        r.fail(errc::bad_length, at, "inclusion_proofs",
               fmt::format("{} proofs of {} bytes (and 64 more) do not fit the {} bytes left", count, lay.bytes,
                           r.left()));
    out.inclusion_proofs.reserve(count);
    for (size_t n = 0; n < count; ++n) out.inclusion_proofs.push_back(read_merkle(r, n, lay));
    r.get(out.comm_c, "comm_c");
    r.get(out.comm_r_last, "comm_r_last");
    if (r.left() != 0)
        r.fail(errc::bad_length, r.pos(), "end", fmt::format("{} bytes after the vanilla proof", r.left()));
    return out;
}

} // namespace cuzk::filecoin
