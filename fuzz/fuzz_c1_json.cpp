// Fuzzes the C1 output reader (filecoin::read_c1_json). What it accepts is
// written back (serde_json's compact form), and that text reads and writes
// to itself.
#include "cuzk/filecoin/porep/c1_json.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    cuzk::fuzz::expect_errors([&] {
        const cuzk::filecoin::c1_output c1 = cuzk::filecoin::read_c1_json(cuzk::fuzz::as_text(data, size), "fuzz.json");
        std::string once, twice;
        cuzk::filecoin::write_c1_json(c1, once);
        cuzk::filecoin::write_c1_json(cuzk::filecoin::read_c1_json(once, "rewritten.json"), twice);
        cuzk::fuzz::require(once == twice, "c1 json: write/read fixpoint");
    });
    return 0;
}
