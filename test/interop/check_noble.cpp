// Compares cuzk with @noble/curves byte for byte.
//
//   check_noble <vectors.txt>
//
// The file comes from noble_vectors.mjs (its header describes the lines). For
// every g1/g2 line cuzk recomputes [k]G, encodes it both ways and compares with
// noble's bytes, then decodes noble's bytes (with the subgroup check) and
// compares the point. For every pair line it computes e([k1]G1, [k2]G2) and
// compares the 576 bytes of noble's Fp12.toBytes. The bn_* lines do the same
// for BN254 (ec/bn254.hpp, pairing/pairing.hpp) with affine coordinates instead
// of encodings. Exit status 0 only when every vector matched and the trailing
// `end` line's counts agree.
#include <array>
#include <cstdio>
#include <exception>
#include <fstream>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/error.hpp"
#include "cuzk/ff/fp12.hpp"
#include "cuzk/pairing/pairing.hpp"

using namespace cuzk;

namespace {

bool parse_hex(const std::string& h, std::vector<uint8_t>& out)
{
    auto nib = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    if (h.size() % 2) return false;
    out.resize(h.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) {
        const int a = nib(h[2 * i]), b = nib(h[2 * i + 1]);
        if (a < 0 || b < 0) return false;
        out[i] = uint8_t(a << 4 | b);
    }
    return true;
}
std::string to_hex(std::span<const uint8_t> b)
{
    static const char* d = "0123456789abcdef";
    std::string s;
    for (uint8_t v : b) {
        s += d[v >> 4];
        s += d[v & 15];
    }
    return s;
}
// 64 hex digits, big-endian → 4 little-endian limbs.
bool parse_scalar(const std::string& h, bigint<4>& k)
{
    std::vector<uint8_t> b;
    if (h.size() != 64 || !parse_hex(h, b)) return false;
    k = bigint<4>::zero();
    for (size_t i = 0; i < 32; ++i) k.l[i / 8] |= uint64_t(b[31 - i]) << (8 * (i % 8));
    return true;
}

// noble's Fp12.toBytes: Fp12 = c0 ‖ c1 (Fp6), Fp6 = c0 ‖ c1 ‖ c2 (Fp2),
// Fp2 = c0 ‖ c1 (note: the opposite of the c1 ‖ c0 of point encodings),
// each Fp 48 bytes big-endian canonical. Written out here rather than taken
// from fp12.hpp so that the library's own byte order is checked too.
std::vector<uint8_t> noble_fp12_bytes(const fp12& e)
{
    std::vector<uint8_t> out(12 * 48);
    size_t o = 0;
    for (const fp6* h : {&e.c0, &e.c1})
        for (const fp2* q : {&h->c0, &h->c1, &h->c2})
            for (const fp* c : {&q->c0, &q->c1}) {
                c->to_bytes_be(out.data() + o);
                o += 48;
            }
    return out;
}

struct checker {
    int mismatches = 0;
    void differ(const std::string& where, const std::string& what, const std::string& noble, const std::string& ours)
    {
        ++mismatches;
        std::printf("MISMATCH %s: %s\n  noble: %s\n  cuzk:  %s\n", where.c_str(), what.c_str(), noble.c_str(),
                    ours.c_str());
    }
    void fail(const std::string& where, const std::string& what)
    {
        ++mismatches;
        std::printf("MISMATCH %s: %s\n", where.c_str(), what.c_str());
    }
};

template <class Affine, size_t NC, size_t NU, class Compress, class Serialize, class Deserialize>
void check_point(checker& ck, const std::string& where, const bigint<4>& k, const std::vector<uint8_t>& nc,
                 const std::vector<uint8_t>& nu, Compress compress, Serialize serialize, Deserialize deserialize)
{
    if (nc.size() != NC || nu.size() != NU) {
        ck.fail(where, "noble's encodings have unexpected lengths");
        return;
    }
    const Affine p = scalar_mul(Affine::generator(), k).to_affine();
    std::array<uint8_t, NC> c;
    std::array<uint8_t, NU> u;
    compress(p, std::span<uint8_t, NC>(c));
    serialize(p, std::span<uint8_t, NU>(u));
    if (!std::equal(c.begin(), c.end(), nc.begin())) ck.differ(where, "compressed encoding", to_hex(nc), to_hex(c));
    if (!std::equal(u.begin(), u.end(), nu.begin())) ck.differ(where, "uncompressed encoding", to_hex(nu), to_hex(u));
    for (const auto* enc : {&nc, &nu}) {
        const char* form = enc == &nc ? "compressed" : "uncompressed";
        try {
            const Affine q = deserialize(std::span<const uint8_t>(*enc), subgroup_check::check);
            if (q != p) ck.fail(where, std::string("decoding noble's ") + form + " bytes gives another point");
        } catch (const cuzk::error& e) {
            ck.fail(where, std::string("cuzk rejects noble's ") + form + " bytes: " + e.what());
        }
    }
}


// ---- BN254 ------------------------------------------------------------------------
// Coordinates as noble prints them: each Fp 32 bytes big-endian, Fp2 as c0 ‖ c1.
std::string bn_hex(const bn254::fp& a)
{
    uint8_t b[32];
    a.to_bytes_be(b);
    return to_hex(b);
}
std::string bn_hex(const bn254::fp2& a) { return bn_hex(a.c0) + bn_hex(a.c1); }

template <class Affine>
void check_bn_point(checker& ck, const std::string& where, const bigint<4>& k, const std::string& nx,
                    const std::string& ny)
{
    const Affine p = scalar_mul(Affine::generator(), k).to_affine();
    const std::string x = bn_hex(p.x), y = bn_hex(p.y);
    if (x != nx || y != ny) ck.differ(where, "affine coordinates", nx + " " + ny, x + " " + y);
    if (!bn254::in_subgroup(p)) ck.fail(where, "[k]G fails the subgroup test");
}

void check_bn_pair(checker& ck, const std::string& where, const bigint<4>& k1, const bigint<4>& k2,
                   const std::vector<uint8_t>& noble)
{
    const bn254::g1_affine p = scalar_mul(bn254::g1_affine::generator(), k1).to_affine();
    const bn254::g2_affine q = scalar_mul(bn254::g2_affine::generator(), k2).to_affine();
    std::vector<uint8_t> ours(bn254::fp12_nbytes);
    fp12_to_bytes_be(pairing<bn254_curve>(p, q), ours.data());
    if (ours != noble) ck.differ(where, "BN254 pairing (Fp12.toBytes)", to_hex(noble), to_hex(ours));
}

// Counts per line kind, in the order of the `end` line.
struct counts {
    int g1 = 0, g2 = 0, pair = 0, bn_g1 = 0, bn_g2 = 0, bn_pair = 0;
    std::string str() const
    {
        std::string s;
        for (int v : {g1, g2, pair, bn_g1, bn_g2, bn_pair}) s += (s.empty() ? "" : " ") + std::to_string(v);
        return s;
    }
};

// One bn_* line (tokens after the kind: a, b, c); false when the kind is not BN254's.
bool check_bn_line(checker& ck, counts& n, const std::string& kind, const std::string& where, const std::string& a,
                   const std::string& b, const std::string& c)
{
    bigint<4> k, k2;
    std::vector<uint8_t> bytes;
    if (kind == "bn_g1" || kind == "bn_g2") {
        const size_t len = kind == "bn_g1" ? 64 : 128;
        if (!parse_scalar(a, k) || b.size() != len || c.size() != len) {
            ck.fail(where, "cannot parse");
        } else if (kind == "bn_g1") {
            ++n.bn_g1;
            check_bn_point<bn254::g1_affine>(ck, where + " k=" + a, k, b, c);
        } else {
            ++n.bn_g2;
            check_bn_point<bn254::g2_affine>(ck, where + " k=" + a, k, b, c);
        }
        return true;
    }
    if (kind == "bn_pair") {
        if (!parse_scalar(a, k) || !parse_scalar(b, k2) || !parse_hex(c, bytes) || bytes.size() != bn254::fp12_nbytes) {
            ck.fail(where, "cannot parse");
        } else {
            ++n.bn_pair;
            check_bn_pair(ck, where + " k1=" + a + " k2=" + b, k, k2, bytes);
        }
        return true;
    }
    return false;
}

// One BLS12-381 line (g1, g2, pair); false when the kind is not one of them.
bool check_bls_line(checker& ck, counts& n, const std::string& kind, const std::string& where, const std::string& a,
                    const std::string& b, const std::string& c)
{
    bigint<4> k, k2;
    std::vector<uint8_t> x, y;
    if (kind == "g1" || kind == "g2") {
        if (!parse_scalar(a, k) || !parse_hex(b, x) || !parse_hex(c, y)) {
            ck.fail(where, "cannot parse");
        } else if (kind == "g1") {
            ++n.g1;
            check_point<g1_affine, 48, 96>(ck, where + " k=" + a, k, x, y, g1_compress, g1_serialize, g1_deserialize);
        } else {
            ++n.g2;
            check_point<g2_affine, 96, 192>(ck, where + " k=" + a, k, x, y, g2_compress, g2_serialize, g2_deserialize);
        }
        return true;
    }
    if (kind == "pair") {
        if (!parse_scalar(a, k) || !parse_scalar(b, k2) || !parse_hex(c, x) || x.size() != 576) {
            ck.fail(where, "cannot parse");
            return true;
        }
        ++n.pair;
        const g1_affine p = scalar_mul(g1_affine::generator(), k).to_affine();
        const g2_affine q = scalar_mul(g2_affine::generator(), k2).to_affine();
        const std::vector<uint8_t> ours = noble_fp12_bytes(pairing<bls12_381_curve>(p, q));
        if (ours != x) ck.differ(where + " k1=" + a + " k2=" + b, "pairing (Fp12.toBytes)", to_hex(x), to_hex(ours));
        return true;
    }
    return false;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <vectors.txt from noble_vectors.mjs>\n", argv[0]);
        return 2;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::fprintf(stderr, "check_noble: cannot open %s\n", argv[1]);
        return 2;
    }
    checker ck;
    counts n;
    int lineno = 0;
    bool ended = false;
    std::string line;
    try {
        while (std::getline(in, line)) {
            ++lineno;
            if (line.empty()) continue;
            std::istringstream ls(line);
            std::string kind, a, b, c;
            ls >> kind >> a >> b >> c;
            const std::string where = "line " + std::to_string(lineno) + " (" + kind + ")";
            if (ended) {
                ck.fail(where, "data after the end line");
            } else if (kind == "end") {
                ended = true;
                std::string rest;
                std::getline(ls, rest);
                const std::string got = a + " " + b + " " + c + rest;
                if (got != n.str())
                    ck.fail(where, "counts " + got + " do not match the lines read (" + n.str() + ")");
            } else if (!check_bls_line(ck, n, kind, where, a, b, c) && !check_bn_line(ck, n, kind, where, a, b, c)) {
                ck.fail(where, "unknown line kind");
            }
        }
    } catch (const std::exception& e) {
        std::printf("check_noble: unexpected exception at line %d: %s\n", lineno, e.what());
        return 1;
    }
    if (!ended) ck.fail("end of file", "no `end` line: the vector file is truncated");
    if (n.g1 == 0 || n.g2 == 0 || n.pair == 0 || n.bn_g1 == 0 || n.bn_g2 == 0 || n.bn_pair == 0)
        ck.fail("end of file", "some kind of vector is missing entirely");
    std::printf("check_noble: BLS12-381 %d g1, %d g2, %d pairing and BN254 %d g1, %d g2, %d pairing vectors from "
                "@noble/curves; %d mismatch%s\n",
                n.g1, n.g2, n.pair, n.bn_g1, n.bn_g2, n.bn_pair, ck.mismatches, ck.mismatches == 1 ? "" : "es");
    return ck.mismatches ? 1 : 0;
}
