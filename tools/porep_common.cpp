#include "porep_common.hpp"

#include "cli_util.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <fmt/format.h>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/fr32.hpp"
#include "cuzk/io/mapped_file.hpp"

namespace cuzk::cli::porep {

// --backend auto|cpu|cuda: auto is the GPU when one is usable.
bool use_gpu(const options& o)
{
    const std::string b = o.get_or("--backend", "auto");
    std::string why;
    const bool have = cuda_available(&why);
    if (b == "cpu") return false;
    if (b == "cuda") {
        if (!have) throw error(errc::unsupported, fmt::format("--backend cuda: no usable GPU: {}", why));
        return true;
    }
    if (b != "auto") throw usage_error(fmt::format("--backend: expected auto, cpu or cuda, got '{}'", b));
    return have;
}


porep_id_arg parse_porep_id(const options& o)
{
    porep_id_arg r;
    const std::string& v = o.get("--porep-id");
    if (v.size() == 64) {
        r.id = filecoin::parse_hex32(v, "--porep-id");
    } else {
        r.registered = int(parse_u64("--porep-id", v, 0, 19));
        r.id = filecoin::porep_id_of(uint64_t(r.registered));
        r.api = filecoin::registered_seal_proof(r.registered).api;
    }
    if (o.has("--api")) {
        const std::string& a = o.get("--api");
        if (a == "1.0") r.api = filecoin::api_version::v1_0;
        else if (a == "1.1") r.api = filecoin::api_version::v1_1;
        else if (a == "1.2") r.api = filecoin::api_version::v1_2;
        else throw usage_error(fmt::format("--api: expected 1.0, 1.1 or 1.2, got '{}'", a));
    }
    return r;
}

filecoin::domain hex32(const options& o, const std::string& flag)
{
    try {
        return filecoin::parse_hex32(o.get(flag), flag);
    } catch (const cuzk::error& e) {
        throw usage_error(e.what());
    }
}

std::string plain_text(const io::json& v)
{
    if (v.is_string()) return v.as_string();
    if (v.is_number()) return v.number_text();
    if (!v.is_array()) return v.dump();
    std::string s;
    for (const auto& x : v.as_array()) s += (s.empty() ? "" : " ") + plain_text(x);
    return s;
}

void print_result(const io::json& j, bool json)
{
    if (json) {
        std::printf("%s\n", j.dump().c_str());
        return;
    }
    for (const auto& [k, v] : j.as_object()) std::printf("%s: %s\n", k.c_str(), plain_text(v).c_str());
}

io::json hex_json(const filecoin::domain& d) { return io::json::string(filecoin::to_hex(d)); }

std::vector<uint8_t> sector_data(const options& o, uint64_t sector_bytes)
{
    if (o.has("--data") && o.has("--zero")) throw usage_error("give at most one of --data and --zero");
    const size_t capacity = filecoin::fr32_unpadded_size(sector_bytes);
    std::vector<uint8_t> raw(capacity, 0);
    if (o.has("--data")) {
        const io::mapped_file f(o.get("--data"));
        if (f.size() > capacity)
            throw error(errc::bad_length, fmt::format("{}: {} bytes, the sector holds at most {} unpadded bytes",
                                                      f.path(), f.size(), capacity));
        std::copy(f.data(), f.data() + f.size(), raw.begin());
    }
    std::vector<uint8_t> padded(sector_bytes);
    filecoin::fr32_pad(raw, padded);
    return padded;
}

int print_circuit_size(const options& o, const r1cs::circuit& circuit, io::json::object_t head)
{
    const auto t0 = std::chrono::steady_clock::now();
    r1cs::counting_cs cs;
    circuit.synthesize(cs);
    head.emplace_back("constraints", io::json::number(uint64_t(cs.num_constraints())));
    head.emplace_back("inputs", io::json::number(uint64_t(cs.num_inputs())));
    head.emplace_back("aux", io::json::number(uint64_t(cs.num_aux())));
    head.emplace_back("seconds", io::json::number(fmt::format("{:.3f}", secs_since(t0))));
    print_result(io::json::object(std::move(head)), o.has("--json"));
    return 0;
}

} // namespace cuzk::cli::porep
