// Reading a C1 output JSON (the file `cuzk porep c2` and `cuzk porep seal`
// read): cuzk's two hand readers against Debian's JSON libraries, on the
// same text held in memory (the file read once, outside the timing).
//
//   bm_c1_cuzk_read       read_c1_json: parse, check every count and range,
//                         and fill cuzk's c1_output (the reader the tools use)
//   bm_c1_cuzk_json       io::json::parse: cuzk's generic DOM (snarkjs files)
//   bm_c1_nlohmann_parse  nlohmann::json::parse (DOM), parse only
//   bm_c1_simdjson_dom    simdjson dom::parser::parse, parse only
//
// The libraries are timed parsing only: mapping their tree into c1_output
// (and checking counts) would be extra code that cuzk's reader already
// includes, so their figures are a floor for a library-based reader.
// The *_truncated benchmarks parse the first half of the text and report
// each reader's error message as the benchmark's label.
//
// The file: CUZK_BENCH_C1=FILE (e.g. `cuzk porep c1 --synthetic
// --sector-size 32GiB --out FILE`); skipped when unset. nlohmann-json3-dev
// and libsimdjson-dev are optional (bench/CMakeLists.txt), never a
// dependency of the library. Counters: MB_per_s (text bytes).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>

#include "cuzk/filecoin/porep/c1_json.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/mapped_file.hpp"

#ifdef CUZK_BENCH_NLOHMANN
#include <nlohmann/json.hpp>
#endif
#ifdef CUZK_BENCH_SIMDJSON
#include <simdjson.h>
#endif

namespace {

const std::string* c1_text(benchmark::State& st)
{
    static const std::string text = [] {
        const char* p = std::getenv("CUZK_BENCH_C1");
        return p ? cuzk::io::read_text_file(p, uint64_t{1} << 34) : std::string{};
    }();
    if (text.empty()) {
        st.SkipWithError("set CUZK_BENCH_C1 to a C1 output JSON file");
        return nullptr;
    }
    return &text;
}

void rate(benchmark::State& st, size_t bytes)
{
    st.counters["MB_per_s"] =
        benchmark::Counter(double(bytes) * double(st.iterations()) / 1e6, benchmark::Counter::kIsRate);
}

// Runs `parse` on the first half of the text; the label is its error message.
template <class F>
void truncated(benchmark::State& st, F parse)
{
    const std::string* t = c1_text(st);
    if (!t) return;
    const std::string half = t->substr(0, t->size() / 2);
    std::string msg = "no error";
    for (auto _ : st) {
        try {
            parse(half);
        } catch (const std::exception& e) {
            msg = e.what();
        }
    }
    st.SetLabel(msg.substr(0, 300));
}

void bm_c1_cuzk_read(benchmark::State& st)
{
    const std::string* t = c1_text(st);
    if (!t) return;
    for (auto _ : st) benchmark::DoNotOptimize(cuzk::filecoin::read_c1_json(*t, "c1.json"));
    rate(st, t->size());
}

void bm_c1_cuzk_json(benchmark::State& st)
{
    const std::string* t = c1_text(st);
    if (!t) return;
    for (auto _ : st) benchmark::DoNotOptimize(cuzk::io::json::parse(*t, "c1.json"));
    rate(st, t->size());
}

void bm_c1_cuzk_read_truncated(benchmark::State& st)
{
    truncated(st, [](const std::string& s) {
        auto c1 = cuzk::filecoin::read_c1_json(s, "c1.json");
        benchmark::DoNotOptimize(c1);
    });
}

void bm_c1_cuzk_json_truncated(benchmark::State& st)
{
    truncated(st, [](const std::string& s) {
        auto j = cuzk::io::json::parse(s, "c1.json");
        benchmark::DoNotOptimize(j);
    });
}

#ifdef CUZK_BENCH_NLOHMANN
void bm_c1_nlohmann_parse(benchmark::State& st)
{
    const std::string* t = c1_text(st);
    if (!t) return;
    for (auto _ : st) benchmark::DoNotOptimize(nlohmann::json::parse(*t));
    rate(st, t->size());
}

void bm_c1_nlohmann_truncated(benchmark::State& st)
{
    truncated(st, [](const std::string& s) {
        auto j = nlohmann::json::parse(s);
        benchmark::DoNotOptimize(j);
    });
}
#endif

#ifdef CUZK_BENCH_SIMDJSON
void bm_c1_simdjson_dom(benchmark::State& st)
{
    const std::string* t = c1_text(st);
    if (!t) return;
    const simdjson::padded_string padded(*t);
    simdjson::dom::parser parser;
    for (auto _ : st) {
        simdjson::dom::element doc;
        if (parser.parse(padded).get(doc) != simdjson::SUCCESS) {
            st.SkipWithError("simdjson: parse failed");
            return;
        }
        benchmark::DoNotOptimize(doc);
    }
    rate(st, t->size());
}

void bm_c1_simdjson_truncated(benchmark::State& st)
{
    truncated(st, [](const std::string& s) {
        const simdjson::padded_string padded(s);
        simdjson::dom::parser parser;
        simdjson::dom::element doc;
        const auto err = parser.parse(padded).get(doc);
        if (err) throw std::runtime_error(simdjson::error_message(err));
    });
}
#endif

} // namespace

BENCHMARK(bm_c1_cuzk_read)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_c1_cuzk_json)->Unit(benchmark::kMillisecond);
#ifdef CUZK_BENCH_NLOHMANN
BENCHMARK(bm_c1_nlohmann_parse)->Unit(benchmark::kMillisecond);
#endif
#ifdef CUZK_BENCH_SIMDJSON
BENCHMARK(bm_c1_simdjson_dom)->Unit(benchmark::kMillisecond);
#endif
BENCHMARK(bm_c1_cuzk_read_truncated)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_c1_cuzk_json_truncated)->Unit(benchmark::kMillisecond);
#ifdef CUZK_BENCH_NLOHMANN
BENCHMARK(bm_c1_nlohmann_truncated)->Unit(benchmark::kMillisecond);
#endif
#ifdef CUZK_BENCH_SIMDJSON
BENCHMARK(bm_c1_simdjson_truncated)->Unit(benchmark::kMillisecond);
#endif
