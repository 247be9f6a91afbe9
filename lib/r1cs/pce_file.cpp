// cuzk — the PCE file: checksum, save, load by mmap (format in pce.hpp).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/util/regular_file.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::r1cs {

static_assert(std::endian::native == std::endian::little, "the PCE file stores in-memory little-endian arrays");
static_assert(sizeof(fr) == 32, "fr is stored as 32 bytes");

namespace {

constexpr char magic[8] = {'c', 'u', 'z', 'k', '-', 'p', 'c', 'e'};
constexpr uint32_t version = 1;
constexpr uint64_t header_bytes = 128;
constexpr uint64_t default_chunk = uint64_t(1) << 20;
constexpr uint64_t section_align = 64;
constexpr int num_sections = 13;   // 3 × (row_ptr, col, code), table, 3 densities

// Header field offsets.
enum : size_t {
    h_magic = 0, h_version = 8, h_header_size = 12, h_num_inputs = 16, h_num_aux = 24, h_num_constraints = 32,
    h_nnz = 40, h_num_coeffs = 64, h_payload = 72, h_chunk = 80, h_payload_hash = 88, h_header_hash = 96,
};

// ---- hash ----------------------------------------------------------------------------------
// Four independent 64-bit lanes each absorb one word per 32-byte stripe with
// v ← rotl(v + w·K2, 31)·K1 (one multiply per 8 bytes, the lanes overlap in
// the pipeline: several GB/s per core). The lanes are folded with distinct
// rotations, the tail is absorbed word by word and byte by byte, and a
// final xor-shift-multiply avalanche spreads every input bit over the result.
// Not cryptographic: it detects accidental damage (truncation, bit flips),
// not deliberate forgery; the structural checks after it keep a forged file
// from making the reader misbehave.
constexpr uint64_t K1 = 0x9E3779B97F4A7C15ull;
constexpr uint64_t K2 = 0xBF58476D1CE4E5B9ull;
constexpr uint64_t K3 = 0x94D049BB133111EBull;

inline uint64_t load64(const uint8_t* p)
{
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}
inline uint64_t lane(uint64_t v, uint64_t w) { return std::rotl(v + w * K2, 31) * K1; }
inline uint64_t avalanche(uint64_t h)
{
    h ^= h >> 30;
    h *= K2;
    h ^= h >> 27;
    h *= K3;
    h ^= h >> 31;
    return h;
}

} // namespace

uint64_t pce_hash64(const void* data, size_t n, uint64_t seed) noexcept
{
    const uint8_t* p = static_cast<const uint8_t*>(data);
    uint64_t v0 = seed + K1, v1 = seed ^ K2, v2 = seed + K3, v3 = seed - K1;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        v0 = lane(v0, load64(p + i));
        v1 = lane(v1, load64(p + i + 8));
        v2 = lane(v2, load64(p + i + 16));
        v3 = lane(v3, load64(p + i + 24));
    }
    uint64_t h = std::rotl(v0, 1) + std::rotl(v1, 7) + std::rotl(v2, 12) + std::rotl(v3, 18);
    h ^= uint64_t(n) * K3;
    for (; i + 8 <= n; i += 8) h = std::rotl(h ^ lane(0, load64(p + i)), 27) * K1 + K3;
    for (; i < n; ++i) h = std::rotl(h ^ (uint64_t(p[i]) * K3), 11) * K1;
    return avalanche(h);
}

