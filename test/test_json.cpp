// JSON parser/writer, decimal conversion, and the snarkjs JSON files
// (proof.json, public.json, verification_key.json). References: GMP for the
// decimal conversion, files written by snarkjs 0.7.6 for the formats (their
// values must satisfy the Groth16 pairing equation and be reproduced byte for
// byte), and hand-checked JSON texts for the parser.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <random>
#include <string>

#include <unistd.h>

#include "cuzk/error.hpp"
#include "cuzk/io/decimal.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/pairing/pairing.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using namespace cuzk::io;
using cuzk::test::mpz;

namespace {

// Files made by snarkjs 0.7.6 (circom2 0.2.23, --prime bls12381) for the circuit
// c <== a*b, a public, input {a: 3, b: 11}; power-4 ptau, one zkey contribution.
const char* const snarkjs_vk_json = R"JSON({
 "protocol": "groth16",
 "curve": "bls12381",
 "nPublic": 2,
 "vk_alpha_1": [
  "2052736742269491865480820451753323707340185918775787198399720315443189976289909695878593478957881021098971737788658",
  "2671705144121651145072526211080521921060449062178519881376785731777451108790690065608572284448708896197103364262124",
  "1"
 ],
 "vk_beta_2": [
  [
   "3527731866751332934880259826624251248048728443635380571656000794453063236908085103500505782328673375844965160180371",
   "3455063203652656509790168669829168296059490511825939612769469849661051593032443038302973620208809226387407914831664"
  ],
  [
   "1399112739114535234559992871694663988188327884221595732845989563149230795625616666137872279295758837155633106482818",
   "80255472148157213346771028330907337435197953210105629583062289720906056976065325693638277188690638000710210409782"
  ],
  [
   "1",
   "0"
  ]
 ],
 "vk_gamma_2": [
  [
   "352701069587466618187139116011060144890029952792775240219908644239793785735715026873347600343865175952761926303160",
   "3059144344244213709971259814753781636986470325476647558659373206291635324768958432433509563104347017837885763365758"
  ],
  [
   "1985150602287291935568054521177171638300868978215655730859378665066344726373823718423869104263333984641494340347905",
   "927553665492332455747201965776037880757740193453592970025027978793976877002675564980949289727957565575433344219582"
  ],
  [
   "1",
   "0"
  ]
 ],
 "vk_delta_2": [
  [
   "3174054646190032162731260818473824451506060512813658307368960141766887590845882428495145618419242276316210633377916",
   "1417330955878958321837541290865386540249353390445238154258268110239707224993784689962402248312104775490725613396520"
  ],
  [
   "1059819179294134121836656589153422862347376681738857640479671542422397082271891140427409978509152423516040884001621",
   "1945577021438339069516644305298470627148296673462530301890603584499553222874914501193400844029629994232992632346026"
  ],
  [
   "1",
   "0"
  ]
 ],
 "vk_alphabeta_12": [
  [
   [
    "3824893540464252587883994823152702336875030937864999585761453223025757987809377981678220052747072852123716675201054",
    "3841171281592559231473732464107945772462825970324772741923185764848608660793790577025935522023772302643164666510970"
   ],
   [
    "2217394148823153288982512980074037366213067808113967997795328571904654077739425465052057282782029488183348999622237",
    "3028780811907223692750743524230221326164090208134242547434478999491293944404507456944718201960749317870545444451384"
   ],
   [
    "2616465619328553197660885305806989137892043104905525227135045668931288714195420314570316317195856795501148339613422",
    "344218368918180365480885620323557503634362105875430303669239432263428959221584773754176397528839486941783053252874"
   ]
  ],
  [
   [
    "3461055827461494729803575996775734155784186688295537383868911163625655795332994274415594729275577564772468283573755",
    "1228409733697038954434845196181545869212696681377620093526831353795941854590651688753801739278049433156386279447864"
   ],
   [
    "2773125165150884629706178413940726765966469010550093445666198079918714910989033660061293153576050786274102280999083",
    "3263297934664479950644353310974396335764677674252621386122493909361854021516424317502221132021387473042365882195181"
   ],
   [
    "2490438594418072468975168200813201746438887156267509599582587978460504478780230445726430397820957268689649354786915",
    "2565455426598510497912742552376242729269525293188575872326447614156704608348245541721777312281277933562187844464573"
   ]
  ]
 ],
 "IC": [
  [
   "653386488497368289623903089027634376733936264990257220219777572175768214698482042454788187589241044265576536349963",
   "146100620808531561345866003493553534731660847947524542678539508143897639989187335635868251063344471351297199435626",
   "1"
  ],
  [
   "2125081218261770791790227600765818098159581151667101404910079847419171399391643683886099249722239389243805586843004",
   "2809469206015820903565440047817668071043611134596217792423374050276750944324284218428216569855235963503990716035644",
   "1"
  ],
  [
   "1179675481709307482549510970663754600876515742836096230305821495309859223289516265866444176526295498556681889438463",
   "298716985883550130943744803201233518795800873439581478022125234412081733682386006125569894829161006788552798467389",
   "1"
  ]
 ]
})JSON";
const char* const snarkjs_proof_json = R"JSON({
 "pi_a": [
  "3253817000380793229879144339968943730134298592909975527707215951694336399891860786457727146892418785434415311863022",
  "273883474304136654592006037197802383925894469814115425237373097493913294648208937165971761758746357269497290979395",
  "1"
 ],
 "pi_b": [
  [
   "2812685757074918131676024293762932789498026075526026011958673558839192720112500663121363958504070136502693381495651",
   "3292968618010820245904443930660896771701668630581560253760047883852383955600157172997646557535058037734338439234302"
  ],
  [
   "2313109162076740989899807479257150514940647299555114338242429029709134220783676192272293786202551174472507836727911",
   "2289130331053248643017907252428618704548212225856964049144985843602919246606246527430818557970798892346081826273620"
  ],
  [
   "1",
   "0"
  ]
 ],
 "pi_c": [
  "469831402043354228934701260087196775961869396974471644010920386502405163530847778507165438071506869051578974985068",
  "1433550526045248070578452175245999094185709778517777137603854977024604902798491226804596024724300540250527200176762",
  "1"
 ],
 "protocol": "groth16",
 "curve": "bls12381"
})JSON";
const char* const snarkjs_public_json = R"JSON([
 "33",
 "3"
])JSON";

