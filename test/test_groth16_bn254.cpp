// Groth16 verification and the snarkjs JSON files on BN254 (bn128): proofs
// built from known discrete logs (every point k·G for a scalar k the test
// chose, so that the verification equation holds or fails by construction);
// single and batch verification; JSON round trips and the curve checks of
// the readers; a snarkjs-made bn128 key, proof and signals (known answer).
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using C = bn254_curve;
using bfr = bn254::fr;

namespace {

bn254::g1_affine g1(const bfr& k) { return scalar_mul(bn254::g1_affine::generator(), k.to_repr()).to_affine(); }
bn254::g2_affine g2(const bfr& k) { return scalar_mul(bn254::g2_affine::generator(), k.to_repr()).to_affine(); }

// A key with n public inputs from secret scalars, and a proof for inputs x:
// e(A, B) = e(α, β)·e(acc, γ)·e(C, δ) in the exponent is
// a·b = α·β + (ic₀ + Σ xᵢ·icᵢ)·γ + c·δ, solved for c.
struct toy {
    bfr alpha, beta, gamma, delta;
    std::vector<bfr> ic;
    groth16::verifying_key_t<C> vk;

    toy(size_t n, std::mt19937_64& rng)
        : alpha(bfr::random(rng)), beta(bfr::random(rng)), gamma(bfr::random(rng)), delta(bfr::random(rng))
    {
        for (size_t i = 0; i <= n; ++i) ic.push_back(bfr::random(rng));
        vk.alpha_g1 = g1(alpha);
        vk.beta_g1 = g1(beta);
        vk.beta_g2 = g2(beta);
        vk.gamma_g2 = g2(gamma);
        vk.delta_g1 = g1(delta);
        vk.delta_g2 = g2(delta);
        for (const bfr& k : ic) vk.ic.push_back(g1(k));
    }

    groth16::proof_t<C> prove(const std::vector<bfr>& x, std::mt19937_64& rng) const
    {
        const bfr a = bfr::random(rng), b = bfr::random(rng);
        bfr acc = ic[0];
        for (size_t i = 0; i < x.size(); ++i) acc += x[i] * ic[i + 1];
        const bfr c = (a * b - alpha * beta - acc * gamma) * delta.inverse();
        return {g1(a), g2(b), g1(c)};
    }
};

std::vector<bfr> random_inputs(size_t n, std::mt19937_64& rng)
{
    std::vector<bfr> x(n);
    for (bfr& v : x) v = bfr::random(rng);
    return x;
}

std::string tmp_path(const char* name)
{
    return (std::filesystem::temp_directory_path() / (std::string("cuzk-bn254-") + std::to_string(test::test_seed()) +
                                                      "-" + name)).string();
}

} // namespace

TEST_CASE("BN254 Groth16: valid proofs verify, a changed input or point does not", "[groth16][bn254]")
{
    std::mt19937_64 rng(test::test_seed() + 254);
    const toy t(3, rng);
    const auto pvk = groth16::prepare_verifying_key(t.vk);
    const std::vector<bfr> x = random_inputs(3, rng);
    const groth16::proof_t<C> pr = t.prove(x, rng);
    CHECK(groth16::verify<C>(pvk, pr, x));

    std::vector<bfr> other = x;
    other[1] += bfr::one();
    CHECK_FALSE(groth16::verify<C>(pvk, pr, other));
    groth16::proof_t<C> bad = pr;
    bad.c = (bad.c.to_jacobian().add(bn254::g1_affine::generator().to_jacobian())).to_affine();
    CHECK_FALSE(groth16::verify<C>(pvk, bad, x));
    bad = pr;
    std::swap(bad.a, bad.c);
    CHECK_FALSE(groth16::verify<C>(pvk, bad, x));
    CHECK_THROWS_AS(groth16::verify<C>(pvk, pr, std::vector<bfr>(2)), error);
}

