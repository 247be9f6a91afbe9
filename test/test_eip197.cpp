// BN254 points and proofs in the EIP-197 encoding (io/eip197.hpp): a proof
// made by snarkjs encodes to the bytes of snarkjs's `zkey export
// soliditycalldata` for it and decodes back; random points and proofs
// round-trip (the identity as all zeros); wrong lengths, coordinates >= q,
// points off their curve and G2 points outside the subgroup are refused with
// their codes, naming the point.
#include <catch2/catch.hpp>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/io/eip197.hpp"
#include "cuzk/io/json.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using C = bn254_curve;

namespace {

// snarkjs 0.7.6's Groth16 proof of the interop test's bn128 mul20 circuit
// (build-dev/interop-snarkjs/bn128_mul20/sj_proof.json).
const char* const snarkjs_proof =
    R"({"pi_a":["14252410087672030206567417228925797530766713110223771196227598995876798150732",)"
    R"("17681752424888878830093284399216975175975847534514810754995973767911099826094","1"],)"
    R"("pi_b":[["16694239432337131653117365269326415160736000100496507842814428617607686931226",)"
    R"("2991878886435496010881285505395663072640964312989907813218622028570405808902"],)"
    R"(["8014603139995118170968794255204172213672192043954751216035440718255628409898",)"
    R"("7281378711424727627515744686627375000423635246839220832916006002766797606778"],["1","0"]],)"
    R"("pi_c":["21148899684427928237479761655472214848560375170231422306339551860077670013368",)"
    R"("13834673141146261124304877368097426920582137968880406696508342108312876587704","1"],)"
    R"("protocol":"groth16","curve":"bn128"})";

// `snarkjs zkey export soliditycalldata sj_public.json sj_proof.json` for it:
// a, then b as [[x.c1, x.c0], [y.c1, y.c0]], then c (the hex of the decimals
// above; the public signals that follow are left out).
const char* const calldata_hex[8] = {
    "1f82940797d711cf3aab41d415fb8eb28a642107d93af36e8648c57ae5a6384c",
    "271784687e48f23edca0543b23fd03b4bb270792b12d5a221ad01c1f89b37fae",
    "069d57ebad41b324ee5af92ddd1067f543b49f1715f375dde64fee6cab76ab06",
    "24e89acbd5b11c64c29a8ff445582ce5753b245180045a0c6d67379e4fe0431a",
    "10191d4304dddf55e6b0f0f3ae27ec95eb1de12552d20b92b8ba558cbc740f7a",
    "11b81ac89f33ede94db0022a0226f35c217bf56beca802a08c70d8db796edc2a",
    "2ec1da5fe5c36f99bf5e6aec0b133c9c9dce5c17f62f7cdbbf05331d19e999b8",
    "1e9625c31432a56e73af9852974448745da6500d91fb784b2b5012def3279ab8",
};

std::vector<uint8_t> calldata_bytes()
{
    std::vector<uint8_t> out;
    for (const char* h : calldata_hex)
        for (size_t i = 0; i < 64; i += 2) out.push_back(uint8_t(std::stoul(std::string(h + i, 2), nullptr, 16)));
    return out;
}

bool same(const groth16::proof_t<C>& x, const groth16::proof_t<C>& y)
{
    return x.a == y.a && x.b == y.b && x.c == y.c;
}

groth16::proof_t<C> random_proof(std::mt19937_64& rng)
{
    groth16::proof_t<C> p;
    p.a = scalar_mul(bn254::g1_affine::generator(), bn254::fr::random(rng).to_repr()).to_affine();
    p.b = scalar_mul(bn254::g2_affine::generator(), bn254::fr::random(rng).to_repr()).to_affine();
    p.c = scalar_mul(bn254::g1_affine::generator(), bn254::fr::random(rng).to_repr()).to_affine();
    return p;
}

// The code and message of decoding `b`.
std::pair<errc, std::string> decode_error(const std::vector<uint8_t>& b)
{
    try {
        io::eip197_proof_decode(b);
    } catch (const error& e) {
        return {e.code(), e.what()};
    }
    return {errc::ok, ""};
}

} // namespace

