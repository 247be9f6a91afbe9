// Poseidon on the GPU (filecoin/common/gpu_poseidon.hpp) against the CPU's
// (filecoin/common/poseidon.hpp, poseidon_tree.hpp), bit for bit.
//
// Two kinds of case:
//  - untagged (CI, no GPU needed): the device code of kernels/
//    poseidon_device.cuh, the same bodies the kernels run, on the host
//    emulation of the device field (ff_device.cuh's carry chains), for every
//    arity with a kernel and for compound trees; and, in a build without
//    CUDA, that every entry point reports errc::unsupported;
//  - [gpu]: the device itself on random preimages at odd batch sizes (1, 7,
//    1000, 2^16 + 3) per arity 2/4/8/11, a whole 8-8-0 tree (and 8-8-2,
//    4-2-0, 2-0-0) level by level, the in-place device tree, and the argument
//    checks. Without a usable device they print "SKIPPED: <reason>".
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "../kernels/poseidon_device.cuh"
#include "cuzk/backend/cuda.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/gpu_poseidon.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/filecoin/common/poseidon_tree.hpp"
#include "gmp_util.hpp"
#include "test_support.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

const unsigned kernel_arities[] = {2, 4, 8, 11};

// Random preimage elements with the edge values 0, 1 and r − 1 mixed in.
std::vector<fr> random_frs(size_t n, std::mt19937_64& rng)
{
    std::vector<fr> v(n);
    for (auto& x : v) {
        switch (rng() % 8) {
        case 0: x = fr::zero(); break;
        case 1: x = fr::one(); break;
        case 2: x = -fr::one(); break;
        default: x = fr::random(rng);
        }
    }
    return v;
}

// ---- host emulation of the device code -----------------------------------------------
struct host_be {
    template <class B>
    void each(size_t n, const B& body, unsigned = 256)
    {
        for (size_t i = 0; i < n; ++i) body(i);
    }
};

// The device constants of one arity, pointing into a host copy (dfr and fr
// are bitwise the same).
dev::poseidon_dconsts host_dconsts(unsigned arity)
{
    const poseidon_constants& p = poseidon_params(arity);
    dev::poseidon_dconsts c;
    c.crc = reinterpret_cast<const dev::dfr*>(p.compressed_round_constants().data());
    c.mds = reinterpret_cast<const dev::dfr*>(p.mds().data());
    c.pre_sparse = reinterpret_cast<const dev::dfr*>(p.pre_sparse().data());
    c.sparse = reinterpret_cast<const dev::dfr*>(p.sparse().data());
    c.partial_rounds = p.partial_rounds();
    c.tag = dev::dfr::from_host(poseidon_tag_merkle(arity));
    return c;
}

std::vector<fr> emulated_hash_many(unsigned arity, const std::vector<fr>& in)
{
    std::vector<fr> out(in.size() / arity);
    host_be be;
    const bool ok = dev::poseidon_hash_run(be, arity, reinterpret_cast<const dev::dfr*>(in.data()),
                                           reinterpret_cast<dev::dfr*>(out.data()), out.size(), host_dconsts(arity));
    REQUIRE(ok);
    return out;
}

// All levels of a compound tree through poseidon_levels_run, compared with
// the CPU tree's levels.
void check_emulated_tree(const tree_shape& s, size_t n, std::mt19937_64& rng)
{
    INFO("shape " << s.name() << ", " << n << " leaves");
    const std::vector<fr> leaves = random_frs(n, rng);
    const poseidon_tree cpu(leaves, s, 1);
    std::vector<unsigned> arities(cpu.base_height(), s.base);
    if (s.sub) arities.push_back(s.sub);
    if (s.top) arities.push_back(s.top);
    std::vector<dev::poseidon_dconsts> consts;
    size_t total = n, len = n;
    for (unsigned a : arities) {
        consts.push_back(host_dconsts(a));
        len /= a;
        total += len;
    }
    std::vector<fr> nodes(leaves);
    nodes.resize(total);
    host_be be;
    REQUIRE(dev::poseidon_levels_run(be, arities.data(), consts.data(), unsigned(arities.size()),
                                     reinterpret_cast<dev::dfr*>(nodes.data()), n));
    size_t off = 0;
    for (unsigned k = 0; k <= cpu.base_height(); ++k) {
        const auto lvl = cpu.base_level(k);
        CHECK(std::equal(lvl.begin(), lvl.end(), nodes.begin() + off));
        off += lvl.size();
    }
    CHECK(std::equal(cpu.sub_level().begin(), cpu.sub_level().end(), nodes.begin() + off));
    CHECK(nodes.back() == cpu.root_fr());
}

// ---- device helpers ------------------------------------------------------------------------
void check_gpu_tree(const tree_shape& s, size_t n, std::mt19937_64& rng)
{
    INFO("shape " << s.name() << ", " << n << " leaves");
    const std::vector<fr> leaves = random_frs(n, rng);
    const poseidon_tree cpu(leaves, s, 0);
    const gpu_poseidon_tree_levels gpu = gpu_poseidon_tree(leaves, s);
    REQUIRE(gpu.base.size() == cpu.base_height());
    for (unsigned k = 1; k <= cpu.base_height(); ++k) {
        const auto lvl = cpu.base_level(k);
        CHECK(std::vector<fr>(lvl.begin(), lvl.end()) == gpu.base[k - 1]);
    }
    CHECK(std::vector<fr>(cpu.sub_level().begin(), cpu.sub_level().end()) == gpu.sub);
    CHECK(gpu.root == cpu.root_fr());
}

} // namespace

