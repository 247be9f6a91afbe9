// The PoRep circuit's PCE kept in a cache directory (filecoin/porep/pce_cache.hpp):
// written on the first use, mapped on the next and equal to a fresh
// recording; a damaged file replaced; a directory that cannot be written
// leaves the circuit recorded; shapes named apart. On the smallest shape
// (8 nodes, 2 layers, one challenge).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "cuzk/filecoin/porep/pce_cache.hpp"
#include "cuzk/filecoin/porep/prove.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
namespace fs = std::filesystem;

namespace {

seal_config tiny(uint64_t porep = 5) { return seal_config::custom(8, 2, 1, {8, 0, 0}, porep_id_of(porep)); }

// A fresh directory under the temporary folder, removed with the object.
struct scratch_dir {
    fs::path p;
    explicit scratch_dir(const char* tag)
        : p(fs::temp_directory_path() / (std::string("cuzk-test-pce-cache-") + tag + "-" +
                                          std::to_string(::getpid())))
    {
        fs::remove_all(p);
    }
    ~scratch_dir()
    {
        std::error_code ec;
        fs::remove_all(p, ec);
    }
};

template <class T>
bool same(std::span<const T> a, std::span<const T> b)
{
    return std::ranges::equal(a, b);
}

bool same_pce(const r1cs::pce& x, const r1cs::pce& y)
{
    auto m = [](const r1cs::csr_matrix& a, const r1cs::csr_matrix& b) {
        return same(a.row_ptr, b.row_ptr) && same(a.col, b.col) && same(a.coef, b.coef);
    };
    auto d = [](const r1cs::density_bitmap& a, const r1cs::density_bitmap& b) {
        return a.bit_len == b.bit_len && a.popcount == b.popcount && same(a.words, b.words);
    };
    return x.num_inputs == y.num_inputs && x.num_aux == y.num_aux && x.num_constraints == y.num_constraints &&
           m(x.a, y.a) && m(x.b, y.b) && m(x.c, y.c) && same(x.coeffs, y.coeffs) &&
           d(x.a_aux_density, y.a_aux_density) && d(x.b_input_density, y.b_input_density) &&
           d(x.b_aux_density, y.b_aux_density);
}

} // namespace

TEST_CASE("porep_pce: written on first use, mapped on the next, equal to a fresh recording", "[filecoin][pce]")
{
    scratch_dir dir("reuse");
    const seal_config c = tiny();
    porep_pce_source s1, s2;
    const auto recorded = porep_pce(c, dir.p.string(), &s1, 2);
    CHECK_FALSE(s1.loaded);
    CHECK(s1.saved);
    CHECK(s1.note.empty());
    CHECK(s1.path == (dir.p / porep_pce_file_name(c)).string());
    REQUIRE(fs::exists(s1.path));
    // Only the file itself is left in the directory (no temporary).
    CHECK(std::distance(fs::directory_iterator(dir.p), fs::directory_iterator()) == 1);

    const auto mapped = porep_pce(c, dir.p.string(), &s2, 2);
    CHECK(s2.loaded);
    CHECK_FALSE(s2.saved);
    CHECK(s2.note.empty());
    CHECK(same_pce(*mapped, *record_porep_pce(c)));
    CHECK(same_pce(*mapped, *recorded));

    // No cache directory: recorded, nothing written, no path.
    porep_pce_source s3;
    CHECK(same_pce(*porep_pce(c, "", &s3), *recorded));
    CHECK_FALSE(s3.loaded);
    CHECK_FALSE(s3.saved);
    CHECK(s3.path.empty());
}

TEST_CASE("porep_pce: a damaged cache file is recorded over and replaced", "[filecoin][pce]")
{
    scratch_dir dir("damaged");
    const seal_config c = tiny();
    porep_pce_source s;
    const auto first = porep_pce(c, dir.p.string(), &s, 2);
    REQUIRE(s.saved);
    {   // flip one payload byte
        std::fstream f(s.path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(4096);
        char b = 0;
        f.read(&b, 1);
        b = char(b ^ 0x5a);
        f.seekp(4096);
        f.write(&b, 1);
    }
    porep_pce_source bad;
    CHECK(same_pce(*porep_pce(c, dir.p.string(), &bad, 2), *first));
    CHECK_FALSE(bad.loaded);
    CHECK(bad.saved);
    CHECK_THAT(bad.note, Catch::Contains(s.path) && Catch::Contains("did not load"));
    porep_pce_source again;
    CHECK(same_pce(*porep_pce(c, dir.p.string(), &again, 2), *first));
    CHECK(again.loaded);
}

TEST_CASE("porep_pce: a cache directory that cannot be made leaves the circuit recorded", "[filecoin][pce]")
{
    scratch_dir dir("unwritable");
    fs::create_directories(dir.p);
    const fs::path file = dir.p / "a-file";
    std::ofstream(file) << "not a directory";
    porep_pce_source s;
    const auto p = porep_pce(tiny(), (file / "cache").string(), &s, 2);
    CHECK(p->num_constraints > 0);
    CHECK_FALSE(s.loaded);
    CHECK_FALSE(s.saved);
    CHECK_THAT(s.note, Catch::Contains("not written"));
}

TEST_CASE("porep_pce_file_name: one name per circuit shape", "[filecoin][pce]")
{
    const seal_config c = tiny();
    CHECK(porep_pce_file_name(c) == porep_pce_file_name(tiny()));
    CHECK_THAT(porep_pce_file_name(c), Catch::StartsWith("porep-custom-") && Catch::EndsWith(".pce"));
    CHECK(porep_pce_file_name(c) != porep_pce_file_name(tiny(6)));   // porep id
    seal_config other = c;
    other.layers = 11;
    CHECK(porep_pce_file_name(c) != porep_pce_file_name(other));
    other = c;
    other.challenges_per_partition = 2;
    CHECK(porep_pce_file_name(c) != porep_pce_file_name(other));
    other = c;
    other.api = api_version::v1_2;
    CHECK(porep_pce_file_name(c) != porep_pce_file_name(other));
    const seal_config r = registered_seal_proof(8);   // StackedDrg32GiBV1_1
    CHECK_THAT(porep_pce_file_name(r), Catch::StartsWith("porep-" + r.name + "-"));
    CHECK(porep_pce_file_name(r) != porep_pce_file_name(registered_seal_proof(3)));
}
