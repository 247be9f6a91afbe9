// Filecoin's parameter digests: the first 16 bytes of BLAKE2b-512 of a file,
// checked against a parameters.json entry.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/parameters.hpp"
#include "gmp_util.hpp"

using namespace cuzk;

namespace {

std::string write_file(const std::string& name, const std::string& content)
{
    const auto p = std::filesystem::temp_directory_path() / (std::to_string(test::test_seed()) + "-" + name);
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
}

} // namespace

TEST_CASE("params digest: BLAKE2b-512 prefix, and a parameters.json entry checked", "[filecoin][params]")
{
    // RFC 7693: BLAKE2b-512("abc") begins ba80a53f981c4d0d6a2797b69f12f6e9.
    const std::string f = write_file("v28-test.params", "abc");
    CHECK(filecoin::params_file_digest(f) == "ba80a53f981c4d0d6a2797b69f12f6e9");
    const std::string name = std::filesystem::path(f).filename().string();
    const std::string good = write_file("good.json", "{\"" + name + "\": {\"cid\": \"Qm\", \"digest\": "
                                                     "\"ba80a53f981c4d0d6a2797b69f12f6e9\", \"sector_size\": 2048}}");
    CHECK_NOTHROW(filecoin::check_params_digest(f, good));
    const std::string bad = write_file("bad.json", "{\"" + name + "\": {\"digest\": \"00\"}}");
    CHECK_THROWS_AS(filecoin::check_params_digest(f, bad), error);
    const std::string none = write_file("none.json", "{\"other.params\": {\"digest\": \"00\"}}");
    CHECK_THROWS_WITH(filecoin::check_params_digest(f, none), Catch::Contains("no entry"));
    for (const auto& p : {f, good, bad, none}) std::filesystem::remove(p);
}