TEST_CASE("device Poseidon code on the host emulation equals the CPU hash", "[filecoin][poseidon]")
{
    std::mt19937_64 rng(test::test_seed() + 41);
    for (unsigned arity : kernel_arities) {
        INFO("arity " << arity);
        const size_t n = 13;
        const std::vector<fr> in = random_frs(n * arity, rng);
        std::vector<fr> want(n);
        poseidon_hash_many(arity, in, want, 1, poseidon_mode::plain);   // the other form: independent
        CHECK(emulated_hash_many(arity, in) == want);
    }
    // An arity without a kernel is refused, not hashed with wrong constants.
    host_be be;
    CHECK_FALSE(dev::poseidon_hash_run(be, 16, nullptr, nullptr, 0, host_dconsts(16)));
}

TEST_CASE("device Poseidon tree levels on the host emulation equal the CPU tree", "[filecoin][poseidon]")
{
    std::mt19937_64 rng(test::test_seed() + 42);
    check_emulated_tree({8, 8, 0}, 8 * 64, rng);
    check_emulated_tree({8, 8, 2}, 16 * 8, rng);
    check_emulated_tree({4, 2, 0}, 2 * 16, rng);
    check_emulated_tree({2, 0, 0}, 32, rng);
}

TEST_CASE("GPU Poseidon without CUDA reports unsupported", "[filecoin][poseidon]")
{
    std::string why;
    if (cuda_available(&why) || why.find("built without CUDA") == std::string::npos) return;
    std::vector<fr> in(2), out(1);
    const auto unsupported = [](const error& e) { return e.code() == errc::unsupported; };
    CHECK_THROWS_MATCHES(gpu_poseidon_hash_many(2, in, out), error, Catch::Predicate<error>(unsupported));
    CHECK_THROWS_MATCHES(gpu_poseidon_tree_level(2, in, out), error, Catch::Predicate<error>(unsupported));
    CHECK_THROWS_MATCHES(gpu_poseidon_tree(in, {2, 0, 0}), error, Catch::Predicate<error>(unsupported));
    CHECK_THROWS_MATCHES(gpu_poseidon_tree_device(2, nullptr, 2, 1), error, Catch::Predicate<error>(unsupported));
}

TEST_CASE("GPU Poseidon hashes equal the CPU for every arity and odd sizes", "[gpu][filecoin][poseidon]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 43);
    for (unsigned arity : kernel_arities) {
        for (size_t n : {size_t{1}, size_t{7}, size_t{1000}, (size_t{1} << 16) + 3}) {
            INFO("arity " << arity << ", " << n << " hashes");
            const std::vector<fr> in = random_frs(n * arity, rng);
            std::vector<fr> want(n), got(n);
            poseidon_hash_many(arity, in, want, 0);
            gpu_poseidon_hash_many(arity, in, got);
            CHECK(got == want);
        }
    }
}

TEST_CASE("GPU Poseidon trees equal the CPU tree level by level", "[gpu][filecoin][poseidon]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 44);
    check_gpu_tree({8, 8, 0}, 8 * 4096, rng);
    check_gpu_tree({8, 8, 2}, 16 * 512, rng);
    check_gpu_tree({4, 2, 0}, 2 * 1024, rng);
    check_gpu_tree({2, 0, 0}, 1024, rng);
    check_gpu_tree({8, 0, 0}, 8, rng);
}

TEST_CASE("GPU Poseidon tree levels in device memory and single levels", "[gpu][filecoin][poseidon]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 45);
    for (unsigned arity : {2u, 4u, 8u}) {
        INFO("arity " << arity);
        const unsigned levels = 3;
        const size_t n = size_t(arity) * arity * arity * 5;   // the top level keeps 5 nodes
        const std::vector<fr> leaves = random_frs(n, rng);
        std::vector<fr> want = leaves;
        for (size_t len = n, off = 0, k = 0; k < levels; ++k, off += len, len /= arity) {
            std::vector<fr> parents(len / arity);
            gpu_poseidon_tree_level(arity, std::span<const fr>(want).subspan(off, len), parents);
            std::vector<fr> cpu(len / arity);
            poseidon_hash_many(arity, std::span<const fr>(want).subspan(off, len), cpu, 1);
            CHECK(parents == cpu);
            want.insert(want.end(), cpu.begin(), cpu.end());
        }
        gpu_buffer buf(want.size() * sizeof(fr));
        buf.upload(std::span<const fr>(leaves));
        gpu_poseidon_tree_device(arity, buf.as<fr>(), n, levels);
        std::vector<fr> got(want.size());
        buf.download(std::span<fr>(got));
        CHECK(got == want);
    }
}

TEST_CASE("GPU Poseidon argument checks", "[gpu][filecoin][poseidon]")
{
    GPU_OR_SKIP();
    std::vector<fr> in(6), out(2);
    const auto code_is = [](errc c) {
        return Catch::Predicate<error>([c](const error& e) { return e.code() == c; });
    };
    CHECK_THROWS_MATCHES(gpu_poseidon_hash_many(3, in, out), error, code_is(errc::invalid_argument));
    CHECK_THROWS_MATCHES(gpu_poseidon_hash_many(2, in, out), error, code_is(errc::bad_length));
    CHECK_THROWS_MATCHES(gpu_poseidon_tree_level(11, std::span<const fr>(in).first(0), std::span<fr>(out).first(0)),
                         error, code_is(errc::invalid_argument));
    CHECK_THROWS_MATCHES(gpu_poseidon_tree(in, {8, 0, 0}), error, code_is(errc::invalid_argument));
    CHECK_THROWS_MATCHES(gpu_poseidon_tree_device(2, nullptr, 6, 2), error, code_is(errc::invalid_argument));
    std::vector<fr> none;
    gpu_poseidon_hash_many(2, none, none);   // an empty batch is fine
}