// Runs f, which must throw cuzk::error with `code` and a message containing
// every string of `parts`.
template <class F>
void expect_error(F&& f, errc code, std::initializer_list<std::string> parts = {})
{
    try {
        f();
    } catch (const cuzk::error& e) {
        INFO("message: " << e.what());
        CHECK(errc_name(e.code()) == std::string(errc_name(code)));
        for (const auto& p : parts) CHECK(std::string(e.what()).find(p) != std::string::npos);
        return;
    }
    FAIL("no cuzk::error thrown");
}

struct temp_dir {
    std::filesystem::path path;
    temp_dir()
    {
        path = std::filesystem::temp_directory_path() /
               ("cuzk_test_json_" + std::to_string(::getpid()) + "_" + std::to_string(test::test_seed() & 0xffffff));
        std::filesystem::create_directories(path);
    }
    ~temp_dir() { std::filesystem::remove_all(path); }
    std::string file(const std::string& n) const { return (path / n).string(); }
};

template <class F>
F random_field(std::mt19937_64& rng)
{
    return F::random(rng);
}
g1_affine random_g1(std::mt19937_64& rng)
{
    return scalar_mul(g1_affine::generator(), random_field<fr>(rng).to_repr()).to_affine();
}
g2_affine random_g2(std::mt19937_64& rng)
{
    return scalar_mul(g2_affine::generator(), random_field<fr>(rng).to_repr()).to_affine();
}

