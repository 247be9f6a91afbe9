// The C1 output JSON (SealCommitPhase1Output): serde_json-compatible writer
// and strict reader. Round trips on a registered 2 KiB shape and on custom
// shapes with sub and top levels; every kind of corruption is refused with
// the field's JSON path named; random byte mutations never crash the reader.
#include <catch2/catch.hpp>

#include <functional>
#include <sstream>
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/c1_json.hpp"
#include "fc_c1_sample.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

const std::string k_src = "c1-test.json";

seal_config two_kib() { return registered_seal_proof(5); }   // StackedDrg2KiBV1_1

seal_config custom_sub()
{
    return seal_config::custom(512, 3, 2, tree_shape{8, 8, 0}, porep_id_of(1234), api_version::v1_1, 2);
}

seal_config custom_top()
{
    return seal_config::custom(128, 2, 1, tree_shape{8, 8, 2}, porep_id_of(77), api_version::v1_2, 1);
}

std::string to_json(const c1_output& c)
{
    std::string s;
    write_c1_json(c, s);
    return s;
}

void require_same(const c1_output& a, const c1_output& b)
{
    REQUIRE(a.config.nodes == b.config.nodes);
    REQUIRE(a.config.layers == b.config.layers);
    REQUIRE(a.config.partitions == b.config.partitions);
    REQUIRE(a.config.challenges_per_partition == b.config.challenges_per_partition);
    REQUIRE(a.config.tree == b.config.tree);
    REQUIRE(a.config.porep_id == b.config.porep_id);
    REQUIRE(a.config.api == b.config.api);
    REQUIRE(a.config.registered_id == b.config.registered_id);
    REQUIRE(a.config.name == b.config.name);
    REQUIRE(a.comm_r == b.comm_r);
    REQUIRE(a.comm_d == b.comm_d);
    REQUIRE(a.replica_id == b.replica_id);
    REQUIRE(a.seed == b.seed);
    REQUIRE(a.ticket == b.ticket);
    REQUIRE(a.partitions == b.partitions);
}

// The bad_format message reading `text` gives; fails the test if it parses
// or throws anything else.
std::string error_of(std::string_view text)
{
    try {
        (void)read_c1_json(text, k_src);
    } catch (const error& e) {
        REQUIRE(e.code() == errc::bad_format);
        const std::string msg = e.what();
        REQUIRE(msg.rfind(k_src + ": ", 0) == 0);
        return msg;
    }
    FAIL("the corrupted text was accepted");
    return {};
}

std::string replace_first(std::string s, const std::string& from, const std::string& to)
{
    const size_t at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
}

std::string bytes_text(const domain& d)
{
    std::string s = "[";
    for (size_t i = 0; i < 32; ++i) s += (i ? "," : "") + std::to_string(d[i]);
    return s + "]";
}

// Writes `c` after `mutate`, reads it back: the error must name `path` and
// contain `phrase`.
void check_refused(c1_output c, const std::function<void(c1_output&)>& mutate, const std::string& path,
                   const std::string& phrase)
{
    mutate(c);
    const std::string msg = error_of(to_json(c));
    INFO(msg);
    CHECK(msg.find(k_src + ": " + path + ": ") == 0);
    CHECK(msg.find(phrase) != std::string::npos);
}

} // namespace

