// Fuzzes the SnapDeals vanilla partition proof reader
// (filecoin::update_partition_from_bincode). The first byte picks the config
// (its tree shape and counts decide the bytes' layout): 2 KiB (tree R
// Single), 16 KiB 8-8-0 (Sub), 32 KiB 8-8-2 (Top), 8 MiB (Single, 18-level
// tree D). What the reader accepts is written back byte for byte.
#include "cuzk/filecoin/update/bincode.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace cuzk::filecoin;
    if (size == 0) return 0;
    static const update_config configs[4] = {registered_update_proof(0), update_config::for_nodes(1u << 9, {8, 8, 0}),
                                              update_config::for_nodes(1u << 10, {8, 8, 2}),
                                              registered_update_proof(1)};
    const update_config& c = configs[data[0] % 4];
    const std::span<const uint8_t> bytes(data + 1, size - 1);
    cuzk::fuzz::expect_errors([&] {
        const update_partition_proof p = update_partition_from_bincode(bytes, c, "fuzz.partition");
        const std::vector<uint8_t> back = update_partition_to_bincode(p, c);
        cuzk::fuzz::require(std::equal(back.begin(), back.end(), bytes.begin(), bytes.end()),
                            "update vanilla: write(read(x)) == x");
    });
    return 0;
}