// Replaces the first occurrence of `from` in s (which must occur).
std::string replace_once(std::string s, const std::string& from, const std::string& to)
{
    const size_t pos = s.find(from);
    REQUIRE(pos != std::string::npos);
    return s.replace(pos, from.size(), to);
}

} // namespace

// ---- decimal ---------------------------------------------------------------------------

TEST_CASE("decimal conversion agrees with GMP", "[json]")
{
    std::mt19937_64 rng(test::test_seed());
    for (int i = 0; i < 2000; ++i) {
        bigint<6> v;
        for (auto& l : v.l) l = rng();
        const int keep = int(rng() % 7);   // vary the magnitude
        for (int k = keep; k < 6; ++k) v.l[k] = (k == keep) ? v.l[k] >> (rng() % 64) : 0;
        const std::string s = to_decimal(v);
        char* g = mpz_get_str(nullptr, 10, test::to_mpz(v));
        REQUIRE(s == std::string(g));
        void (*freefunc)(void*, size_t);
        mp_get_memory_functions(nullptr, nullptr, &freefunc);
        freefunc(g, std::strlen(g) + 1);
        bigint<6> back;
        REQUIRE(from_decimal(s, back));
        REQUIRE(back == v);
    }
    bigint<4> z;
    CHECK(to_decimal(bigint<4>::zero()) == "0");
    CHECK(from_decimal("0000", z));
    CHECK(z.is_zero());
    bigint<4> m;
    for (auto& l : m.l) l = ~0ull;
    const std::string max256 = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
    CHECK(to_decimal(m) == max256);
    CHECK(from_decimal(max256, z));
    CHECK(z == m);
    CHECK_FALSE(from_decimal("115792089237316195423570985008687907853269984665640564039457584007913129639936", z));
    CHECK_FALSE(from_decimal("", z));
    CHECK_FALSE(from_decimal("12a", z));
    CHECK_FALSE(from_decimal("-1", z));
    CHECK_FALSE(from_decimal(" 1", z));
    CHECK_FALSE(from_decimal("1e3", z));
}

// ---- the JSON value, parser and writer ------------------------------------------------------

TEST_CASE("json parser: values, nesting, numbers vs strings", "[json]")
{
    const json j = json::parse(R"( { "a" : [1, -2.5e+3, "1", [ [], [[true]], {} ], null, false],
                                    "b": {"c": "d"}, "e": 0 } )");
    REQUIRE(j.is_object());
    REQUIRE(j.size() == 3);
    const json& a = *j.find("a");
    REQUIRE(a.size() == 6);
    CHECK(a.as_array()[0].is_number());
    CHECK(a.as_array()[0].as_u64() == 1u);
    CHECK(a.as_array()[1].number_text() == "-2.5e+3");
    CHECK_FALSE(a.as_array()[1].as_u64());
    CHECK(a.as_array()[2].is_string());
    CHECK(a.as_array()[2].as_string() == "1");
    CHECK_FALSE(a.as_array()[2].as_u64());   // a string is not a number
    const json& nest = a.as_array()[3];
    CHECK(nest.as_array()[0].is_array());
    CHECK(nest.as_array()[0].size() == 0);
    CHECK(nest.as_array()[1].as_array()[0].as_array()[0].as_bool() == true);
    CHECK(nest.as_array()[2].is_object());
    CHECK(a.as_array()[4].is_null());
    CHECK(j.find("b")->find("c")->as_string() == "d");
    CHECK(j.find("e")->as_u64() == 0u);
    CHECK(j.find("zz") == nullptr);
    CHECK(json::parse("18446744073709551615").as_u64() == 18446744073709551615ull);
    CHECK_FALSE(json::parse("18446744073709551616").as_u64());
    CHECK(json::parse("  \"x\"\n").as_string() == "x");
    // Type mismatches on access are errors, not crashes.
    expect_error([&] { (void)j.as_array(); }, errc::invalid_argument);
    expect_error([&] { (void)a.as_array()[2].number_text(); }, errc::invalid_argument);
}

