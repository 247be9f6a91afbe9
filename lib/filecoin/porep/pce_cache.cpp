#include "cuzk/filecoin/porep/pce_cache.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <system_error>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/prove.hpp"

namespace cuzk::filecoin {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The shape name with anything but letters, digits, '_' and '-' dropped.
std::string readable_name(const std::string& name)
{
    std::string r;
    for (char ch : name)
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-')
            r += ch;
    return r.empty() ? "custom" : r;
}

// Writes p as `path`: saved under a name of this process first, then renamed.
void save_whole(const r1cs::pce& p, const std::string& path)
{
    const std::string mine = fmt::format("{}.{}", path, ::getpid());
    try {
        r1cs::save_pce(p, mine);
        std::filesystem::rename(mine, path);
    } catch (...) {
        std::error_code ec;
        std::filesystem::remove(mine, ec);
        throw;
    }
}

} // namespace

std::string porep_pce_file_name(const seal_config& c)
{
    std::string d = fmt::format("cuzk PoRep circuit, revision {}; nodes {}; layers {}; challenges {}; tree {}; api {}; "
                                "porep id ",
                                porep_circuit_revision, c.nodes, c.layers, c.challenges_per_partition, c.tree.name(),
                                unsigned(c.api));
    for (uint8_t b : c.porep_id) d += fmt::format("{:02x}", b);
    return fmt::format("porep-{}-{:016x}.pce", readable_name(c.name), r1cs::pce_hash64(d.data(), d.size()));
}

std::shared_ptr<const r1cs::pce> porep_pce(const seal_config& config, const std::string& cache_dir,
                                           porep_pce_source* source, unsigned threads)
{
    porep_pce_source s;
    const auto t0 = std::chrono::steady_clock::now();
    if (!cache_dir.empty()) s.path = (std::filesystem::path(cache_dir) / porep_pce_file_name(config)).string();
    std::shared_ptr<const r1cs::pce> p;
    if (std::error_code ec; !s.path.empty() && std::filesystem::exists(s.path, ec)) {
        try {
            p = std::make_shared<const r1cs::pce>(r1cs::load_pce(s.path, true, threads));
            s.loaded = true;
        } catch (const error& e) {
            s.note = fmt::format("{} did not load ({}); recorded instead", s.path, e.what());
        }
    }
    if (!p) {
        p = record_porep_pce(config, threads);
        if (!s.path.empty()) {
            try {
                std::filesystem::create_directories(cache_dir);
                save_whole(*p, s.path);
                s.saved = true;
            } catch (const std::exception& e) {
                s.note += fmt::format("{}{} not written: {}", s.note.empty() ? "" : "; ", s.path, e.what());
            }
        }
    }
    s.seconds = seconds_since(t0);
    if (source) *source = std::move(s);
    return p;
}

} // namespace cuzk::filecoin