TEST_CASE("BN254 Groth16: batch verification accepts valid proofs and catches one bad one", "[groth16][bn254]")
{
    std::mt19937_64 rng(test::test_seed() + 255);
    const toy t(2, rng);
    const auto pvk = groth16::prepare_verifying_key(t.vk);
    std::vector<groth16::proof_t<C>> proofs;
    std::vector<std::vector<bfr>> inputs;
    for (int i = 0; i < 4; ++i) {
        inputs.push_back(random_inputs(2, rng));
        proofs.push_back(t.prove(inputs.back(), rng));
    }
    CHECK(groth16::verify_batch<C>(pvk, proofs, inputs));
    inputs[2][0] += bfr::one();
    CHECK_FALSE(groth16::verify_batch<C>(pvk, proofs, inputs));
}

TEST_CASE("BN254 snarkjs JSON: proof, public signals and key round trip; curves are checked", "[json][bn254]")
{
    std::mt19937_64 rng(test::test_seed() + 256);
    const toy t(2, rng);
    const std::vector<bfr> x = random_inputs(2, rng);
    const groth16::proof_t<C> pr = t.prove(x, rng);
    const std::string pp = tmp_path("proof.json"), pubp = tmp_path("public.json"), vkp = tmp_path("vk.json");
    io::write_proof_json(pp, pr);
    io::write_public_json(pubp, x);
    io::write_vk_json(vkp, t.vk);

    const io::json pj = io::json::parse(io::read_text_file(pp), pp);
    CHECK(io::json_curve(pj, pp) == curve_id::bn254);
    CHECK(pj.find("curve")->as_string() == "bn128");
    const groth16::proof_t<C> back = io::read_proof_json<C>(pp);
    CHECK(back.a == pr.a);
    CHECK(back.b == pr.b);
    CHECK(back.c == pr.c);
    const std::vector<bfr> xb = io::read_public_json<C>(pubp);
    CHECK(xb == x);
    const io::snarkjs_vk_t<C> svk = io::read_vk_json<C>(vkp);
    CHECK(svk.n_public() == 2);
    CHECK(svk.alphabeta_12 == pairing<C>(t.vk.alpha_g1, t.vk.beta_g2));
    CHECK(groth16::verify<C>(groth16::prepare_verifying_key(svk.to_verifying_key()), back, xb));

    // The other curve's reader refuses, naming both curves.
    REQUIRE_THROWS_WITH(io::read_vk_json<bls12_381_curve>(vkp), Catch::Contains("bn254") && Catch::Contains("bls12-381"));
    REQUIRE_THROWS_WITH(io::read_proof_json<bls12_381_curve>(pp), Catch::Contains("the file is for bn254"));
    const io::json unknown = io::json::parse(R"({"curve": "secp256k1"})", "x.json");
    REQUIRE_THROWS_WITH(io::json_curve(unknown, "x.json"), Catch::Contains("curve not supported"));
    // A BN254 coordinate must be below BN254's p.
    const io::json big = io::json::parse(
        R"({"pi_a": ["21888242871839275222246405745257275088696311157297823662689037894645226208583", "2", "1"],
            "pi_b": [["0","0"],["1","0"],["0","0"]], "pi_c": ["1", "2", "1"], "protocol": "groth16"})",
        "big.json");
    REQUIRE_THROWS_WITH(io::proof_from_json<C>(big, "big.json"), Catch::Contains("pi_a[0]"));
    for (const auto& f : {pp, pubp, vkp}) std::filesystem::remove(f);
}