TEST_CASE("json parser: string escapes and UTF-8", "[json]")
{
    const json j = json::parse(R"(["\"\\\/\b\f\n\r\t", "\u0041\u00e9\u20ac", "\ud83d\ude00", "é€😀"])");
    const auto& a = j.as_array();
    CHECK(a[0].as_string() == "\"\\/\b\f\n\r\t");
    CHECK(a[1].as_string() == "A\xc3\xa9\xe2\x82\xac");
    CHECK(a[2].as_string() == "\xf0\x9f\x98\x80");
    CHECK(a[3].as_string() == "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    // The writer escapes what must be escaped and the result parses back.
    const json s = json::string(std::string("q\"b\\c\n\x01 \xc3\xa9"));
    CHECK(s.dump() == "\"q\\\"b\\\\c\\n\\u0001 \xc3\xa9\"");
    CHECK(json::parse(s.dump()) == s);
}

TEST_CASE("json parser: garbage is rejected with its position", "[json]")
{
    struct bad_case {
        const char* text;
        const char* where;   // "line L, column C"
    };
    const bad_case cases[] = {
        {"", "line 1, column 1"},
        {"[1,]", "line 1, column 4"},
        {"[1 2]", "line 1, column 4"},
        {"{\"a\":1,}", "line 1, column 8"},
        {"{\"a\" 1}", "line 1, column 6"},
        {"{a:1}", "line 1, column 2"},
        {"[01]", "line 1, column 3"},
        {"[1.]", "line 1, column 2"},
        {"[.5]", "line 1, column 2"},
        {"[-]", "line 1, column 2"},
        {"[1e]", "line 1, column 2"},
        {"[+1]", "line 1, column 2"},
        {"tru", "line 1, column 1"},
        {"nul", "line 1, column 1"},
        {"[\n  \"abc", "line 2, column 3"},
        {"[\"a\nb\"]", "line 1, column 4"},
        {"[\"\\x\"]", "line 1, column 3"},
        {"[\"\\u12g4\"]", "line 1, column 5"},
        {"[\"\\ud800\"]", "line 1, column 9"},
        {"[\"\\udc00\"]", "line 1, column 9"},
        {"[\"\xff\"]", "line 1, column 3"},
        {"[\"\xc3\"]", "line 1, column 3"},
        {"[\"\xe0\x80\x80\"]", "line 1, column 3"},
        {"{\"a\":1,\n\"a\":2}", "line 2, column 1"},
        {"[1] [2]", "line 1, column 5"},
        {"[1]\n\n x", "line 3, column 2"},
        {"{\"a\":[1,2}", "line 1, column 10"},
    };
    for (const auto& c : cases) {
        INFO("input: " << c.text);
        expect_error([&] { (void)json::parse(c.text, "t.json"); }, errc::bad_format, {"t.json", c.where});
    }
    // Deep nesting: fine up to the limit, an error (not a stack overflow) past it.
    std::string ok(200, '[');
    ok += std::string(200, ']');
    CHECK(json::parse(ok).is_array());
    std::string deep(100000, '[');
    expect_error([&] { (void)json::parse(deep); }, errc::bad_format, {"nesting"});
    // json::number validates its literal.
    expect_error([&] { (void)json::number("1.2.3"); }, errc::invalid_argument);
}

TEST_CASE("json writer: compact and snarkjs-style indentation, round trip", "[json]")
{
    json o = json::object();
    o.set("pi_a", json::array({json::string("1"), json::number(uint64_t(2))}));
    o.set("empty", json::array());
    o.set("obj", json::object({{"k", json::boolean(false)}, {"n", json()}}));
    CHECK(o.dump() == R"({"pi_a":["1",2],"empty":[],"obj":{"k":false,"n":null}})");
    // JSON.stringify(o, null, 1) gives exactly this.
    CHECK(o.dump(1) == "{\n \"pi_a\": [\n  \"1\",\n  2\n ],\n \"empty\": [],\n \"obj\": {\n  \"k\": false,\n  \"n\": null\n }\n}");
    CHECK(json::parse(o.dump(1)) == o);
    CHECK(json::parse(o.dump(4)) == o);
    o.set("pi_a", json::string("replaced"));
    CHECK(o.size() == 3);
    CHECK(o.find("pi_a")->as_string() == "replaced");
}