TEST_CASE("C1 JSON: a registered 2 KiB output round trips byte for byte", "[filecoin][c1json]")
{
    c1_output c = test::c1_sampler(1).make(two_kib());
    for (size_t i = 0; i < 32; ++i) c.comm_r[i] = uint8_t(i * 8 + 7);
    const std::string text = to_json(c);

    const c1_output back = read_c1_json(text, k_src);
    require_same(c, back);
    CHECK(to_json(back) == text);

    std::ostringstream os;
    write_c1_json(c, os);
    CHECK(os.str() == text);

    // The serde_json rendering: field order, variant names, byte arrays, null PhantomData.
    CHECK(text.rfind("{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[[{"
                     "\"comm_d_proofs\":{\"data\":{\"Single\":{\"root\":[",
                     0) == 0);
    CHECK(text.find(",\"leaf\":" + bytes_text(c.partitions[0][0].comm_d_proof.leaf) + ",\"path\":{\"path\":[{"
                    "\"hashes\":[" + bytes_text(c.partitions[0][0].comm_d_proof.base[0].hashes[0]) +
                    "],\"index\":" + std::to_string(c.partitions[0][0].comm_d_proof.base[0].index) + "},{") !=
          std::string::npos);
    CHECK(text.find("},\"comm_r_last_proof\":{\"data\":{\"Single\":{\"root\":") != std::string::npos);
    CHECK(text.find(",\"replica_column_proofs\":{\"c_x\":{\"column\":{\"index\":" +
                    std::to_string(c.partitions[0][0].c_x.index) + ",\"rows\":[[") != std::string::npos);
    CHECK(text.find("]],\"_h\":null},\"inclusion_proof\":{\"data\":{\"Single\":{") != std::string::npos);
    CHECK(text.find("]],\"layer_index\":2,\"node\":" + std::to_string(c.partitions[0][1].encoding.node) +
                    "}}]]},\"comm_r\":[7,15,23,31,39,47,55,63,71,79,87,95,103,111,119,127,135,143,151,159,"
                    "167,175,183,191,199,207,215,223,231,239,247,255],\"comm_d\":[") != std::string::npos);
    CHECK(text.find(' ') == std::string::npos);
    CHECK(text.back() == '}');
}

TEST_CASE("C1 JSON: every registered name maps to its size's V1 variant", "[filecoin][c1json]")
{
    for (int id : {0, 10, 15}) {   // 2 KiB in the V1, synthetic and NI families
        const seal_config cfg = registered_seal_proof(id);
        const c1_output c = test::c1_sampler(uint64_t(id)).make(cfg);
        const std::string text = to_json(c);
        INFO(cfg.name);
        CHECK(text.rfind("{\"registered_proof\":\"" + cfg.name + "\",\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[[",
                         0) == 0);
        const c1_output back = read_c1_json(text, k_src);
        require_same(c, back);
        CHECK(back.partitions.size() == (id == 15 ? 13u : 1u));
    }
}

TEST_CASE("C1 JSON: custom shapes with sub and top levels round trip", "[filecoin][c1json]")
{
    for (const seal_config& cfg : {custom_sub(), custom_top()}) {
        const c1_output c = test::c1_sampler(99).make(cfg);
        const std::string text = to_json(c);
        const c1_output back = read_c1_json(text, k_src);
        require_same(c, back);
        CHECK(to_json(back) == text);
        const bool top = cfg.tree.top != 0;
        CHECK(text.find(top ? "\"comm_r_last_proof\":{\"data\":{\"Top\":{\"base_proof\":{\"path\":[{"
                            : "\"comm_r_last_proof\":{\"data\":{\"Sub\":{\"base_proof\":{\"path\":[{") !=
              std::string::npos);
        CHECK(text.find(top ? "]},\"top_proof\":{\"path\":[{\"hashes\":[[" : "]},\"sub_proof\":{\"path\":[{") !=
              std::string::npos);
        CHECK(text.find("\"vanilla_proofs\":{\"Custom\":[[") != std::string::npos);
    }
    const std::string text = to_json(test::c1_sampler(5).make(custom_sub()));
    CHECK(text.rfind("{\"registered_proof\":\"custom\",\"cuzk_config\":{\"nodes\":512,\"layers\":3,\"partitions\":2,"
                     "\"challenges\":2,\"tree\":\"8-8-0\",\"porep_id\":[210,4,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
                     "0,0,0,0,0,0,0,0,0,0,0],\"api\":\"1.1\"},\"vanilla_proofs\":",
                     0) == 0);
}

TEST_CASE("C1 JSON: whitespace between tokens is accepted", "[filecoin][c1json]")
{
    const c1_output c = test::c1_sampler(3).make(custom_sub());
    std::string pretty;
    for (char ch : to_json(c)) {
        pretty += ch;
        if (ch == ',' || ch == ':' || ch == '{' || ch == '[') pretty += "\n \t\r";
    }
    require_same(c, read_c1_json(" \n" + pretty + "\n", k_src));
}