namespace {

// ---- layout ----------------------------------------------------------------------------------

struct counts {
    uint64_t ni, na, m, nnz[3], k;
};

struct layout {
    uint64_t off[num_sections];
    uint64_t len[num_sections];
    uint64_t total;
};

uint64_t align_up(uint64_t x) { return (x + section_align - 1) / section_align * section_align; }

// Byte offsets of the sections inside the payload. The counts are bounded
// by the caller (< 2^40 each), so no product or sum here can overflow.
layout compute_layout(const counts& c)
{
    layout l{};
    uint64_t pos = 0;
    int s = 0;
    auto put = [&](uint64_t bytes) {
        pos = align_up(pos);
        l.off[s] = pos;
        l.len[s] = bytes;
        pos += bytes;
        ++s;
    };
    for (int i = 0; i < 3; ++i) {
        put((c.m + 1) * 8);
        put(c.nnz[i] * 4);
        put(c.nnz[i] * 4);
    }
    put(c.k * 32);
    put((c.na + 63) / 64 * 8);
    put((c.ni + 63) / 64 * 8);
    put((c.na + 63) / 64 * 8);
    l.total = pos;
    return l;
}

// ---- save ------------------------------------------------------------------------------------

// Copies the payload through one chunk-sized buffer: each full buffer is
// hashed (one chunk hash) and written.
class chunk_writer {
public:
    chunk_writer(std::FILE* f, const std::string& path, uint64_t chunk) : f_(f), path_(path), buf_(chunk) {}

    // Bytes of payload written so far (flushed or buffered).
    uint64_t position() const { return flushed_ + fill_; }

    void write(const void* p, size_t n)
    {
        const uint8_t* s = static_cast<const uint8_t*>(p);
        while (n) {
            const size_t take = std::min(n, buf_.size() - fill_);
            std::memcpy(buf_.data() + fill_, s, take);
            fill_ += take;
            s += take;
            n -= take;
            if (fill_ == buf_.size()) flush();
        }
    }
    // Zero bytes up to `offset`.
    void pad_to(uint64_t offset)
    {
        static const uint8_t zeros[section_align] = {};
        while (position() < offset) write(zeros, size_t(std::min<uint64_t>(offset - position(), sizeof zeros)));
    }
    // Flushes the last partial chunk; returns the payload checksum.
    uint64_t finish()
    {
        if (fill_) flush();
        return pce_hash64(hashes_.data(), hashes_.size() * 8, flushed_);
    }

private:
    void flush()
    {
        hashes_.push_back(pce_hash64(buf_.data(), fill_, hashes_.size()));
        if (std::fwrite(buf_.data(), 1, fill_, f_) != fill_)
            throw error(errc::io, "save_pce: writing " + path_ + " failed: " + std::strerror(errno));
        flushed_ += fill_;
        fill_ = 0;
    }

    std::FILE* f_;
    const std::string& path_;
    std::vector<uint8_t> buf_;
    size_t fill_ = 0;
    uint64_t flushed_ = 0;
    std::vector<uint64_t> hashes_;
};

template <class T>
std::span<const uint8_t> bytes_of(std::span<const T> s)
{
    return {reinterpret_cast<const uint8_t*>(s.data()), s.size_bytes()};
}

void put_u32(uint8_t* h, size_t off, uint32_t v) { std::memcpy(h + off, &v, 4); }
void put_u64(uint8_t* h, size_t off, uint64_t v) { std::memcpy(h + off, &v, 8); }
uint32_t get_u32(const uint8_t* h, size_t off)
{
    uint32_t v;
    std::memcpy(&v, h + off, 4);
    return v;
}
uint64_t get_u64(const uint8_t* h, size_t off)
{
    uint64_t v;
    std::memcpy(&v, h + off, 8);
    return v;
}

struct file_closer {
    std::FILE* f = nullptr;
    std::string tmp;
    bool keep = false;
    ~file_closer()
    {
        if (f) std::fclose(f);
        if (!keep && !tmp.empty()) std::remove(tmp.c_str());
    }
};

// ---- load ----------------------------------------------------------------------------------------

// A read-only private mapping of a whole file, unmapped on destruction.
struct mapping {
    const uint8_t* data = nullptr;
    size_t size = 0;
    mapping() = default;
    mapping(const mapping&) = delete;
    mapping& operator=(const mapping&) = delete;
    ~mapping()
    {
        if (data) ::munmap(const_cast<uint8_t*>(data), size);
    }
};

[[noreturn]] void fail(errc code, const std::string& path, const std::string& what)
{
    throw error(code, "load_pce: " + path + ": " + what);
}

} // namespace