// ---- snarkjs files --------------------------------------------------------------------------

TEST_CASE("snarkjs-made proof, public and verification key: values and byte-exact rewrite", "[json]")
{
    const auto vk = vk_from_json(json::parse(snarkjs_vk_json), "vk.json");
    const auto pr = proof_from_json(json::parse(snarkjs_proof_json), "proof.json");
    const auto pub = public_from_json(json::parse(snarkjs_public_json), "public.json");
    REQUIRE(vk.n_public() == 2);
    REQUIRE(pub.size() == 2);
    CHECK(pub[0] == fr::from_u64(33));
    CHECK(pub[1] == fr::from_u64(3));
    // snarkjs's vk_alphabeta_12 is e(α, β) in cuzk's pairing convention.
    CHECK(vk.alphabeta_12 == pairing<bls12_381_curve>(vk.alpha_g1, vk.beta_g2));
    CHECK(snarkjs_alphabeta(vk.alpha_g1, vk.beta_g2) == vk.alphabeta_12);
    // The Groth16 equation e(−A, B)·e(acc, γ)·e(C, δ)·e(α, β) = 1 with
    // acc = IC0 + Σ x_i·IC_i: every parsed coordinate must be right for it to hold.
    g1_jacobian acc = vk.ic[0].to_jacobian();
    for (size_t i = 0; i < pub.size(); ++i) acc = acc.add(scalar_mul(vk.ic[i + 1], pub[i].to_repr()));
    const g1_affine ps[4] = {-pr.a, acc.to_affine(), pr.c, vk.alpha_g1};
    const g2_affine qs[4] = {pr.b, vk.gamma_g2, vk.delta_g2, vk.beta_g2};
    CHECK(multi_pairing<bls12_381_curve>(ps, qs).is_one());
    // A tampered public input breaks it.
    g1_jacobian bad = acc.add(vk.ic[1]);
    const g1_affine ps2[4] = {-pr.a, bad.to_affine(), pr.c, vk.alpha_g1};
    CHECK_FALSE(multi_pairing<bls12_381_curve>(ps2, qs).is_one());

    // The writers reproduce snarkjs's files byte for byte.
    CHECK(proof_to_json(pr).dump(1) == snarkjs_proof_json);
    CHECK(public_to_json(pub).dump(1) == snarkjs_public_json);
    CHECK(vk_to_json(vk.to_verifying_key(), vk.alphabeta_12).dump(1) == snarkjs_vk_json);
    CHECK(vk_to_json(vk.to_verifying_key()).dump(1) == snarkjs_vk_json);   // computes e(α, β) itself

    // And through files.
    temp_dir td;
    write_vk_json(td.file("vk.json"), vk.to_verifying_key());
    write_proof_json(td.file("proof.json"), pr);
    write_public_json(td.file("public.json"), pub);
    CHECK(read_text_file(td.file("vk.json")) == snarkjs_vk_json);
    CHECK(read_text_file(td.file("proof.json")) == snarkjs_proof_json);
    CHECK(read_text_file(td.file("public.json")) == snarkjs_public_json);
    const auto vk2 = read_vk_json(td.file("vk.json"));
    CHECK(vk2.ic == vk.ic);
    CHECK(vk2.delta_g2 == vk.delta_g2);
    const auto pr2 = read_proof_json(td.file("proof.json"));
    CHECK(pr2.a == pr.a);
    CHECK(pr2.b == pr.b);
    CHECK(pr2.c == pr.c);
    CHECK(read_public_json(td.file("public.json")) == pub);
}