TEST_CASE("C1 JSON: truncation at any offset is refused", "[filecoin][c1json]")
{
    const std::string text = to_json(test::c1_sampler(4).make(two_kib()));
    const size_t n = text.size();
    for (size_t k = 0; k < n; k += (k < 300 || k + 300 > n) ? 1 : 97) {
        INFO("length " << k);
        (void)error_of(std::string_view(text).substr(0, k));
    }
    CHECK(error_of(text.substr(0, n - 1)).find("found end of input") != std::string::npos);
}

TEST_CASE("C1 JSON: textual corruptions are refused with the field's path", "[filecoin][c1json]")
{
    c1_output c = test::c1_sampler(6).make(two_kib());
    domain& target = c.partitions[0][1].comm_d_proof.base[3].hashes[0];
    target.fill(77);
    const std::string text = to_json(c);
    const std::string pre = "c1-test.json: vanilla_proofs.StackedDrg2KiBV1[0]";
    const std::string col = pre + "[0].replica_column_proofs.c_x.column: ";

    domain wrong = target;
    std::string bad_bytes = bytes_text(wrong);
    bad_bytes.replace(bad_bytes.find("77", 7 * 3), 2, "256");
    std::string msg = error_of(replace_first(text, bytes_text(target), bad_bytes));
    CHECK(msg.find(pre + "[1].comm_d_proofs.data.Single.path.path[3].hashes[0][7]: expected a byte in 0..255, "
                         "found 256 (byte ") == 0);

    CHECK(error_of(replace_first(text, ",\"_h\":null", "")).find(col + "missing key \"_h\"") == 0);
    CHECK(error_of(replace_first(text, "\"_h\":null", "\"_h\":null,\"_x\":null"))
              .find(col + "unexpected extra key \"_x\"") == 0);
    CHECK(error_of(replace_first(text, "\"_h\":null", "\"_h\":0")).find(col.substr(0, col.size() - 2) + "._h: expected null") ==
          0);
    CHECK(error_of(text.substr(0, text.size() - 1) + ",\"prover_id\":[1]}")
              .find("c1-test.json: top level: unexpected extra key \"prover_id\"") == 0);
    CHECK(error_of(replace_first(text, "\"layer_index\"", "\"layer_indey\""))
              .find(pre + "[0].labeling_proofs[0]: expected key \"layer_index\", found key \"layer_indey\"") == 0);
    CHECK(error_of(replace_first(text, "StackedDrg2KiBV1_1", "StackedDrg2KiBV9"))
              .find("c1-test.json: registered_proof: expected a RegisteredSealProof name") == 0);
    CHECK(error_of(replace_first(text, "\"StackedDrg2KiBV1\":", "\"StackedDrg8MiBV1\":"))
              .find("c1-test.json: vanilla_proofs: expected key \"StackedDrg2KiBV1\", found key \"StackedDrg8MiBV1\"") ==
          0);
    CHECK(error_of(replace_first(text, "{\"data\":{\"Single\"", "{\"data\":{\"Sub\""))
              .find(pre + "[0].comm_d_proofs.data: expected key \"Single\", found key \"Sub\"") == 0);
    CHECK(error_of(replace_first(text, ",\"vanilla_proofs\"", ",\"cuzk_config\":{},\"vanilla_proofs\""))
              .find("c1-test.json: top level: expected key \"vanilla_proofs\", found key \"cuzk_config\"") == 0);

    const std::string li = pre + "[0].labeling_proofs[0].layer_index: expected a layer index in 1..2";
    for (const char* form : {"01", "-1", "1.0", "1e0", "\"1\"", "3", "0"}) {
        INFO(form);
        CHECK(error_of(replace_first(text, "\"layer_index\":1", std::string("\"layer_index\":") + form)).find(li) ==
              0);
    }
    CHECK(error_of(text + "x").find("c1-test.json: top level: expected the end of input") == 0);
    CHECK(error_of(replace_first(text, "\"seed\"", "\"se\\u0065d\"")).find("without escape sequences") !=
          std::string::npos);
    require_same(c, read_c1_json(text + " \n", k_src));
    CHECK(error_of("").find("c1-test.json: top level: expected '{', found end of input") == 0);
    CHECK(error_of("{}").find("c1-test.json: top level: missing key \"registered_proof\"") == 0);
}