void save_pce(const pce& p, const std::string& path)
{
    const counts c{p.num_inputs, p.num_aux, p.num_constraints, {p.a.nnz(), p.b.nnz(), p.c.nnz()}, p.coeffs.size()};
    const layout l = compute_layout(c);

    file_closer fc;
    fc.tmp = path + ".tmp";
    fc.f = std::fopen(fc.tmp.c_str(), "wb");
    if (!fc.f) throw error(errc::io, "save_pce: cannot create " + fc.tmp + ": " + std::strerror(errno));

    uint8_t h[header_bytes] = {};
    if (std::fwrite(h, 1, header_bytes, fc.f) != header_bytes)
        throw error(errc::io, "save_pce: writing " + fc.tmp + " failed: " + std::strerror(errno));

    chunk_writer w(fc.f, fc.tmp, default_chunk);
    const std::span<const uint8_t> sections[num_sections] = {
        bytes_of(p.a.row_ptr), bytes_of(p.a.col), bytes_of(p.a.coef),
        bytes_of(p.b.row_ptr), bytes_of(p.b.col), bytes_of(p.b.coef),
        bytes_of(p.c.row_ptr), bytes_of(p.c.col), bytes_of(p.c.coef),
        bytes_of(p.coeffs),
        bytes_of(p.a_aux_density.words), bytes_of(p.b_input_density.words), bytes_of(p.b_aux_density.words),
    };
    for (int s = 0; s < num_sections; ++s) {
        if (sections[s].size() != l.len[s])
            throw error(errc::invalid_argument, "save_pce: " + path + ": section " + std::to_string(s) +
                                                    " has " + std::to_string(sections[s].size()) +
                                                    " bytes, the counts say " + std::to_string(l.len[s]));
        w.pad_to(l.off[s]);
        if (!sections[s].empty()) w.write(sections[s].data(), sections[s].size());
    }
    w.pad_to(l.total);
    const uint64_t payload_hash = w.finish();

    std::memcpy(h + h_magic, magic, 8);
    put_u32(h, h_version, version);
    put_u32(h, h_header_size, uint32_t(header_bytes));
    put_u64(h, h_num_inputs, c.ni);
    put_u64(h, h_num_aux, c.na);
    put_u64(h, h_num_constraints, c.m);
    for (int i = 0; i < 3; ++i) put_u64(h, h_nnz + 8 * i, c.nnz[i]);
    put_u64(h, h_num_coeffs, c.k);
    put_u64(h, h_payload, l.total);
    put_u64(h, h_chunk, default_chunk);
    put_u64(h, h_payload_hash, payload_hash);
    put_u64(h, h_header_hash, pce_hash64(h, h_header_hash));
    if (std::fseek(fc.f, 0, SEEK_SET) != 0 || std::fwrite(h, 1, header_bytes, fc.f) != header_bytes ||
        std::fflush(fc.f) != 0)
        throw error(errc::io, "save_pce: writing the header of " + fc.tmp + " failed: " + std::strerror(errno));
    const int rc = std::fclose(fc.f);
    fc.f = nullptr;
    if (rc != 0) throw error(errc::io, "save_pce: closing " + fc.tmp + " failed: " + std::strerror(errno));
    if (std::rename(fc.tmp.c_str(), path.c_str()) != 0)
        throw error(errc::io, "save_pce: renaming " + fc.tmp + " to " + path + " failed: " + std::strerror(errno));
    fc.keep = true;
}