TEST_CASE("snarkjs JSON round trips on random values", "[json]")
{
    std::mt19937_64 rng(test::test_seed() + 1);
    temp_dir td;
    for (int it = 0; it < 3; ++it) {
        groth16::proof p{random_g1(rng), random_g2(rng), random_g1(rng)};
        write_proof_json(td.file("p.json"), p);
        const auto q = read_proof_json(td.file("p.json"));
        CHECK(q.a == p.a);
        CHECK(q.b == p.b);
        CHECK(q.c == p.c);

        std::vector<fr> pub(size_t(rng() % 5));
        for (auto& v : pub) v = fr::random(rng);
        if (!pub.empty()) pub[0] = -fr::one();   // r − 1, the largest value
        write_public_json(td.file("pub.json"), pub);
        CHECK(read_public_json(td.file("pub.json")) == pub);

        groth16::verifying_key vk;
        vk.alpha_g1 = random_g1(rng);
        vk.beta_g1 = random_g1(rng);
        vk.beta_g2 = random_g2(rng);
        vk.gamma_g2 = random_g2(rng);
        vk.delta_g1 = random_g1(rng);
        vk.delta_g2 = random_g2(rng);
        vk.ic.resize(1 + rng() % 4);
        for (auto& c : vk.ic) c = random_g1(rng);
        // The reader requires vk_alphabeta_12 = e(alpha, beta).
        const fp12 ab = snarkjs_alphabeta(vk.alpha_g1, vk.beta_g2);
        write_text_file(td.file("vk.json"), vk_to_json(vk, ab).dump(1));
        const auto r = read_vk_json(td.file("vk.json"));
        CHECK(r.alpha_g1 == vk.alpha_g1);
        CHECK(r.beta_g2 == vk.beta_g2);
        CHECK(r.gamma_g2 == vk.gamma_g2);
        CHECK(r.delta_g2 == vk.delta_g2);
        CHECK(r.ic == vk.ic);
        CHECK(r.alphabeta_12 == ab);
        CHECK(r.n_public() == vk.ic.size() - 1);
    }
    // The point at infinity has snarkjs's projective form and reads back.
    groth16::proof z{g1_affine::identity(), g2_affine::identity(), random_g1(rng)};
    const json zj = proof_to_json(z);
    CHECK(zj.find("pi_a")->dump() == R"(["0","1","0"])");
    CHECK(zj.find("pi_b")->dump() == R"([["0","0"],["1","0"],["0","0"]])");
    const auto zr = proof_from_json(zj, "z");
    CHECK(zr.a.is_identity());
    CHECK(zr.b.is_identity());
}