TEST_CASE("C1 JSON: wrong counts and out-of-range numbers are refused with the field's path", "[filecoin][c1json]")
{
    const c1_output c = test::c1_sampler(7).make(two_kib());
    const std::string p = "vanilla_proofs.StackedDrg2KiBV1[0]";
    check_refused(c, [](c1_output& x) { x.partitions[0][0].drg_parents.pop_back(); },
                  p + "[0].replica_column_proofs.drg_parents", "expected 6 DRG parent columns, the array ends after 5");
    check_refused(c, [](c1_output& x) { x.partitions[0][1].exp_parents.push_back(x.partitions[0][1].c_x); },
                  p + "[1].replica_column_proofs.exp_parents", "expected 8 expander parent columns, the array has more");
    check_refused(c, [](c1_output& x) { x.partitions[0][1].exp_parents[2].rows.emplace_back(); },
                  p + "[1].replica_column_proofs.exp_parents[2].column.rows", "expected 2 rows");
    check_refused(c, [](c1_output& x) { x.partitions[0][0].comm_r_last_proof.base[1].hashes.emplace_back(); },
                  p + "[0].comm_r_last_proof.data.Single.path.path[1].hashes", "expected 7 sibling hashes");
    check_refused(c, [](c1_output& x) { x.partitions[0][0].comm_d_proof.base.pop_back(); },
                  p + "[0].comm_d_proofs.data.Single.path.path", "expected 6 levels, the array ends after 5");
    check_refused(c, [](c1_output& x) { x.partitions[0][0].labeling_proofs[1].parents.pop_back(); },
                  p + "[0].labeling_proofs[1].parents", "expected 37 parents");
    check_refused(c, [](c1_output& x) { x.partitions[0][1].encoding.parents.emplace_back(); },
                  p + "[1].encoding_proof.parents", "expected 37 parents, the array has more");
    check_refused(c, [](c1_output& x) { x.partitions[0][1].labeling_proofs.pop_back(); },
                  p + "[1].labeling_proofs", "expected 2 labeling proofs");
    check_refused(c, [](c1_output& x) { x.partitions[0].push_back(x.partitions[0][0]); }, p,
                  "expected 2 challenge proofs, the array has more");
    check_refused(c, [](c1_output& x) { x.partitions.push_back(x.partitions[0]); }, "vanilla_proofs.StackedDrg2KiBV1",
                  "expected 1 partitions, the array has more");
    check_refused(c, [](c1_output& x) { x.partitions[0][0].c_x.inclusion.base[0].index = 8; },
                  p + "[0].replica_column_proofs.c_x.inclusion_proof.data.Single.path.path[0].index",
                  "expected a position in 0..7, found 8");
    check_refused(c, [](c1_output& x) { x.partitions[0][0].comm_d_proof.base[5].index = 2; },
                  p + "[0].comm_d_proofs.data.Single.path.path[5].index", "expected a position in 0..1, found 2");
    check_refused(c, [](c1_output& x) { x.partitions[0][1].drg_parents[4].index = 64; },
                  p + "[1].replica_column_proofs.drg_parents[4].column.index", "expected a node in 0..63, found 64");
    check_refused(c, [](c1_output& x) { x.partitions[0][1].encoding.node = 1ULL << 40; },
                  p + "[1].encoding_proof.node", "expected a node in 0..63, found 1099511627776");
    check_refused(c, [](c1_output& x) { x.partitions[0][0].comm_r_last_proof.sub.resize(1); },
                  p + "[0].comm_r_last_proof.data", "expected key \"Single\", found key \"Sub\"");

    const c1_output s = test::c1_sampler(8).make(custom_sub());
    check_refused(s, [](c1_output& x) { x.partitions[1][0].c_x.inclusion.sub.clear(); },
                  "vanilla_proofs.Custom[1][0].replica_column_proofs.c_x.inclusion_proof.data",
                  "expected key \"Sub\", found key \"Single\"");
    check_refused(s, [](c1_output& x) { x.partitions[0][1].comm_r_last_proof.sub.push_back({}); },
                  "vanilla_proofs.Custom[0][1].comm_r_last_proof.data.Sub.sub_proof.path", "expected 1 levels");
    check_refused(s, [](c1_output& x) { x.partitions[0][1].comm_r_last_proof.top.resize(1); },
                  "vanilla_proofs.Custom[0][1].comm_r_last_proof.data", "expected key \"Sub\", found key \"Top\"");
}

