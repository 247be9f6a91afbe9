// cuzk — internal to the bincode readers and writers of Filecoin's vanilla
// proofs (post/bincode.cpp, update/bincode.cpp): one MerkleProof of
// storage-proofs-core in bincode 1.x bytes (docs/FORMATS.md §5.5, §5.6), the
// layout a tree's shape fixes for it, and the bounds-checked byte reader.
//
// A MerkleProof is its ProofData variant (u32 LE: Single 0, Sub 1, Top 2),
// then the variant's fields: Single is root, leaf, path; Sub and Top are the
// base, sub (and top) paths, then root and leaf. A path is a u64 LE level
// count, then per level a u64 LE hash count, the hashes (32 bytes each) and
// the position as a u64 LE.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/merkle_proof.hpp"
#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin::detail {

// A vanilla proof's configuration refused: errc::invalid_argument, "what: msg".
[[noreturn]] inline void bad_config(std::string_view what, const std::string& msg)
{
    throw error(errc::invalid_argument, fmt::format("{}: {}", what, msg));
}

// ProofData's variants in declaration order; bincode writes the index as u32.
enum class proof_variant : uint32_t { single = 0, sub = 1, top = 2 };

// One written path (an InclusionPath): serde's field name, arity, levels.
struct path_shape {
    const char* name;
    uint64_t arity;
    uint64_t levels;
};

// What a tree's shape fixes about every inclusion proof of it.
struct merkle_layout {
    proof_variant kind = proof_variant::single;
    std::vector<path_shape> parts;   // base, then sub and top where present
    uint64_t bytes = 0;              // one MerkleProof's encoded size
    std::string tree;                // "tree 8-8-0 of 512 nodes", for messages
};

// The layout of a tree with `shape`'s arities (sub and top 0 when absent) and
// `base_levels` levels of its base path; `tree` names it in messages. The
// caller has checked that the shape and levels are the tree's.
merkle_layout make_merkle_layout(const tree_shape& shape, uint64_t base_levels, std::string tree);

// How messages name one MerkleProof: "list[n]", or "list[n].member".
struct proof_name {
    const char* list;
    size_t n;
    const char* member = nullptr;
    std::string str() const;
};

// ---- writer ----

void put_le(std::vector<uint8_t>& out, uint64_t v, int bytes);
void put_domain(std::vector<uint8_t>& out, const domain& d);

// The writer refuses what the reader would refuse: levels, hash counts or
// positions that do not fit the layout. errc::invalid_argument, "what: name…".
void check_merkle_fits(const merkle_proof& p, const merkle_layout& lay, const proof_name& name,
                       std::string_view what);

// The bytes of `p` (checked by check_merkle_fits).
void put_merkle(std::vector<uint8_t>& out, const merkle_proof& p, const merkle_layout& lay);

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

// Reads little-endian integers and domains, refusing to read past the end:
// errc::bad_length "what: byte N: field: needs K bytes, L left".
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

// Reads the variant index and refuses another than the layout's
// (errc::bad_format at field "name.data"). Callers peek with a copy of the
// reader to name a proof of another tree shape before sizes disagree.
void read_merkle_variant(byte_reader& r, const proof_name& name, const merkle_layout& lay);

// Reads one MerkleProof strictly: the layout's variant, level and hash
// counts, positions below their arity (errc::bad_format); an early end is
// errc::bad_length. Fields are named "name.base_proof.path[l].index" etc.
merkle_proof read_merkle(byte_reader& r, const proof_name& name, const merkle_layout& lay);

} // namespace cuzk::filecoin::detail