TEST_CASE("snarkjs JSON readers reject bad content and name the field", "[json]")
{
    const std::string P = "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787";
    const std::string R = "52435875175126190479447740508185965837690552500527637822603658699938581184513";
    const json proof = json::parse(snarkjs_proof_json);
    const std::string pa_x = proof.find("pi_a")->as_array()[0].as_string();
    const std::string pb_y0 = proof.find("pi_b")->as_array()[1].as_array()[0].as_string();
    const std::string pc_y = proof.find("pi_c")->as_array()[1].as_string();
    auto proof_with = [&](const std::string& from, const std::string& to) {
        return json::parse(replace_once(snarkjs_proof_json, from, to));
    };
    // Off the curve: change a y coordinate.
    expect_error([&] { proof_from_json(proof_with("\"" + pc_y + "\"", "\"5\""), "p.json"); }, errc::not_on_curve,
                 {"p.json", "pi_c"});
    expect_error([&] { proof_from_json(proof_with("\"" + pb_y0 + "\"", "\"7\""), "p.json"); }, errc::not_on_curve,
                 {"p.json", "pi_b"});
    // Not below p.
    expect_error([&] { proof_from_json(proof_with("\"" + pa_x + "\"", "\"" + P + "\""), "p.json"); },
                 errc::non_canonical, {"p.json", "pi_a[0]"});
    expect_error([&] { proof_from_json(proof_with("\"" + pb_y0 + "\"", "\"1" + P + "\""), "p.json"); },
                 errc::non_canonical, {"pi_b[1][0]"});
    // Not a decimal string / a number instead of a string.
    expect_error([&] { proof_from_json(proof_with("\"" + pa_x + "\"", "\"0x12\""), "p.json"); }, errc::bad_format,
                 {"pi_a[0]", "decimal"});
    expect_error([&] { proof_from_json(proof_with("\"" + pa_x + "\"", "12"), "p.json"); }, errc::bad_format,
                 {"pi_a[0]"});
    // Wrong array length, wrong z, wrong protocol / curve, missing field.
    expect_error([&] { proof_from_json(proof_with("\"1\"\n ],\n \"pi_b\"", "\"1\", \"1\"\n ],\n \"pi_b\""), "p.json"); },
                 errc::bad_format, {"pi_a", "3 elements"});
    expect_error([&] { proof_from_json(proof_with("\"1\"\n ],\n \"pi_b\"", "\"2\"\n ],\n \"pi_b\""), "p.json"); },
                 errc::bad_format, {"pi_a[2]"});
    expect_error([&] { proof_from_json(proof_with("\"bls12381\"", "\"bn128\""), "p.json"); }, errc::unsupported,
                 {"curve", "bn128"});
    expect_error([&] { proof_from_json(proof_with("\"groth16\"", "\"plonk\""), "p.json"); }, errc::unsupported,
                 {"protocol"});
    expect_error([&] { proof_from_json(proof_with("\"pi_c\"", "\"pi_x\""), "p.json"); }, errc::bad_format,
                 {"pi_c"});
    expect_error([&] { proof_from_json(json::parse("[1]"), "p.json"); }, errc::bad_format, {"p.json"});
    // rapidsnark's proof.json has no "curve": accepted.
    CHECK_NOTHROW(proof_from_json(proof_with(",\n \"curve\": \"bls12381\"", ""), "p.json"));

    // public.json
    expect_error([&] { public_from_json(json::parse("[\"1\", \"" + R + "\"]"), "pub.json"); }, errc::non_canonical,
                 {"pub.json", "[1]"});
    expect_error([&] { public_from_json(json::parse("[\"1\", 2]"), "pub.json"); }, errc::bad_format, {"[1]"});
    expect_error([&] { public_from_json(json::parse("{\"a\": 1}"), "pub.json"); }, errc::bad_format, {"pub.json"});
    CHECK(public_from_json(json::parse("[]"), "pub.json").empty());

    // verification_key.json
    auto vk_with = [&](const std::string& from, const std::string& to) {
        return json::parse(replace_once(snarkjs_vk_json, from, to));
    };
    expect_error([&] { vk_from_json(vk_with("\"nPublic\": 2", "\"nPublic\": 3"), "vk.json"); }, errc::bad_format,
                 {"vk.json", "IC", "4 elements"});
    expect_error([&] { vk_from_json(vk_with("\"nPublic\": 2", "\"nPublic\": \"2\""), "vk.json"); }, errc::bad_format,
                 {"nPublic"});
    expect_error([&] { vk_from_json(vk_with("\"bls12381\"", "\"bn128\""), "vk.json"); }, errc::unsupported,
                 {"curve"});
    const json vkj = json::parse(snarkjs_vk_json);
    const std::string ic1_y = vkj.find("IC")->as_array()[1].as_array()[1].as_string();
    expect_error([&] { vk_from_json(vk_with("\"" + ic1_y + "\"", "\"3\""), "vk.json"); }, errc::not_on_curve,
                 {"IC[1]"});
    const std::string ab = vkj.find("vk_alphabeta_12")->as_array()[1].as_array()[2].as_array()[1].as_string();
    expect_error([&] { vk_from_json(vk_with("\"" + ab + "\"", "\"" + P + "\""), "vk.json"); }, errc::non_canonical,
                 {"vk_alphabeta_12[1][2][1]"});
    expect_error([&] { vk_from_json(vk_with("\"vk_delta_2\"", "\"vk_delta_3\""), "vk.json"); }, errc::bad_format,
                 {"vk_delta_2"});

    // Files: a missing file is an io error naming it; garbage gives the position.
    temp_dir td;
    expect_error([&] { read_proof_json(td.file("nope.json")); }, errc::io, {"nope.json"});
    write_text_file(td.file("bad.json"), "{\"pi_a\": [\n\"1\",, ]}");
    expect_error([&] { read_proof_json(td.file("bad.json")); }, errc::bad_format, {"bad.json", "line 2, column 5"});
}