TEST_CASE("C1 JSON: the cuzk_config extension is checked", "[filecoin][c1json]")
{
    const std::string text = to_json(test::c1_sampler(9).make(custom_sub()));
    CHECK(error_of(replace_first(text, "\"nodes\":512", "\"nodes\":500"))
              .find("c1-test.json: cuzk_config: not a valid custom shape") == 0);
    CHECK(error_of(replace_first(text, "\"nodes\":512", "\"nodes\":4294967297"))
              .find("c1-test.json: cuzk_config.nodes: expected a node count in 0..4294967296") == 0);
    CHECK(error_of(replace_first(text, "\"8-8-0\"", "\"8-8\"")).find("c1-test.json: cuzk_config.tree: expected a tree") ==
          0);
    CHECK(error_of(replace_first(text, "\"1.1\"", "\"2.0\"")).find("c1-test.json: cuzk_config.api: expected an API") ==
          0);
    CHECK(error_of(replace_first(text, "\"partitions\":2", "\"partitions\":3"))
              .find("c1-test.json: vanilla_proofs.Custom: expected 3 partitions, the array ends after 2") == 0);
    // A custom shape whose node count is not a power of two cannot be written.
    c1_output odd = test::c1_sampler(1).make(seal_config::custom(243, 2, 1, tree_shape{3, 0, 0}, porep_id_of(1)));
    CHECK_THROWS_AS(to_json(odd), error);
    // Nor a registered id whose shape was changed.
    c1_output changed = test::c1_sampler(1).make(two_kib());
    changed.config.layers = 3;
    CHECK_THROWS_AS(to_json(changed), error);
}

TEST_CASE("C1 JSON: random single-byte mutations are parsed or refused, never crash", "[filecoin][c1json]")
{
    static const char interesting[] = "{}[],:\"0123456789-.eE nul\\x";
    test::c1_sampler rng(11);
    for (const seal_config& cfg : {two_kib(), custom_top()}) {
        const std::string text = to_json(test::c1_sampler(12).make(cfg));
        for (int trial = 0; trial < 1500; ++trial) {
            std::string m = text;
            const size_t at = rng.next() % m.size();
            const uint64_t r = rng.next();
            m[at] = (r & 1) ? char(r >> 8) : interesting[(r >> 8) % (sizeof interesting - 1)];
            try {
                (void)read_c1_json(m, k_src);
            } catch (const error& e) {
                REQUIRE(e.code() == errc::bad_format);
            }
        }
    }
}

TEST_CASE("C1 JSON: a 32 GiB-shaped output round trips", "[filecoin][c1json][slow]")
{
    const c1_output c = test::c1_sampler(32).make(registered_seal_proof(8));
    const std::string text = to_json(c);
    // 180 challenge proofs of about 1,860 byte arrays each (15 columns of 11
    // rows and 10-level octal paths, 12 x 37 labeling parents, a 30-level
    // comm_d path); a random byte takes 3.57 characters on average.
    CHECK(text.size() > 37'000'000);
    CHECK(text.size() < 41'000'000);
    CHECK(text.rfind("{\"registered_proof\":\"StackedDrg32GiBV1_1\",\"vanilla_proofs\":{\"StackedDrg32GiBV1\":[[", 0) ==
          0);
    const c1_output back = read_c1_json(text, k_src);
    require_same(c, back);
}