// Made by snarkjs 0.7.6 (groth16 setup over a bn128 powers-of-tau of power 6,
// then groth16 prove) for the interop test's mul20 circuit compiled by circom2
// with --prime bn128: the verification key, a proof and its public signals.
const char* const snarkjs_bn128_vk =
    R"({"protocol":"groth16","curve":"bn128","nPublic":2,"vk_alpha_1":["146370543789002406588909783012167598300523488)"
    R"(78754840470780381689951226947017","161502869162192538591196373164285882970093458176545584015965249227773808188)"
    R"(72","1"],"vk_beta_2":[["10198816034320281098967203195107526992368504508668880196841902816609286143846","204608)"
    R"(96360194365911368161232352666203195889008955892350723078177010419725441"],["5838036696612807464760171516474330)"
    R"(604013302336860689410943224860293852071915","14684733405392414001653885935886173338981588520717991914392546396)"
    R"(637915904499"],["1","0"]],"vk_gamma_2":[["10857046999023057135944570762232829481370756359578518086990519993285)"
    R"(655852781","11559732032986387107991004021392285783925812861821192530917403151452391805634"],["8495653923123431)"
    R"(417604973247489272438418190587263600148770280649306958101930","40823678758634336813322034031454355683168513275)"
    R"(93401208105741076214120093531"],["1","0"]],"vk_delta_2":[["108570469990230571359445707622328294813707563595785)"
    R"(18086990519993285655852781","11559732032986387107991004021392285783925812861821192530917403151452391805634"],[)"
    R"("8495653923123431417604973247489272438418190587263600148770280649306958101930","408236787586343368133220340314)"
    R"(5435568316851327593401208105741076214120093531"],["1","0"]],"vk_alphabeta_12":[[["1339181232990943168620308546)"
    R"(4476143043844715967512364031020133059570591585491","1418364329477993905878145001035457516812784601721413573919)"
    R"(3242316727292861185"],["1133865446184275698476706715028801137806741264067024608401111286609050726270","1605016)"
    R"(3646674510296654518285977019491233122850346875647118825327593954779987"],["12434498336080562567231577039941508)"
    R"(543879227969658729984780599533339181228120","16507656729513645039943450776312916061676812074356853892729160070)"
    R"(084499733489"]],[["8845092080761607354747433124110998621217977510005926595856077265640815050275","729183598743)"
    R"(5219002723780347081056186904416700524988397749133898997298024880"],["69193902081112852372591645809054840766601)"
    R"(5810007901314063778994861534836417","7370976138632375243223159816240075603522897063838889642163682567307846463)"
    R"(254"],["10100144130693446909933655008077170249075529487699853096214075557556040287327","4288499305198358440390)"
    R"(29917234761909167718592900369887740015323536063778042"]]],"IC":[["78935399431645247503168053348447916419659521)"
    R"(00968570667385172215458321191275","214225420299542247449949631210188059909792452053899956543400396288058807294)"
    R"(80","1"],["3624486471295611031937471600559230776705703373605356847496290552275375108892","11186323814600703239)"
    R"(332669150860314591019135530505382132140793495745994074590","1"],["61336256275606851819037294827208995961944197)"
    R"(96827996549993802793512310287535","976837872756336203796291120478118237681858934003961322570386093658783102380)"
    R"(1","1"]]})";
const char* const snarkjs_bn128_proof =
    R"({"pi_a":["17298506583707572002622101511633633308625591674983153774909360894907212090296","79294531078573528973)"
    R"(89846084982501524586741236442440842847329376590097400782","1"],"pi_b":[["5388813525387826699349264238518822210)"
    R"(761554940862682072345122564231119227150","38001649872292556977488918505937679618504512294498955615492227280840)"
    R"(47739934"],["13503661861535898672673735343664331047894417878196396910244423292491068800741","69976267529562453)"
    R"(16397376739594249284125798489983908506881637202988063550159"],["1","0"]],"pi_c":["1309777095454724847875114816)"
    R"(4867648045558380133347359812577592159794489503021","4238266785750390363997600038625715049751476495979681989673)"
    R"(579959359108943601","1"],"protocol":"groth16","curve":"bn128"})";
const char* const snarkjs_bn128_public = R"(["2024977484747005627693","3"])";

TEST_CASE("BN254: a snarkjs-made key, proof and signals read and verify; tampered signals do not", "[json][bn254]")
{
    const io::snarkjs_vk_t<C> svk = io::vk_from_json<C>(io::json::parse(snarkjs_bn128_vk, "vk.json"), "vk.json");
    CHECK(svk.n_public() == 2);   // vk_alphabeta_12 was checked against cuzk's e(α₁, β₂) on read
    const groth16::proof_t<C> pr = io::proof_from_json<C>(io::json::parse(snarkjs_bn128_proof, "proof.json"), "proof.json");
    std::vector<bfr> pub = io::public_from_json<C>(io::json::parse(snarkjs_bn128_public, "public.json"), "public.json");
    const auto pvk = groth16::prepare_verifying_key(svk.to_verifying_key());
    CHECK(groth16::verify<C>(pvk, pr, pub));
    pub[1] += bfr::one();
    CHECK_FALSE(groth16::verify<C>(pvk, pr, pub));
}