namespace {

// The whole file, mapped; refuses one shorter than the header.
std::shared_ptr<mapping> map_whole_file(const std::string& path)
{
    auto map = std::make_shared<mapping>();
    uint64_t file_bytes = 0;
    const int fd = open_regular_file(path, file_bytes);
    struct stat st {};
    st.st_size = off_t(file_bytes);
    if (uint64_t(st.st_size) < header_bytes) {
        ::close(fd);
        fail(errc::bad_length, path,
             std::to_string(st.st_size) + " bytes, shorter than the " + std::to_string(header_bytes) +
                 "-byte header");
    }
    void* a = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    const int e = errno;
    ::close(fd);
    if (a == MAP_FAILED) fail(errc::io, path, std::string("cannot map: ") + std::strerror(e));
    map->data = static_cast<const uint8_t*>(a);
    map->size = size_t(st.st_size);
    return map;
}

// What a checked header says about the payload.
struct header_info {
    counts c;
    layout l;
    uint64_t payload;   // bytes after the header
    uint64_t chunk;     // checksum chunk size
};

// Magic, version, size and checksum of the header, then its counts against
// each other and against the file's size.
header_info read_header(const uint8_t* h, uint64_t file_size, const std::string& path)
{
    if (std::memcmp(h + h_magic, magic, 8) != 0) fail(errc::bad_format, path, "bad magic (not a cuzk PCE file)");
    if (get_u32(h, h_version) != version)
        fail(errc::bad_format, path,
             "unsupported version " + std::to_string(get_u32(h, h_version)) + " (this build reads " +
                 std::to_string(version) + ")");
    if (get_u32(h, h_header_size) != header_bytes)
        fail(errc::bad_format, path, "header size " + std::to_string(get_u32(h, h_header_size)) + " != 128");
    if (pce_hash64(h, h_header_hash) != get_u64(h, h_header_hash))
        fail(errc::bad_format, path, "header checksum mismatch (the header is corrupt)");

    const counts c{get_u64(h, h_num_inputs), get_u64(h, h_num_aux), get_u64(h, h_num_constraints),
                   {get_u64(h, h_nnz), get_u64(h, h_nnz + 8), get_u64(h, h_nnz + 16)}, get_u64(h, h_num_coeffs)};
    constexpr uint64_t sane = uint64_t(1) << 40;
    if (c.ni == 0 || c.ni > 0xFFFF'FFFFull || c.na > 0xFFFF'FFFFull || c.ni + c.na > (uint64_t(1) << 32))
        fail(errc::bad_format, path, "variable counts out of range (" + std::to_string(c.ni) + " inputs, " +
                                         std::to_string(c.na) + " aux)");
    if (c.m >= sane || c.nnz[0] >= sane || c.nnz[1] >= sane || c.nnz[2] >= sane || c.k >= sane)
        fail(errc::bad_format, path, "constraint, entry or coefficient count out of range");
    const layout l = compute_layout(c);
    const uint64_t payload = get_u64(h, h_payload);
    if (payload != l.total)
        fail(errc::bad_format, path, "payload size " + std::to_string(payload) + " disagrees with the counts (" +
                                         std::to_string(l.total) + ")");
    if (file_size != header_bytes + payload)
        fail(errc::bad_length, path,
             std::to_string(file_size) + " bytes, the header says " + std::to_string(header_bytes + payload) +
                 (file_size < header_bytes + payload ? " (truncated)" : " (trailing data)"));
    const uint64_t chunk = get_u64(h, h_chunk);
    if (chunk == 0 || chunk % section_align != 0 || chunk > (uint64_t(1) << 30))
        fail(errc::bad_format, path, "checksum chunk size " + std::to_string(chunk) + " is invalid");
    return {c, l, payload, chunk};
}

// The payload checksum: chunks in parallel, then the hash of the chunk hashes.
void verify_payload(const uint8_t* body, const header_info& hi, uint64_t expected, unsigned threads,
                    const std::string& path)
{
    const uint64_t payload = hi.payload, chunk = hi.chunk;
    const size_t nchunks = size_t((payload + chunk - 1) / chunk);
    std::vector<uint64_t> hs(nchunks);
    parallel_tasks(threads, nchunks, [&](size_t i, unsigned) {
        const uint64_t off = uint64_t(i) * chunk;
        hs[i] = pce_hash64(body + off, size_t(std::min(chunk, payload - off)), i);
    });
    if (pce_hash64(hs.data(), hs.size() * 8, payload) != expected)
        fail(errc::bad_format, path, "payload checksum mismatch (the file is corrupt)");
}

// The pce's arrays as views of the payload (not checked yet).
pce payload_views(const uint8_t* body, const header_info& hi)
{
    const counts& c = hi.c;
    const layout& l = hi.l;
    pce p;
    p.num_inputs = uint32_t(c.ni);
    p.num_aux = uint32_t(c.na);
    p.num_constraints = c.m;
    auto u64s = [&](int s) { return std::span<const uint64_t>((const uint64_t*)(body + l.off[s]), l.len[s] / 8); };
    auto u32s = [&](int s) { return std::span<const uint32_t>((const uint32_t*)(body + l.off[s]), l.len[s] / 4); };
    csr_matrix* mats[3] = {&p.a, &p.b, &p.c};
    for (int i = 0; i < 3; ++i) *mats[i] = {u64s(3 * i), u32s(3 * i + 1), u32s(3 * i + 2)};
    p.coeffs = std::span<const fr>((const fr*)(body + l.off[9]), size_t(c.k));
    p.a_aux_density = {u64s(10), c.na, 0};
    p.b_input_density = {u64s(11), c.ni, 0};
    p.b_aux_density = {u64s(12), c.na, 0};
    return p;
}

// One matrix: row pointers from 0 to nnz, never decreasing; columns and
// coefficient codes in range.
void check_matrix(const csr_matrix& m, const char* mname, uint64_t nnz, const counts& c, unsigned threads,
                  const std::string& path)
{
    if (m.row_ptr[0] != 0 || m.row_ptr[c.m] != nnz)
        fail(errc::bad_format, path, std::string("matrix ") + mname + ": row pointers do not span the entries");
    std::atomic<bool> bad_rows{false}, bad_cols{false};
    const uint64_t nv = c.ni + c.na, ncode = coef_table_base + c.k;
    parallel_for(threads, size_t(c.m), [&](size_t r0, size_t r1, unsigned) {
        for (size_t r = r0; r < r1; ++r)
            if (m.row_ptr[r] > m.row_ptr[r + 1]) bad_rows = true;
    });
    if (bad_rows) fail(errc::bad_format, path, std::string("matrix ") + mname + ": row pointers decrease");
    parallel_for(threads, m.nnz(), [&](size_t k0, size_t k1, unsigned) {
        bool bad = false;
        for (size_t k = k0; k < k1; ++k) bad |= (m.col[k] >= nv) | (m.coef[k] >= ncode);
        if (bad) bad_cols = true;
    });
    if (bad_cols)
        fail(errc::bad_format, path, std::string("matrix ") + mname + ": column or coefficient code out of range");
}

// Everything evaluate() relies on for memory safety; counts the density
// bitmaps' bits.
void check_structure(pce& p, const counts& c, unsigned threads, const std::string& path)
{
    const char* const mname[3] = {"A", "B", "C"};
    const csr_matrix* mats[3] = {&p.a, &p.b, &p.c};
    for (int i = 0; i < 3; ++i) check_matrix(*mats[i], mname[i], c.nnz[i], c, threads, path);
    for (size_t k = 0; k < p.coeffs.size(); ++k)
        if (!fr::is_canonical(p.coeffs[k].mont()))
            fail(errc::bad_format, path, "coefficient " + std::to_string(k) + " is not a canonical field element");
    for (density_bitmap* d : {&p.a_aux_density, &p.b_input_density, &p.b_aux_density}) {
        if (d->bit_len % 64 && (d->words.back() >> (d->bit_len % 64)) != 0)
            fail(errc::bad_format, path, "density bitmap has bits past its length");
        uint64_t n = 0;
        for (uint64_t w : d->words) n += uint64_t(std::popcount(w));
        d->popcount = n;
    }
}

} // namespace

pce load_pce(const std::string& path, bool verify_checksum, unsigned threads)
{
    auto map = map_whole_file(path);
    const uint8_t* h = map->data;
    const header_info hi = read_header(h, map->size, path);
    const uint8_t* body = h + header_bytes;
    if (verify_checksum) verify_payload(body, hi, get_u64(h, h_payload_hash), threads, path);
    pce p = payload_views(body, hi);
    check_structure(p, hi.c, threads, path);
    p.storage = std::move(map);
    return p;
}

} // namespace cuzk::r1cs
