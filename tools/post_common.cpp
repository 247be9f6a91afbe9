// Shared pieces of the `cuzk post` subcommands: the proof type argument and
// the printing of per-sector results.
#include <cctype>
#include <cstdio>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "post_commands.hpp"

namespace cuzk::cli::post {

using io::json;
namespace fc = filecoin;

fc::post_config parse_post_proof(const options& o)
{
    const std::string& v = o.get("--proof");
    bool digits = !v.empty();
    for (char ch : v) digits = digits && std::isdigit(static_cast<unsigned char>(ch));
    if (digits) return fc::registered_post_proof(int(parse_u64("--proof", v, 0, 14)));
    try {
        return fc::registered_post_proof(std::string_view(v));
    } catch (const error& e) {
        throw usage_error(fmt::format("--proof: {}", e.what()));
    }
}

unsigned parse_partition(const options& o, const fc::post_config& c)
{
    const unsigned k = unsigned(o.get_u64_or("--partition", 0, uint64_t(1) << 20, 0));
    if (k != 0 && c.type == fc::post_type::winning)
        throw usage_error(fmt::format("--partition: {} has only partition 0", c.name));
    return k;
}

json u64_array(const std::vector<uint64_t>& v)
{
    json a = json::array();
    for (uint64_t x : v) a.push_back(json::number(x));
    return a;
}

void print_with_sectors(json top, const json& sectors, bool as_json)
{
    if (as_json) {
        top.set("sectors", sectors);
        porep::print_result(top, true);
        return;
    }
    porep::print_result(top, false);
    for (const json& s : sectors.as_array()) {
        std::string line;
        for (const auto& [k, v] : s.as_object())
            line += k == "sector_id" ? fmt::format("sector {}:", porep::plain_text(v))
                                     : fmt::format(" {} {}", k, porep::plain_text(v));
        std::printf("%s\n", line.c_str());
    }
}

} // namespace cuzk::cli::post
