// Writes the inputs of test_capi_update.c (run by ctest as the fixture
// capi_update_fixture before it): a made-up 2 KiB SnapDeals update
// (StackedDrg2KiBV1, h = 1): <prefix>-update-0.vanilla, its one partition
// proof in Filecoin's bincode bytes, and <prefix>-update.public, the 96
// bytes comm_r_old ‖ comm_d_new ‖ comm_r_new.
//
// Usage: test_capi_update_fixture <prefix>
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>

#include "cuzk/filecoin/update/bincode.hpp"
#include "cuzk/filecoin/update/update.hpp"

using namespace cuzk::filecoin;

namespace {

void write(const std::string& path, const uint8_t* bytes, size_t n)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes), std::streamsize(n));
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
        const update_config c = registered_update_proof(0);
        const update_vanilla u = update_synthetic_vanilla(c, 1, 13, 1);
        const std::vector<uint8_t> v = update_partition_to_bincode(u.partitions[0], c);
        write(prefix + "-update-0.vanilla", v.data(), v.size());
        uint8_t pub[96];
        std::copy(u.pub.comm_r_old.begin(), u.pub.comm_r_old.end(), pub);
        std::copy(u.pub.comm_d_new.begin(), u.pub.comm_d_new.end(), pub + 32);
        std::copy(u.pub.comm_r_new.begin(), u.pub.comm_r_new.end(), pub + 64);
        write(prefix + "-update.public", pub, sizeof pub);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
