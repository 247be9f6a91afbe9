// Writes the inputs of test_capi_post.c (run by ctest as the fixture
// capi_post_fixture before it): vanilla PoSt proofs, in Filecoin's bincode
// bytes, of made-up 2 KiB sectors for the randomness 0x05 × 31 ‖ 0x00:
// <prefix>-window-<i>.vanilla for sectors 1 and 2 under
// StackedDrgWindow2KiBV1_2 (10), and <prefix>-winning.vanilla for sector 1
// under StackedDrgWinning2KiBV1 (0).
//
// Usage: test_capi_post_fixture <prefix>
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>

#include "cuzk/filecoin/post/bincode.hpp"
#include "cuzk/filecoin/post/post.hpp"

using namespace cuzk::filecoin;

namespace {

void write(const std::string& path, const std::vector<uint8_t>& bytes)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (!f) throw std::runtime_error(path + ": write failed");
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <prefix>\n", argv[0]);
        return 2;
    }
    try {
        const std::string prefix = argv[1];
        domain randomness;
        randomness.fill(5);
        randomness[31] = 0;
        const post_config window = registered_post_proof(10), winning = registered_post_proof(0);
        const auto w = post_synthetic_vanilla(window, randomness, 2, 11, 1, 1);
        for (size_t i = 0; i < w.size(); ++i)
            write(prefix + "-window-" + std::to_string(i) + ".vanilla", post_vanilla_to_bincode(w[i], window));
        write(prefix + "-winning.vanilla",
              post_vanilla_to_bincode(post_synthetic_vanilla(winning, randomness, 1, 12, 1, 1)[0], winning));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