TEST_CASE("EIP-197: a snarkjs proof encodes to snarkjs's Solidity calldata and back", "[io][bn254][eip197]")
{
    const groth16::proof_t<C> pr = io::proof_from_json<C>(io::json::parse(snarkjs_proof, "proof.json"), "proof.json");
    const std::vector<uint8_t> want = calldata_bytes();
    REQUIRE(want.size() == io::eip197_proof_size);
    const auto got = io::eip197_proof_bytes(pr);
    CHECK(std::vector<uint8_t>(got.begin(), got.end()) == want);
    CHECK(same(io::eip197_proof_decode(want), pr));
}

TEST_CASE("EIP-197: random points and proofs round-trip; the identity is all zeros", "[io][bn254][eip197]")
{
    std::mt19937_64 rng(test::test_seed() + 197);
    for (int it = 0; it < 4; ++it) {
        const groth16::proof_t<C> p = random_proof(rng);
        const auto b = io::eip197_proof_bytes(p);
        CHECK(same(io::eip197_proof_decode(b), p));
    }
    groth16::proof_t<C> id = random_proof(rng);
    id.a = bn254::g1_affine::identity();
    id.b = bn254::g2_affine::identity();
    const auto b = io::eip197_proof_bytes(id);
    for (size_t i = 0; i < io::eip197_g1_size + io::eip197_g2_size; ++i) REQUIRE(b[i] == 0);
    const groth16::proof_t<C> back = io::eip197_proof_decode(b);
    CHECK(back.a.is_identity());
    CHECK(back.b.is_identity());
    CHECK(back.c == id.c);
}

TEST_CASE("EIP-197: bad lengths, coordinates, curves and subgroups are refused with their codes",
          "[io][bn254][eip197]")
{
    std::mt19937_64 rng(test::test_seed() + 198);
    const auto good = io::eip197_proof_bytes(random_proof(rng));
    const std::vector<uint8_t> base(good.begin(), good.end());
    for (size_t n : {size_t(0), size_t(192), size_t(255), size_t(257)}) {
        std::vector<uint8_t> b(base);
        b.resize(n);
        CHECK(decode_error(b).first == errc::bad_length);
    }
    // q itself at each coordinate: non_canonical naming the point and coordinate.
    std::array<uint8_t, 32> q{};
    for (size_t i = 0; i < 32; ++i) q[31 - i] = uint8_t(bn254::fp_params::modulus.l[i / 8] >> (8 * (i % 8)));
    const char* names[8] = {"proof A x", "proof A y", "proof B x.c1", "proof B x.c0",
                            "proof B y.c1", "proof B y.c0", "proof C x", "proof C y"};
    for (size_t k = 0; k < 8; ++k) {
        std::vector<uint8_t> b(base);
        std::copy(q.begin(), q.end(), b.begin() + 32 * k);
        const auto [code, msg] = decode_error(b);
        CHECK(code == errc::non_canonical);
        CHECK_THAT(msg, Catch::Contains(names[k]));
    }
    // y + 1 (the last byte of y is bumped, mod 256) moves a point off its curve.
    for (auto [off, name] : {std::pair{size_t(63), "proof A"}, {size_t(64 + 127), "proof B"}, {size_t(255), "proof C"}}) {
        std::vector<uint8_t> b(base);
        b[off] ^= 1;
        const auto [code, msg] = decode_error(b);
        CHECK(code == errc::not_on_curve);
        CHECK_THAT(msg, Catch::Contains(name));
    }
    // A point of the twist outside G2 (the twist's cofactor is not 1).
    bn254::g2_affine q2{};
    for (;;) {
        const bn254::fp2 x = bn254::fp2::random(rng);
        bn254::fp2 y;
        if ((x.sqr() * x + bn254::g2_curve::b()).sqrt(y)) {
            q2 = {x, y};
            break;
        }
    }
    REQUIRE(q2.is_on_curve());
    REQUIRE_FALSE(bn254::in_subgroup(q2));
    std::vector<uint8_t> b(base);
    io::eip197_g2_encode(q2, std::span<uint8_t, io::eip197_g2_size>(b.data() + io::eip197_g1_size, io::eip197_g2_size));
    const auto [code, msg] = decode_error(b);
    CHECK(code == errc::not_in_subgroup);
    CHECK_THAT(msg, Catch::Contains("proof B"));
}