TEST_CASE("random corruption of JSON files never crashes the readers", "[json]")
{
    std::mt19937_64 rng(test::test_seed() + 2);
    const std::string texts[3] = {snarkjs_proof_json, snarkjs_public_json, snarkjs_vk_json};
    const char alphabet[] = "[]{},:\"\\0123456789 \nabu-+.eE";
    int errors = 0;
    for (int it = 0; it < 600; ++it) {
        std::string t = texts[it % 3];
        for (int k = 0, n = 1 + int(rng() % 3); k < n; ++k) {
            const size_t pos = size_t(rng() % t.size());
            switch (rng() % 3) {
            case 0: t[pos] = alphabet[rng() % (sizeof(alphabet) - 1)]; break;
            case 1: t.erase(pos, 1 + rng() % 8); break;
            default: t.insert(pos, 1, alphabet[rng() % (sizeof(alphabet) - 1)]);
            }
            if (t.empty()) t = "x";
        }
        try {
            const json j = json::parse(t, "m.json");
            if (it % 3 == 0) (void)proof_from_json(j, "m.json");
            if (it % 3 == 1) (void)public_from_json(j, "m.json");
            if (it % 3 == 2) (void)vk_from_json(j, "m.json");
        } catch (const cuzk::error& e) {
            ++errors;
            CHECK(std::string(e.what()).find("m.json") != std::string::npos);
        }
    }
    CHECK(errors > 100);
}

TEST_CASE("JSON proofs and keys with points outside the subgroup are refused", "[json]")
{
    // (0, 2) has order 3 on y² = x³ + 4; adding it keeps a point on the curve
    // but takes it out of the order-r subgroup.
    const g1_affine t{fp::zero(), fp::from_u64(2)};
    REQUIRE(t.is_on_curve());
    auto plus_t = [&](const g1_affine& p) { return p.to_jacobian().add(t).to_affine(); };
    const groth16::proof good = proof_from_json(json::parse(snarkjs_proof_json), "p.json");
    groth16::proof bad = good;
    bad.a = plus_t(good.a);
    expect_error([&] { proof_from_json(proof_to_json(bad), "p.json"); }, errc::not_in_subgroup, {"p.json", "pi_a"});
    bad = good;
    bad.c = plus_t(good.c);
    expect_error([&] { proof_from_json(proof_to_json(bad), "p.json"); }, errc::not_in_subgroup, {"pi_c"});

    const snarkjs_vk vk = vk_from_json(json::parse(snarkjs_vk_json), "vk.json");
    groth16::verifying_key k = vk.to_verifying_key();
    k.ic[1] = plus_t(k.ic[1]);
    expect_error([&] { vk_from_json(vk_to_json(k, vk.alphabeta_12), "vk.json"); }, errc::not_in_subgroup,
                 {"vk.json", "IC[1]"});
    k = vk.to_verifying_key();
    k.alpha_g1 = plus_t(k.alpha_g1);
    expect_error([&] { vk_from_json(vk_to_json(k, vk.alphabeta_12), "vk.json"); }, errc::not_in_subgroup,
                 {"vk_alpha_1"});

    // vk_alphabeta_12 must be e(alpha, beta): a key whose alpha was replaced
    // by another subgroup point, keeping the old product, is refused.
    k = vk.to_verifying_key();
    k.alpha_g1 = k.ic[0];
    expect_error([&] { vk_from_json(vk_to_json(k, vk.alphabeta_12), "vk.json"); }, errc::bad_format,
                 {"vk_alphabeta_12"});
    CHECK_NOTHROW(vk_from_json(vk_to_json(k), "vk.json"));
}
