// Fuzzes the PCE file loader (r1cs::load_pce). The input is loaded as it is
// (the checksums almost always refuse it), then again with both checksums
// recomputed, so that mutations reach the structural checks; a PCE that
// loads is evaluated on a witness of ones, which must stay in bounds.
#include <cstring>
#include <vector>

#include "cuzk/r1cs/pce.hpp"
#include "fuzz_util.hpp"

namespace {

uint64_t get64(const std::vector<uint8_t>& b, size_t off)
{
    uint64_t v;
    std::memcpy(&v, b.data() + off, 8);
    return v;
}
void put64(std::vector<uint8_t>& b, size_t off, uint64_t v) { std::memcpy(b.data() + off, &v, 8); }

// Recomputes the payload checksum (chunk hashes, then their hash) and the
// header checksum, as save_pce writes them (layout in cuzk/r1cs/pce.hpp).
void fix_checksums(std::vector<uint8_t>& b)
{
    const size_t header = 128;
    const uint64_t payload = b.size() - header, chunk = get64(b, 80);
    if (chunk != 0 && chunk % 64 == 0 && chunk <= (uint64_t(1) << 30)) {
        std::vector<uint64_t> hs;
        for (uint64_t off = 0; off < payload; off += chunk)
            hs.push_back(cuzk::r1cs::pce_hash64(b.data() + header + off, size_t(std::min(chunk, payload - off)),
                                                hs.size()));
        put64(b, 88, cuzk::r1cs::pce_hash64(hs.data(), hs.size() * 8, payload));
    }
    put64(b, 96, cuzk::r1cs::pce_hash64(b.data(), 96));
}

void load_and_use(std::span<const uint8_t> bytes)
{
    cuzk::fuzz::memory_file f(bytes);
    cuzk::fuzz::expect_errors([&] {
        const cuzk::r1cs::pce p = cuzk::r1cs::load_pce(f.path(), true, 1);
        if (uint64_t(p.num_inputs) + p.num_aux > (uint64_t(1) << 16) || p.num_constraints > (uint64_t(1) << 16)) return;
        const std::vector<cuzk::fr> inputs(p.num_inputs, cuzk::fr::one()), aux(p.num_aux, cuzk::fr::one());
        std::vector<cuzk::fr> a(p.num_constraints), b(p.num_constraints), c(p.num_constraints);
        cuzk::r1cs::evaluate(p, inputs, aux, a, b, c, 1);
    });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    load_and_use({data, size});
    if (size >= 128) {
        std::vector<uint8_t> fixed(data, data + size);
        fix_checksums(fixed);
        load_and_use(fixed);
    }
    return 0;
}
