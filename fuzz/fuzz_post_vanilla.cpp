// Fuzzes the PoSt vanilla proof reader (filecoin::post_vanilla_from_bincode).
// The first byte picks the proof type (its tree shape decides the bytes'
// layout): 2 KiB WindowPoSt (a Single path), 32 GiB (Sub), 64 GiB (Top), 2 KiB
// WinningPoSt. What the reader accepts is written back byte for byte.
#include "cuzk/filecoin/post/bincode.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0) return 0;
    static const int ids[4] = {10, 13, 14, 0};
    const cuzk::filecoin::post_config c = cuzk::filecoin::registered_post_proof(ids[data[0] % 4]);
    const std::span<const uint8_t> bytes(data + 1, size - 1);
    cuzk::fuzz::expect_errors([&] {
        const cuzk::filecoin::post_sector_proof p = cuzk::filecoin::post_vanilla_from_bincode(bytes, c, "fuzz.vanilla");
        const std::vector<uint8_t> back = cuzk::filecoin::post_vanilla_to_bincode(p, c);
        cuzk::fuzz::require(std::equal(back.begin(), back.end(), bytes.begin(), bytes.end()),
                            "post vanilla: write(read(x)) == x");
    });
    return 0;
}
