// Fuzzes the C ABI (capi/cuzk.h, capi/cuzk_filecoin.h) through every entry
// point that takes a caller's bytes: keys (.zkey / .vk in memory, .params /
// .zkey / .vk / .pce files), proofs and public inputs (cuzk_key_verify, the
// PoRep, PoSt and update verifiers), witnesses (cuzk_engine_submit,
// cuzk_pce_check_witness), borrowed partitions in either form with counts,
// alignment and values that may disagree with the key, query densities whose
// bitmaps or lengths do not describe the key, recorded constraints, SHA-256
// preimages, C1 JSON, PoSt and update vanilla proofs, sector lists and output
// buffers of any size.
//
// What the header promises, and nothing more, is checked:
//   - every call returns a known status code (no crash, no sanitizer report,
//     no hang: jobs are waited for with a bound; no allocation a header merely
//     claims: libFuzzer's -malloc_limit_mb), and never CUZK_ERR_INTERNAL;
//   - a failure leaves a non-empty message (err buffer or last_error) without
//     "internal error", and where the header says which argument the message
//     names (a count, a bitmap, a proof's length, vanilla[i]) it names it;
//   - a verifier's *out is 0 or 1; a completed job's proofs verify against the
//     public inputs it reports, which are the ones submitted;
//   - a borrowed partition is released exactly once after an accepted submit
//     and never after a refused one;
//   - a handle stays usable: after each fuzzed call on the engine or a key, a
//     valid job is proved or a valid proof verified with it.
//
// Input: byte 0 picks the entry point, the bytes after it are read front to
// back by `reader` (numbers, then the payload); running out of bytes reads
// zeros. The keys are made once, in the first call, from the C ABI's own
// small test circuit (x·y = t, t·ONE = z − 3, (x + y)·2 = s; inputs ONE, z;
// aux x, y, t, s) and a BN254 squaring circuit.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "cuzk.h"
#include "cuzk_filecoin.h"
#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/io/snarkjs.hpp"
#include "fuzz_util.hpp"

namespace {

using cuzk::fuzz::require;

// ---- the input ------------------------------------------------------------------------------
struct reader {
    const uint8_t* p;
    size_t n;
    uint8_t u8()
    {
        if (!n) return 0;
        --n;
        return *p++;
    }
    uint16_t u16() { return uint16_t(u8() | u8() << 8); }
    uint32_t u32() { return uint32_t(u16()) | uint32_t(u16()) << 16; }
    uint64_t u64() { return uint64_t(u32()) | uint64_t(u32()) << 32; }
    // k bytes (zeros past the end).
    std::vector<uint8_t> bytes(size_t k)
    {
        std::vector<uint8_t> v(k, 0);
        const size_t m = std::min(k, n);
        if (m) std::memcpy(v.data(), p, m);
        p += m;
        n -= m;
        return v;
    }
    std::vector<uint8_t> rest() { return bytes(n); }
};

// ---- checks -----------------------------------------------------------------------------------
bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

// The C ABI's text for an exception it did not expect ("internal error: …",
// registry.hpp's guard); the words elsewhere may be the input's, echoed.
bool internal_text(const std::string& m) { return m.rfind("internal error", 0) == 0; }

// A buffer's address, never NULL (an empty std::vector may give NULL, which
// the functions rightly refuse as CUZK_ERR_NULL; the harness passes NULL only
// where it means to).
template <class T>
const T* ptr(const std::vector<T>& v)
{
    static const T none[1] = {};
    return v.empty() ? none : v.data();
}
template <class T>
T* ptr(std::vector<T>& v)
{
    static T none[1] = {};
    return v.empty() ? none : v.data();
}

// A status any call may return, with its message: known, not internal, and
// explained when it is a failure.
void check_status(cuzk_status st, const std::string& msg, const char* fn)
{
    static const bool trace = std::getenv("CUZK_FUZZ_CAPI_TRACE") != nullptr;   // each call's status and message
    if (trace) std::fprintf(stderr, "trace %s: %s %s\n", fn, cuzk_status_name(st), st == CUZK_OK ? "" : msg.c_str());
    if (std::strcmp(cuzk_status_name(st), "unknown") == 0 || st == CUZK_ERR_INTERNAL ||
        (st != CUZK_OK && (msg.empty() || internal_text(msg)))) {
        std::fprintf(stderr, "%s: status %d (%s), message \"%s\"\n", fn, int(st), cuzk_status_name(st), msg.c_str());
        require(false, "a known status, never internal, with a message on failure");
    }
}

void require_names(cuzk_status st, const std::string& msg, cuzk_status want, const char* what, const char* fn)
{
    if (st == want && contains(msg, what)) return;
    std::fprintf(stderr, "%s: status %d (%s), expected %s naming \"%s\"; message \"%s\"\n", fn, int(st),
                 cuzk_status_name(st), cuzk_status_name(want), what, msg.c_str());
    require(false, "the refusal names the argument");
}

std::string key_error(const cuzk_key* k)
{
    char m[2048];
    cuzk_key_last_error(m, sizeof m, k);
    return m;
}
std::string engine_error(const cuzk_engine* e)
{
    char m[2048];
    cuzk_engine_last_error(m, sizeof m, e);
    return m;
}
std::string pce_error(const cuzk_pce* p)
{
    char m[2048];
    cuzk_pce_last_error(m, sizeof m, p);
    return m;
}
std::string job_error(const cuzk_job* j)
{
    char m[2048];
    cuzk_job_last_error(m, sizeof m, j);
    return m;
}

// A handle-less call's status and its err buffer.
struct err_buf {
    char text[1024];
    err_buf() { std::memset(text, 0x55, sizeof text); }   // "not written" is visible
    void check(cuzk_status st, const char* fn) const
    {
        require(std::memchr(text, 0, sizeof text) != nullptr || st == CUZK_OK, "err is NUL-terminated");
        check_status(st, st == CUZK_OK ? std::string() : std::string(text), fn);
    }
};

// ---- scalars ------------------------------------------------------------------------------------
std::vector<uint8_t> scalar(int64_t v)
{
    std::vector<uint8_t> s(32);
    require(cuzk_scalar_from_i64(s.data(), v) == CUZK_OK, "cuzk_scalar_from_i64");
    return s;
}

std::vector<uint8_t> scalars(std::initializer_list<int64_t> vs)
{
    std::vector<uint8_t> out;
    for (int64_t v : vs) {
        const auto s = scalar(v);
        out.insert(out.end(), s.begin(), s.end());
    }
    return out;
}

// The small circuit's witness for (x, y) and its a, b, c (one value per constraint).
struct witness {
    std::vector<uint8_t> inputs, aux, a, b, c;
    witness(int64_t x, int64_t y)
    {
        inputs = scalars({1, x * y + 3});
        aux = scalars({x, y, x * y, 2 * (x + y)});
        a = scalars({x, x * y, x + y});
        b = scalars({y, 1, 2});
        c = scalars({x * y, x * y, 2 * (x + y)});
    }
};

// ---- what the first call makes ------------------------------------------------------------------
struct fixture {
    cuzk_pce* pce = nullptr;
    cuzk_key* bp = nullptr;         // bellperson dev key of the small circuit (knows its densities)
    cuzk_key* sj = nullptr;         // snarkjs dev key of the same circuit
    cuzk_key* bpp = nullptr;        // bp saved as .params and loaded again: no densities, no PCE
    cuzk_key* vk = nullptr;         // bp's verifying key alone
    cuzk_key* bn = nullptr;         // BN254 key of x·x = y (y public)
    cuzk_engine* eng = nullptr;     // cpu engine, self_verify on
    uint32_t id_bp = 0, id_abc = 0, id_sj = 0, id_bn = 0;
    cuzk_job* done = nullptr;       // a completed two-partition job of bp
    std::vector<uint8_t> proof_bp;  // a valid proof of bp for z = 3·4 + 3
    std::vector<uint8_t> proof_sj;  // a valid proof of sj for the same
    std::vector<uint8_t> pub_bp;    // its public input
    std::vector<uint8_t> proof_bn;  // a valid proof of bn for y = 9
    std::vector<uint8_t> pub_bn;
    std::vector<uint8_t> params;    // bp as a .params file
    std::vector<uint8_t> vk_bytes;  // bp's .vk
    std::vector<uint8_t> pce_file;  // the circuit as a PCE file
    std::vector<uint8_t> zkey;      // sj as a .zkey file
    std::string dir;                // a scratch folder
};

fixture* F = nullptr;

std::vector<uint8_t> slurp(const std::string& path)
{
    std::vector<uint8_t> b;
    std::FILE* f = std::fopen(path.c_str(), "rb");
    require(f != nullptr, "fixture: file written");
    uint8_t buf[4096];
    size_t k;
    while ((k = std::fread(buf, 1, sizeof buf, f)) > 0) b.insert(b.end(), buf, buf + k);
    std::fclose(f);
    return b;
}

cuzk_term term(uint32_t var, int64_t coeff)
{
    cuzk_term t;
    t.var = var;
    const auto s = scalar(coeff);
    std::memcpy(t.coeff, s.data(), 32);
    return t;
}

cuzk_pce* record_small_circuit()
{
    cuzk_recorder* rec = nullptr;
    cuzk_pce* pce = nullptr;
    uint32_t x = 0, z = 0;
    require(cuzk_recorder_create(&rec, nullptr, 0) == CUZK_OK, "fixture: recorder");
    require(cuzk_recorder_alloc_aux(&x, rec, 4) == CUZK_OK && cuzk_recorder_alloc_inputs(&z, rec, 1) == CUZK_OK,
            "fixture: variables");
    const uint32_t y = x + 1, t = x + 2, s = x + 3;
    cuzk_term a[2], b[1], c[2];
    a[0] = term(x, 1), b[0] = term(y, 1), c[0] = term(t, 1);
    require(cuzk_recorder_enforce(rec, a, 1, b, 1, c, 1) == CUZK_OK, "fixture: c0");
    a[0] = term(t, 1), b[0] = term(CUZK_VAR_ONE, 1), c[0] = term(z, 1), c[1] = term(CUZK_VAR_ONE, -3);
    require(cuzk_recorder_enforce(rec, a, 1, b, 1, c, 2) == CUZK_OK, "fixture: c1");
    a[0] = term(x, 1), a[1] = term(y, 1), b[0] = term(CUZK_VAR_ONE, 2), c[0] = term(s, 1);
    require(cuzk_recorder_enforce(rec, a, 2, b, 1, c, 1) == CUZK_OK, "fixture: c2");
    require(cuzk_recorder_finish(&pce, rec) == CUZK_OK, "fixture: finish");
    cuzk_recorder_destroy(rec);
    return pce;
}

cuzk_engine* small_engine()
{
    cuzk_engine_options o;
    cuzk_engine_options_init(&o);
    o.synth_workers = 1;
    o.synth_threads = 1;
    o.lookahead = 1;
    o.workers_per_device = 1;
    o.device_threads = 1;
    o.tail_threads = 0;
    cuzk_engine* e = nullptr;
    err_buf err;
    const cuzk_status st = cuzk_engine_create(&e, &o, err.text, sizeof err.text);
    if (st != CUZK_OK) std::fprintf(stderr, "cuzk_engine_create: %s\n", err.text);
    require(st == CUZK_OK, "fixture: engine");
    return e;
}

// Waits for a job (a bound: a job of the small circuit takes milliseconds).
cuzk_status wait_job(cuzk_job* job, int32_t* failed_partition = nullptr)
{
    const cuzk_status w = cuzk_job_wait(job, 60000);
    if (w == CUZK_ERR_TIMEOUT) require(false, "a job of the small circuit ended within 60 s");
    require(w == CUZK_OK, "cuzk_job_wait");
    cuzk_status code = 1;
    int32_t fp = -2;
    require(cuzk_job_status(&code, &fp, job) == CUZK_OK, "cuzk_job_status on an ended job");
    if (code != CUZK_OK) {
        const char* m = cuzk_job_message(job);
        require(m != nullptr && *m != 0, "a failed job says why");
        require(!internal_text(m), "a failed job is not an internal error");
    }
    if (failed_partition) *failed_partition = fp;
    return code;
}

size_t proof_size_of(const cuzk_key* k)
{
    cuzk_key_info info{};
    info.struct_size = sizeof info;
    require(cuzk_key_info_get(&info, k) == CUZK_OK, "cuzk_key_info_get");
    return info.curve == CUZK_CURVE_BN254 ? CUZK_PROOF_SIZE_BN254 : CUZK_PROOF_SIZE;
}

// Every partition of a completed job: its proof verifies with `key` for the
// public inputs the job reports, which are `want_pub[i]` when given.
void check_completed(cuzk_job* job, const cuzk_key* key, const std::vector<std::vector<uint8_t>>* want_pub)
{
    size_t parts = 0;
    require(cuzk_job_num_partitions(&parts, job) == CUZK_OK, "cuzk_job_num_partitions");
    const size_t psz = proof_size_of(key);
    for (size_t i = 0; i < parts; ++i) {
        std::vector<uint8_t> proof(psz), pub(64 * 32);
        size_t n = 0, m = 0;
        require(cuzk_job_proof(proof.data(), proof.size(), &n, job, i) == CUZK_OK && n == psz, "cuzk_job_proof");
        require(cuzk_job_public_inputs(pub.data(), pub.size(), &m, job, i) == CUZK_OK && m % 32 == 0,
                "cuzk_job_public_inputs");
        pub.resize(m);
        if (want_pub) require(pub == (*want_pub)[i], "a completed job's public inputs are the ones submitted");
        int32_t ok = 7;
        const cuzk_status st = cuzk_key_verify(&ok, key, proof.data(), n, pub.data(), m / 32);
        check_status(st, key_error(key), "cuzk_key_verify (a completed job)");
        require(st == CUZK_OK && ok == 1, "a completed job's proof verifies");
    }
}

// A valid job of the small circuit on engine `e` under key id `id` (a
// witness or an ABC partition): it completes and its proof verifies.
void prove_valid(cuzk_engine* e, uint32_t id, const cuzk_key* key, uint32_t kind)
{
    const witness w(3, 4);
    cuzk_partition p;
    cuzk_partition_init(&p);
    p.kind = kind;
    p.inputs = w.inputs.data(), p.num_inputs = 2;
    p.aux = w.aux.data(), p.num_aux = 4;
    if (kind == CUZK_PARTITION_ABC) p.a = w.a.data(), p.b = w.b.data(), p.c = w.c.data(), p.num_constraints = 3;
    cuzk_job* job = nullptr;
    const cuzk_status st = cuzk_engine_submit(&job, e, id, &p, 1, nullptr);
    if (st != CUZK_OK) std::fprintf(stderr, "valid submit: %s\n", engine_error(e).c_str());
    require(st == CUZK_OK, "the engine takes a valid job after a refused call");
    const cuzk_status code = wait_job(job);
    if (code != CUZK_OK) std::fprintf(stderr, "valid job: %s\n", cuzk_job_message(job));
    require(code == CUZK_OK, "a valid job completes");
    const std::vector<std::vector<uint8_t>> want{std::vector<uint8_t>(w.inputs.begin() + 32, w.inputs.end())};
    check_completed(job, key, &want);
    cuzk_job_destroy(job);
}

// The valid proof and public input of a key of the fixture.
const std::vector<uint8_t>& valid_proof(const cuzk_key* k)
{
    return k == F->bn ? F->proof_bn : k == F->sj ? F->proof_sj : F->proof_bp;
}
const std::vector<uint8_t>& valid_pub(const cuzk_key* k) { return k == F->bn ? F->pub_bn : F->pub_bp; }

// The key still verifies its valid proof.
void verify_valid(const cuzk_key* k)
{
    int32_t ok = 7;
    const auto& proof = valid_proof(k);
    const auto& pub = valid_pub(k);
    const cuzk_status st = cuzk_key_verify(&ok, k, proof.data(), proof.size(), pub.data(), 1);
    require(st == CUZK_OK && ok == 1, "a key still verifies a valid proof after a refused call");
}

void make_bn254_key()
{
    using bfr = cuzk::bn254::fr;
    cuzk::groth16::r1cs_description_t<bfr> d;
    d.num_inputs = 2;
    d.num_aux = 1;
    d.num_constraints = 1;
    d.for_each_entry = [](const auto& fn) {
        fn(0, 0, 2, bfr::one());
        fn(1, 0, 2, bfr::one());
        fn(2, 0, 1, bfr::one());
    };
    cuzk::groth16::setup_options_t<cuzk::bn254_curve> opt;
    opt.threads = 1;
    const std::string path = F->dir + "/bn.zkey";
    cuzk::io::write_zkey<cuzk::bn254_curve>(path, cuzk::groth16::setup_snarkjs<cuzk::bn254_curve>(d, opt));
    const std::vector<uint8_t> z = slurp(path);
    ::unlink(path.c_str());
    require(cuzk_key_load_zkey_mem(&F->bn, z.data(), z.size(), 0, 1, nullptr, 0) == CUZK_OK, "fixture: BN254 key");
}

void init()
{
    F = new fixture;
    char tmpl[] = "/tmp/cuzk-fuzz-capi-XXXXXX";
    require(::mkdtemp(tmpl) != nullptr, "fixture: scratch folder");
    F->dir = tmpl;
    F->pce = record_small_circuit();
    require(cuzk_key_setup_dev(&F->bp, F->pce, CUZK_CONVENTION_BELLPERSON, 1, nullptr, 0) == CUZK_OK, "fixture: bp");
    require(cuzk_key_setup_dev(&F->sj, F->pce, CUZK_CONVENTION_SNARKJS, 1, nullptr, 0) == CUZK_OK, "fixture: sj");
    make_bn254_key();

    const std::string params = F->dir + "/bp.params", zkey = F->dir + "/sj.zkey", pce = F->dir + "/c.pce";
    require(cuzk_key_save_params(F->bp, params.c_str()) == CUZK_OK, "fixture: save params");
    require(cuzk_key_save_zkey(F->sj, zkey.c_str()) == CUZK_OK, "fixture: save zkey");
    require(cuzk_pce_save(F->pce, pce.c_str()) == CUZK_OK, "fixture: save pce");
    F->params = slurp(params), F->zkey = slurp(zkey), F->pce_file = slurp(pce);
    require(cuzk_key_load_params(&F->bpp, params.c_str(), 0, 1, nullptr, 0) == CUZK_OK, "fixture: load params");
    ::unlink(params.c_str()), ::unlink(zkey.c_str()), ::unlink(pce.c_str());
    size_t n = 0;
    require(cuzk_key_export_vk(nullptr, 0, &n, F->bp) == CUZK_OK, "fixture: vk size");
    F->vk_bytes.resize(n);
    require(cuzk_key_export_vk(F->vk_bytes.data(), n, &n, F->bp) == CUZK_OK, "fixture: vk");
    require(cuzk_key_load_vk_mem(&F->vk, F->vk_bytes.data(), n, nullptr, 0) == CUZK_OK, "fixture: vk key");

    F->eng = small_engine();
    require(cuzk_engine_add_key(&F->id_bp, F->eng, F->bp, F->pce, "bp", 0) == CUZK_OK, "fixture: add bp");
    require(cuzk_engine_add_key(&F->id_abc, F->eng, F->bp, nullptr, "bp-abc", 0) == CUZK_OK, "fixture: add bp abc");
    require(cuzk_engine_add_key(&F->id_sj, F->eng, F->sj, nullptr, "sj", 0) == CUZK_OK, "fixture: add sj");
    require(cuzk_engine_add_key(&F->id_bn, F->eng, F->bn, nullptr, "bn", 0) == CUZK_OK, "fixture: add bn");

    // The completed job whose results op_job_read reads, and the valid proofs.
    const witness w(3, 4), w2(5, 6);
    cuzk_partition p[2];
    for (int i = 0; i < 2; ++i) {
        const witness& x = i ? w2 : w;
        cuzk_partition_init(&p[i]);
        p[i].inputs = x.inputs.data(), p[i].num_inputs = 2, p[i].aux = x.aux.data(), p[i].num_aux = 4;
    }
    require(cuzk_engine_submit(&F->done, F->eng, F->id_bp, p, 2, nullptr) == CUZK_OK, "fixture: job");
    require(wait_job(F->done) == CUZK_OK, "fixture: job completes");
    F->proof_bp.resize(CUZK_PROOF_SIZE);
    F->pub_bp.resize(32);
    require(cuzk_job_proof(F->proof_bp.data(), CUZK_PROOF_SIZE, &n, F->done, 0) == CUZK_OK, "fixture: proof");
    require(cuzk_job_public_inputs(F->pub_bp.data(), 32, &n, F->done, 0) == CUZK_OK, "fixture: public input");
    cuzk_job* job = nullptr;
    require(cuzk_engine_submit(&job, F->eng, F->id_sj, p, 1, nullptr) == CUZK_OK, "fixture: snarkjs job");
    require(wait_job(job) == CUZK_OK, "fixture: snarkjs job completes");
    F->proof_sj.resize(CUZK_PROOF_SIZE);
    require(cuzk_job_proof(F->proof_sj.data(), CUZK_PROOF_SIZE, &n, job, 0) == CUZK_OK, "fixture: snarkjs proof");
    cuzk_job_destroy(job);

    // x = 3, y = 9 on BN254 (the witness ONE, y, x).
    const auto bnw = scalars({1, 9, 3});
    cuzk_partition bp;
    cuzk_partition_init(&bp);
    bp.inputs = bnw.data(), bp.num_inputs = 2, bp.aux = bnw.data() + 64, bp.num_aux = 1;
    require(cuzk_engine_submit(&job, F->eng, F->id_bn, &bp, 1, nullptr) == CUZK_OK, "fixture: BN254 job");
    require(wait_job(job) == CUZK_OK, "fixture: BN254 job completes");
    F->proof_bn.resize(CUZK_PROOF_SIZE_BN254);
    F->pub_bn.resize(32);
    require(cuzk_job_proof(F->proof_bn.data(), F->proof_bn.size(), &n, job, 0) == CUZK_OK, "fixture: BN254 proof");
    require(cuzk_job_public_inputs(F->pub_bn.data(), 32, &n, job, 0) == CUZK_OK, "fixture: BN254 public input");
    cuzk_job_destroy(job);
    for (cuzk_key* k : {F->bp, F->sj, F->bpp, F->vk, F->bn}) verify_valid(k);
}

// ---- fuzzed scalar arrays ------------------------------------------------------------------------
// An array of `count` scalars for an argument whose valid value is `valid`:
// mode 0 the valid values, 1 the valid values with one scalar from the
// input, 2 the input's bytes. Its count: the valid one, or from the input.
std::vector<uint8_t> fuzz_array(reader& in, const std::vector<uint8_t>& valid, size_t& count)
{
    const uint8_t mode = in.u8();
    count = valid.size() / 32;
    if (mode & 0x80) count = in.u8() % 9;   // a count the key does not expect
    std::vector<uint8_t> v(count * 32, 0);
    switch (mode % 3) {
    case 0:
    case 1:
        if (!v.empty()) std::memcpy(v.data(), valid.data(), std::min(v.size(), valid.size()));
        if (mode % 3 == 1 && count) {
            const size_t i = in.u8() % count;
            const auto b = in.bytes(32);
            std::memcpy(v.data() + 32 * i, b.data(), 32);
        }
        break;
    default: {
        const auto b = in.bytes(v.size());
        if (!v.empty()) std::memcpy(v.data(), b.data(), v.size());
    }
    }
    return v;
}

// A proof for key k: the valid one with bytes changed, or the input's bytes;
// its length mostly the key's.
std::vector<uint8_t> fuzz_proof(reader& in, const cuzk_key* k)
{
    const size_t psz = proof_size_of(k);
    const uint8_t mode = in.u8();
    size_t len = psz;
    if (mode & 0x80) len = in.u16() % (2 * psz + 1);
    std::vector<uint8_t> p(len, 0);
    if (mode & 1) {
        const auto& valid = valid_proof(k);
        if (len) std::memcpy(p.data(), valid.data(), std::min(len, valid.size()));
        for (uint8_t flips = in.u8() % 4; flips; --flips) {
            const uint16_t at = in.u16();
            if (len) p[at % len] ^= uint8_t(in.u8() | 1);
        }
    } else {
        const auto b = in.bytes(len);
        if (len) std::memcpy(p.data(), b.data(), len);
    }
    return p;
}

// ---- the entry points ----------------------------------------------------------------------------
const cuzk_key* pick_key(uint8_t b)
{
    const cuzk_key* keys[5] = {F->bp, F->sj, F->bpp, F->vk, F->bn};
    return keys[b % 5];
}

// A key that loaded from fuzzed bytes answers its queries and verifies.
void exercise_loaded_key(cuzk_key* k, reader& in)
{
    cuzk_key_info info{};
    info.struct_size = sizeof info;
    require(cuzk_key_info_get(&info, k) == CUZK_OK, "cuzk_key_info_get on a loaded key");
    size_t n = 0;
    require(cuzk_key_export_vk(nullptr, 0, &n, k) == CUZK_OK, "cuzk_key_export_vk size query");
    if (n < (size_t(1) << 20)) {
        std::vector<uint8_t> vk(n);
        size_t m = 0;
        require(cuzk_key_export_vk(vk.data(), n, &m, k) == CUZK_OK && m == n, "cuzk_key_export_vk");
        if (n) {
            const cuzk_status st = cuzk_key_export_vk(vk.data(), n - 1, &m, k);
            require(st == CUZK_ERR_BUFFER_TOO_SMALL && m == n, "cuzk_key_export_vk: a short buffer");
        }
    }
    if (info.num_inputs >= 1 && info.num_inputs <= 64) {
        std::vector<uint8_t> proof = in.bytes(info.curve == CUZK_CURVE_BN254 ? CUZK_PROOF_SIZE_BN254 : CUZK_PROOF_SIZE);
        std::vector<uint8_t> pub = in.bytes(32 * (info.num_inputs - 1));
        int32_t ok = 7;
        const cuzk_status st = cuzk_key_verify(&ok, k, proof.data(), proof.size(), pub.data(), info.num_inputs - 1);
        check_status(st, key_error(k), "cuzk_key_verify (a loaded key)");
        require(ok == 0 || ok == 1 || (st != CUZK_OK && ok == 7), "verify: *out is 0 or 1");
    }
}

void op_zkey_mem(reader& in)
{
    const uint32_t flags = in.u8() & 3;
    const auto data = in.rest();
    cuzk_key* k = nullptr;
    err_buf err;
    const cuzk_status st = cuzk_key_load_zkey_mem(&k, ptr(data), data.size(), flags, 1, err.text, sizeof err.text);
    err.check(st, "cuzk_key_load_zkey_mem");
    if (flags & ~CUZK_LOAD_CHECK_SUBGROUP) require_names(st, err.text, CUZK_ERR_INVALID_ARGUMENT, "flags", "zkey_mem");
    if (st != CUZK_OK) {
        require(k == nullptr, "a failed load leaves *out untouched");
        return;
    }
    reader none{nullptr, 0};
    exercise_loaded_key(k, none);
    cuzk_key_destroy(k);
}

void op_vk_mem(reader& in)
{
    const auto data = in.rest();
    cuzk_key* k = nullptr;
    err_buf err;
    const cuzk_status st = cuzk_key_load_vk_mem(&k, ptr(data), data.size(), err.text, sizeof err.text);
    err.check(st, "cuzk_key_load_vk_mem");
    if (st != CUZK_OK) return;
    // The encoding is canonical: the key exports the bytes it was read from.
    size_t n = 0;
    std::vector<uint8_t> back(data.size());
    require(cuzk_key_export_vk(back.data(), back.size(), &n, k) == CUZK_OK && n == data.size() && back == data,
            "vk: export(load(x)) == x");
    cuzk_key_destroy(k);
}

// The readers that take a path: the input as an in-memory file.
void op_files(reader& in)
{
    const uint8_t which = in.u8();
    const uint32_t flags = in.u8() & 1;
    const auto data = in.rest();
    const cuzk::fuzz::memory_file file(data);
    const char* path = file.path().c_str();
    err_buf err;
    cuzk_key* k = nullptr;
    cuzk_status st;
    switch (which % 4) {
    case 0:
        st = cuzk_key_load_params(&k, path, flags, 1, err.text, sizeof err.text);
        err.check(st, "cuzk_key_load_params");
        if (st == CUZK_OK) {
            // Decoding the points (where a damaged point shows) happens on a
            // save; the file written is thrown away.
            const std::string out = F->dir + "/resaved.params";
            st = cuzk_key_save_params(k, out.c_str());
            check_status(st, key_error(k), "cuzk_key_save_params");
            ::unlink(out.c_str());
        }
        break;
    case 1:
        st = cuzk_key_load_zkey(&k, path, flags, 1, err.text, sizeof err.text);
        err.check(st, "cuzk_key_load_zkey");
        break;
    case 2:
        st = cuzk_key_load_vk(&k, path, err.text, sizeof err.text);
        err.check(st, "cuzk_key_load_vk");
        break;
    default: {
        cuzk_pce* p = nullptr;
        st = cuzk_pce_load(&p, path, flags ? CUZK_PCE_LOAD_SKIP_CHECKSUM : 0, err.text, sizeof err.text);
        err.check(st, "cuzk_pce_load");
        if (st == CUZK_OK) {
            cuzk_pce_info info{};
            info.struct_size = sizeof info;
            require(cuzk_pce_info_get(&info, p) == CUZK_OK, "cuzk_pce_info_get");
            if (info.num_inputs <= 64 && info.num_aux <= 256) {
                std::vector<uint8_t> inputs = scalar(1), aux(32 * size_t(info.num_aux), 0);
                inputs.resize(32 * size_t(info.num_inputs), 0);
                st = cuzk_pce_check_witness(p, inputs.data(), info.num_inputs, aux.data(), info.num_aux);
                check_status(st, pce_error(p), "cuzk_pce_check_witness (a loaded PCE)");
                require(st == CUZK_OK || st == CUZK_ERR_UNSATISFIED || st == CUZK_ERR_BAD_LENGTH,
                        "a loaded PCE checks a witness of its counts");
            }
            cuzk_pce_destroy(p);
        }
        return;
    }
    }
    if (k) {
        reader none{nullptr, 0};
        exercise_loaded_key(k, none);
        cuzk_key_destroy(k);
    }
}

void op_verify(reader& in)
{
    const cuzk_key* k = pick_key(in.u8());
    const std::vector<uint8_t> proof = fuzz_proof(in, k);
    size_t count = 0;
    const std::vector<uint8_t> pub = fuzz_array(in, valid_pub(k), count);
    int32_t ok = 7;
    const cuzk_status st = cuzk_key_verify(&ok, k, ptr(proof), proof.size(), pub.data(), count);
    const std::string msg = key_error(k);
    check_status(st, msg, "cuzk_key_verify");
    if (proof.size() != proof_size_of(k)) require_names(st, msg, CUZK_ERR_BAD_LENGTH, "proof", "cuzk_key_verify");
    else if (count != 1) require_names(st, msg, CUZK_ERR_INVALID_ARGUMENT, "public inputs", "cuzk_key_verify");
    if (st == CUZK_OK) require(ok == 0 || ok == 1, "verify: *out is 0 or 1");
    if (st == CUZK_OK && ok == 1)
        require(proof == valid_proof(k) || pub != valid_pub(k), "only the valid proof verifies for the valid input");
    verify_valid(k);
}

// Key ids of the engine: the small circuit with its PCE, without (ABC), snarkjs, BN254, unknown.
struct engine_target {
    uint32_t id;
    const cuzk_key* key;
};
engine_target pick_target(uint8_t b)
{
    switch (b % 5) {
    case 0: return {F->id_bp, F->bp};
    case 1: return {F->id_abc, F->bp};
    case 2: return {F->id_sj, F->sj};
    case 3: return {F->id_bn, F->bn};
    default: return {F->id_bn + 1 + b, F->bp};
    }
}

void op_submit(reader& in)
{
    const engine_target t = pick_target(in.u8());
    const size_t nparts = 1 + in.u8() % 3;
    const bool bn = t.key == F->bn;
    std::vector<cuzk_partition> parts(nparts);
    std::vector<std::vector<uint8_t>> keep;
    std::vector<std::vector<uint8_t>> pubs;
    bool counts_right = true;
    for (size_t i = 0; i < nparts; ++i) {
        const witness w(int64_t(3 + i), int64_t(4 + 2 * i));
        const std::vector<uint8_t> bn_in = scalars({1, int64_t((3 + i) * (3 + i))}), bn_aux = scalar(int64_t(3 + i));
        cuzk_partition& p = parts[i];
        cuzk_partition_init(&p);
        p.kind = in.u8() % 3 == 2 ? CUZK_PARTITION_ABC : CUZK_PARTITION_WITNESS;
        size_t ni, na, nc = 0;
        keep.push_back(fuzz_array(in, bn ? bn_in : w.inputs, ni));
        p.inputs = keep.back().data(), p.num_inputs = ni;
        pubs.emplace_back(keep.back().begin() + std::min<size_t>(32, keep.back().size()), keep.back().end());
        keep.push_back(fuzz_array(in, bn ? bn_aux : w.aux, na));
        p.aux = keep.back().data(), p.num_aux = na;
        counts_right = counts_right && ni == 2 && na == (bn ? 1 : 4);
        if (p.kind == CUZK_PARTITION_ABC) {
            keep.push_back(fuzz_array(in, w.a, nc));
            p.a = keep.back().data();
            size_t nb, ncc;
            keep.push_back(fuzz_array(in, w.b, nb));
            p.b = keep.back().data();
            keep.push_back(fuzz_array(in, w.c, ncc));
            p.c = keep.back().data();
            p.num_constraints = std::min({nc, nb, ncc});
        }
    }
    cuzk_job* job = nullptr;
    const cuzk_status st = cuzk_engine_submit(&job, F->eng, t.id, parts.data(), nparts, nullptr);
    const std::string msg = engine_error(F->eng);
    check_status(st, msg, "cuzk_engine_submit");
    if (!counts_right && t.id <= F->id_bn) {
        require(st != CUZK_OK, "cuzk_engine_submit refuses counts the key does not expect");
        if (st == CUZK_ERR_BAD_LENGTH) require_names(st, msg, st, "partition", "cuzk_engine_submit");
    }
    if (st == CUZK_OK) {
        require(job != nullptr, "a job");
        if (wait_job(job) == CUZK_OK) check_completed(job, t.key, &pubs);
        cuzk_job_destroy(job);
    } else {
        prove_valid(F->eng, F->id_bp, F->bp, CUZK_PARTITION_WITNESS);
    }
}

// ---- borrowed partitions ----------------------------------------------------------------------
struct release_log {
    std::atomic<int> count[4];
    release_log()
    {
        for (auto& c : count) c = 0;
    }
};

void on_release(void* user, size_t partition)
{
    auto* log = static_cast<release_log*>(user);
    require(partition < 4, "release: a partition of the job");
    log->count[partition].fetch_add(1);
}

// Host memory for one borrowed array: `bytes` placed at an offset that
// makes it 8-byte aligned or not.
struct placed {
    std::vector<uint64_t> store;
    const uint8_t* at = nullptr;
    placed(const std::vector<uint8_t>& bytes, size_t offset)
    {
        store.resize((bytes.size() + offset) / 8 + 2, 0);
        auto* base = reinterpret_cast<uint8_t*>(store.data()) + offset;
        if (!bytes.empty()) std::memcpy(base, bytes.data(), bytes.size());
        at = base;
    }
};

// Waits (bounded) until every partition is released, then checks each was released exactly once.
void check_released(const release_log& log, size_t n)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (;;) {
        bool all = true;
        for (size_t i = 0; i < n; ++i) all = all && log.count[i].load() >= 1;
        if (all || std::chrono::steady_clock::now() > until) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    for (size_t i = 0; i < n; ++i) require(log.count[i].load() == 1, "each borrowed partition is released exactly once");
}

// After a refused submit, a valid ABC job under id_valid (key_valid) completes.
void submit_borrowed(cuzk_engine* e, uint32_t id, const cuzk_key* key, reader& in, bool density_key,
                     uint32_t id_valid, const cuzk_key* key_valid)
{
    const size_t nparts = 1 + in.u8() % 3;
    const uint32_t form = in.u8() % 3 == 0 ? CUZK_FORM_CANONICAL : CUZK_FORM_MONTGOMERY;
    const size_t offset = in.u8() % 4 == 0 ? 1 + in.u8() % 7 : 0;
    std::vector<cuzk_borrowed_partition> parts(nparts);
    std::vector<std::unique_ptr<placed>> keep;
    release_log log;
    for (size_t i = 0; i < nparts; ++i) {
        const witness w(int64_t(3 + i), int64_t(4 + 2 * i));
        cuzk_borrowed_partition& p = parts[i];
        cuzk_borrowed_partition_init(&p);
        const uint8_t kb = in.u8();
        p.kind = density_key || kb % 3 == 2 ? CUZK_PARTITION_ABC : CUZK_PARTITION_WITNESS;
        if (kb & 0x80) p.kind = kb % 4;   // also kinds that do not exist
        p.form = form;
        if ((kb & 0x40) && (kb & 0x20)) p.form = kb % 5;
        auto put = [&](const std::vector<uint8_t>& valid, size_t& count) {
            std::vector<uint8_t> v = fuzz_array(in, valid, count);
            if (form == CUZK_FORM_MONTGOMERY) {
                // Canonical values move to Montgomery form; others stay as
                // read (a limb image >= r is refused as non-canonical).
                for (size_t j = 0; j + 32 <= v.size(); j += 32) {
                    cuzk::fr f;
                    if (cuzk::fr::from_bytes_le(v.data() + j, f)) std::memcpy(v.data() + j, f.l, 32);
                }
            }
            keep.push_back(std::make_unique<placed>(v, offset));
            return static_cast<const void*>(keep.back()->at);
        };
        size_t ni, na;
        p.inputs = put(w.inputs, ni), p.num_inputs = ni;
        p.aux = put(w.aux, na), p.num_aux = na;
        if (p.kind == CUZK_PARTITION_ABC) {
            size_t nc, nb, ncc;
            p.a = put(w.a, nc);
            p.b = put(w.b, nb);
            p.c = put(w.c, ncc);
            p.num_constraints = std::min({nc, nb, ncc});
        }
        p.release = on_release;
        p.user_data = &log;
    }
    cuzk_job* job = nullptr;
    const cuzk_status st = cuzk_engine_submit_borrowed(&job, e, id, parts.data(), nparts, nullptr);
    const std::string msg = engine_error(e);
    check_status(st, msg, "cuzk_engine_submit_borrowed");
    if (st != CUZK_OK) {
        for (size_t i = 0; i < nparts; ++i) require(log.count[i].load() == 0, "a refused submit releases nothing");
        prove_valid(e, id_valid, key_valid, CUZK_PARTITION_ABC);
        return;
    }
    const cuzk_status code = wait_job(job);
    // A completed job's public inputs are what the engine proved; with
    // wrong densities (or values) the self-verification fails the job.
    if (code == CUZK_OK) check_completed(job, key, nullptr);
    cuzk_job_destroy(job);
    check_released(log, nparts);
}

void op_borrowed(reader& in)
{
    const engine_target t = pick_target(in.u8());
    submit_borrowed(F->eng, t.id, t.key, in, false, F->id_abc, F->bp);
}

// Query densities from the input for the .params key (which has none), on
// an engine of its own (keys cannot be removed from an engine); then
// borrowed ABC partitions under it.
void op_density(reader& in)
{
    const uint8_t mode = in.u8();
    // The small circuit's true densities: a_aux x, y, t (not s); b_input ONE; b_aux y.
    std::vector<uint8_t> a_aux{0x7}, b_input{0x1}, b_aux{0x2};
    size_t na = 4, nbi = 2, nba = 4;
    if (mode & 1) a_aux[0] = in.u8();
    if (mode & 2) b_input[0] = in.u8();
    if (mode & 4) b_aux[0] = in.u8();
    if (mode & 8) na = in.u8() % 24, a_aux = in.bytes((na + 7) / 8);
    if (mode & 16) nbi = in.u8() % 24, b_input = in.bytes((nbi + 7) / 8);
    if (mode & 32) nba = in.u8() % 24, b_aux = in.bytes((nba + 7) / 8);
    cuzk_query_density d;
    cuzk_query_density_init(&d);
    d.a_aux = a_aux.empty() ? nullptr : a_aux.data(), d.a_aux_bits = na;
    d.b_input = b_input.empty() ? nullptr : b_input.data(), d.b_input_bits = nbi;
    d.b_aux = b_aux.empty() ? nullptr : b_aux.data(), d.b_aux_bits = nba;
    if (mode & 64) d.reserved = in.u8();
    cuzk_engine* e = small_engine();
    uint32_t id = 0;
    const cuzk_status st = cuzk_engine_add_key_density(&id, e, F->bpp, &d, "density", 0);
    const std::string msg = engine_error(e);
    check_status(st, msg, "cuzk_engine_add_key_density");
    if (d.reserved) require_names(st, msg, CUZK_ERR_INVALID_ARGUMENT, "reserved", "cuzk_engine_add_key_density");
    else if (na != 4) require_names(st, msg, CUZK_ERR_INVALID_ARGUMENT, "a_aux", "cuzk_engine_add_key_density");
    else if (nbi != 2) require_names(st, msg, CUZK_ERR_INVALID_ARGUMENT, "b_input", "cuzk_engine_add_key_density");
    else if (nba != 4) require_names(st, msg, CUZK_ERR_INVALID_ARGUMENT, "b_aux", "cuzk_engine_add_key_density");
    // The engine still takes the true densities, and proves with them.
    uint32_t good = 0;
    cuzk_query_density ok;
    cuzk_query_density_init(&ok);
    const uint8_t ga = 0x7, gbi = 0x1, gba = 0x2;
    ok.a_aux = &ga, ok.a_aux_bits = 4, ok.b_input = &gbi, ok.b_input_bits = 2, ok.b_aux = &gba, ok.b_aux_bits = 4;
    require(cuzk_engine_add_key_density(&good, e, F->bpp, &ok, "good", 0) == CUZK_OK, "add_key_density: valid");
    if (st == CUZK_OK) submit_borrowed(e, id, F->bpp, in, true, good, F->bpp);
    else prove_valid(e, good, F->bpp, CUZK_PARTITION_ABC);
    cuzk_engine_destroy(e);
}

void op_check_witness(reader& in)
{
    const witness w(int64_t(in.u8()), int64_t(in.u8()));
    size_t ni, na;
    const auto inputs = fuzz_array(in, w.inputs, ni);
    const auto aux = fuzz_array(in, w.aux, na);
    const cuzk_status st = cuzk_pce_check_witness(F->pce, inputs.data(), ni, aux.data(), na);
    const std::string msg = pce_error(F->pce);
    check_status(st, msg, "cuzk_pce_check_witness");
    require(st == CUZK_OK || st == CUZK_ERR_UNSATISFIED || st == CUZK_ERR_BAD_LENGTH || st == CUZK_ERR_NON_CANONICAL,
            "cuzk_pce_check_witness: a documented status");
    if (ni != 2 || na != 4) require(st == CUZK_ERR_BAD_LENGTH, "cuzk_pce_check_witness: wrong counts");
    const witness v(3, 4);
    require(cuzk_pce_check_witness(F->pce, v.inputs.data(), 2, v.aux.data(), 4) == CUZK_OK,
            "the PCE checks a valid witness after a refused one");
}

void op_recorder(reader& in)
{
    cuzk_recorder* rec = nullptr;
    require(cuzk_recorder_create(&rec, nullptr, 0) == CUZK_OK, "cuzk_recorder_create");
    uint32_t first = 0;
    const uint32_t ni = in.u8() % 4, na = in.u8() % 8;
    if (ni) require(cuzk_recorder_alloc_inputs(&first, rec, ni) == CUZK_OK, "alloc_inputs");
    if (na) require(cuzk_recorder_alloc_aux(&first, rec, na) == CUZK_OK, "alloc_aux");
    for (int c = in.u8() % 4; c >= 0 && in.n; --c) {
        std::vector<cuzk_term> t[3];
        for (auto& m : t) {
            m.resize(in.u8() % 4);
            for (auto& x : m) {
                const uint8_t v = in.u8();
                x.var = v & 0x80 ? (CUZK_VAR_AUX | (v & 0x3f)) : v & 0x7f;
                if (v & 0x40 && v & 0x80) x.var = in.u32();
                const auto co = in.bytes(32);
                std::memcpy(x.coeff, co.data(), 32);
            }
        }
        const cuzk_status st = cuzk_recorder_enforce(rec, t[0].data(), t[0].size(), t[1].data(), t[1].size(),
                                                     t[2].data(), t[2].size());
        char m[1024];
        cuzk_recorder_last_error(m, sizeof m, rec);
        check_status(st, m, "cuzk_recorder_enforce");
    }
    cuzk_pce* p = nullptr;
    require(cuzk_recorder_finish(&p, rec) == CUZK_OK, "cuzk_recorder_finish");
    cuzk_pce_info info{};
    info.struct_size = sizeof info;
    require(cuzk_pce_info_get(&info, p) == CUZK_OK && info.num_inputs == 1 + ni && info.num_aux == na,
            "the PCE has the variables allocated");
    std::vector<uint8_t> inputs = scalar(1), aux = in.bytes(32 * size_t(na));
    inputs.resize(32 * size_t(info.num_inputs));
    const cuzk_status st = cuzk_pce_check_witness(p, inputs.data(), info.num_inputs, aux.data(), na);
    check_status(st, pce_error(p), "cuzk_pce_check_witness (a recorded PCE)");
    cuzk_pce_destroy(p);
    cuzk_recorder_destroy(rec);
}

void op_sha256(reader& in)
{
    const size_t len = in.u8() % 80;
    const auto pre = in.bytes(len);
    const size_t room_in = in.u8() % 4 == 0 ? in.u8() : SIZE_MAX, room_aux = in.u8() % 4 == 0 ? in.u16() : SIZE_MAX;
    size_t ni = 0, na = 0;
    err_buf err;
    cuzk_status st = cuzk_sha256_witness(nullptr, 0, &ni, nullptr, 0, &na, ptr(pre), len, err.text, sizeof err.text);
    err.check(st, "cuzk_sha256_witness (size query)");
    require(st == CUZK_OK && ni == 3 && na >= 8 * len, "cuzk_sha256_witness: the counts");   // (no aux for an empty message: its digest is a constant)
    std::vector<uint8_t> inputs(room_in == SIZE_MAX ? 32 * ni : room_in), aux(room_aux == SIZE_MAX ? 32 * na : room_aux);
    size_t ni2 = 0, na2 = 0;
    st = cuzk_sha256_witness(ptr(inputs), inputs.size(), &ni2, ptr(aux), aux.size(), &na2, ptr(pre), len,
                             err.text, sizeof err.text);
    err.check(st, "cuzk_sha256_witness");
    require(ni2 == ni && na2 == na, "cuzk_sha256_witness: the counts again");
    if (inputs.size() < 32 * ni || aux.size() < 32 * na) require(st == CUZK_ERR_BUFFER_TOO_SMALL, "a short buffer");
    else require(st == CUZK_OK, "cuzk_sha256_witness with room");
}

void op_shape_of_c1(reader& in)
{
    const auto json = in.rest();
    cuzk_porep_shape s;
    err_buf err;
    const cuzk_status st = cuzk_porep_shape_of_c1(&s, ptr(json), json.size(), err.text, sizeof err.text);
    err.check(st, "cuzk_porep_shape_of_c1");
    require(st == CUZK_OK || st == CUZK_ERR_BAD_FORMAT || st == CUZK_ERR_BAD_LENGTH || st == CUZK_ERR_NON_CANONICAL ||
                st == CUZK_ERR_INVALID_ARGUMENT || st == CUZK_ERR_OUT_OF_MEMORY,
            "cuzk_porep_shape_of_c1: a documented status");
    if (st == CUZK_OK) require(s.struct_size == sizeof s, "the shape's struct_size");
}

// C2 under keys that are not PoRep keys (a PoRep key takes minutes to make):
// the C1 is read, then refused; the engine stays usable.
void op_c2_submit(reader& in)
{
    const engine_target t = pick_target(in.u8());
    const bool with_prover = in.u8() & 1;
    const auto prover = in.bytes(32);
    const uint64_t sector = in.u64();
    const auto json = in.rest();
    cuzk_job* job = nullptr;
    const cuzk_status st = cuzk_porep_c2_submit(&job, F->eng, t.id, ptr(json), json.size(),
                                                with_prover ? prover.data() : nullptr, sector, nullptr);
    check_status(st, engine_error(F->eng), "cuzk_porep_c2_submit");
    require(st != CUZK_OK, "no PoRep key: C2 is refused");
    prove_valid(F->eng, F->id_bp, F->bp, CUZK_PARTITION_WITNESS);
}

void fill_porep_shape(cuzk_porep_shape& s, reader& in)
{
    const uint8_t mode = in.u8();
    if (mode % 3 == 0) {
        cuzk_porep_shape_registered(&s, int32_t(in.u8() % 20));
    } else {
        cuzk_porep_shape_init(&s);
        s.nodes = uint64_t(1) << (in.u8() % 64);
        if (mode & 0x80) s.nodes = in.u64();
        s.layers = in.u8() % 17, s.challenges = in.u16() % 1100, s.partitions = in.u16() % 1100, s.api = in.u8() % 4;
        s.tree_base = in.u8() % 17, s.tree_sub = in.u8() % 17, s.tree_top = in.u8() % 17;
        const auto id = in.bytes(32);
        std::memcpy(s.porep_id, id.data(), 32);
        if (mode & 0x40) s.registered_proof = int32_t(in.u32());
    }
    if (mode & 0x20) s.struct_size = in.u16();
}

void op_porep_verify(reader& in)
{
    const cuzk_key* k = pick_key(in.u8());
    alignas(8) uint8_t shape_mem[CUZK_STRUCT_SIZE_MAX + 64] = {};
    auto& s = *reinterpret_cast<cuzk_porep_shape*>(shape_mem);
    fill_porep_shape(s, in);
    const auto prover = in.bytes(32), ticket = in.bytes(32), seed = in.bytes(32), comm_d = in.bytes(32),
               comm_r = in.bytes(32);
    const uint64_t sector = in.u64();
    const auto proof = in.bytes(in.u16() % 2048);
    int32_t ok = 7;
    if (s.struct_size > sizeof shape_mem) s.struct_size = sizeof shape_mem;
    const cuzk_status st = cuzk_porep_verify(&ok, k, &s, prover.data(), sector, ticket.data(), seed.data(),
                                             comm_d.data(), comm_r.data(), ptr(proof), proof.size());
    check_status(st, key_error(k), "cuzk_porep_verify");
    if (st == CUZK_OK) require(ok == 0 || ok == 1, "porep verify: *out is 0 or 1");
    verify_valid(k);
}

void fill_post_shape(cuzk_post_shape& s, reader& in)
{
    const uint8_t mode = in.u8();
    if (mode % 3 != 2) {
        cuzk_post_shape_registered(&s, int32_t(in.u8() % 15));
    } else {
        cuzk_post_shape_init(&s);
        s.type = in.u8() % 3, s.api = in.u8() % 4;
        s.nodes = uint64_t(1) << (in.u8() % 64);
        if (mode & 0x80) s.nodes = in.u64();
        s.sector_count = in.u32() % 200000, s.challenge_count = in.u16() % 1100;
        s.tree_base = in.u8() % 17, s.tree_sub = in.u8() % 17, s.tree_top = in.u8() % 17;
        if (mode & 0x40) s.registered_proof = int32_t(in.u32());
    }
}

// n vanilla proofs: the rest of the input cut at lengths from the input.
struct vanilla_set {
    std::vector<std::vector<uint8_t>> bytes;
    std::vector<const uint8_t*> ptrs;
    std::vector<size_t> len;
    vanilla_set(reader& in, size_t n)
    {
        std::vector<size_t> cut(n);
        for (auto& c : cut) c = in.u16();
        for (size_t i = 0; i < n; ++i) bytes.push_back(i + 1 == n ? in.rest() : in.bytes(cut[i]));
        for (auto& b : bytes) ptrs.push_back(cuzk_fuzz_ptr(b)), len.push_back(b.size());
    }
    static const uint8_t* cuzk_fuzz_ptr(const std::vector<uint8_t>& b) { return ptr(b); }
};

void op_post_vanilla(reader& in)
{
    cuzk_post_shape s;
    fill_post_shape(s, in);
    const auto randomness = in.bytes(32);
    const size_t n = in.u8() % 4;
    const uint32_t first = in.u8() % 3 == 0 ? in.u32() : 0;
    const size_t room = in.u8() % 5;
    vanilla_set v(in, n);
    std::vector<uint64_t> faulty(room + 1, 0xdeadbeef);
    size_t count = room;
    err_buf err;
    const cuzk_status st = cuzk_post_check_vanilla(faulty.data(), &count, &s, randomness.data(), ptr(v.ptrs),
                                                   ptr(v.len), n, first, err.text, sizeof err.text);
    err.check(st, "cuzk_post_check_vanilla");
    if (st == CUZK_OK) {
        require(count <= room && count <= n, "faulty sectors fit and are sectors of the list");
        require(faulty[room] == 0xdeadbeef, "nothing written past the room given");
        if (count) require(std::strlen(err.text) > 0 && std::memchr(err.text, 0, sizeof err.text), "a fault says why");
    }
    if (st == CUZK_ERR_BAD_LENGTH || st == CUZK_ERR_BAD_FORMAT) require_names(st, err.text, st, "vanilla[", "check_vanilla");
    if (st == CUZK_ERR_BUFFER_TOO_SMALL) require(count > room, "buffer_too_small reports the room needed");
}

void op_post_challenges(reader& in)
{
    cuzk_post_shape s;
    fill_post_shape(s, in);
    const auto randomness = in.bytes(32);
    const size_t n = in.u8() % 6;
    std::vector<uint64_t> ids(n);
    for (auto& id : ids) id = in.u64();
    size_t room = in.u8() % 4 == 0 ? in.u16() % 4096 : 8192;
    std::vector<uint64_t> out(room + 1, 0xfeedface);
    size_t count = room;
    const cuzk_status st = cuzk_post_sector_challenges(out.data(), &count, &s, randomness.data(),
                                                       ids.empty() ? nullptr : ids.data(), n);
    // (no handle and no err buffer: the status alone)
    check_status(st, st == CUZK_OK ? "" : "-", "cuzk_post_sector_challenges");
    if (st == CUZK_OK) require(count <= room && out[room] == 0xfeedface, "challenges fit the room given");
    if (st == CUZK_ERR_BUFFER_TOO_SMALL) require(count > room, "buffer_too_small reports the leaves needed");
}

void op_post_verify_submit(reader& in)
{
    const uint8_t which = in.u8();
    cuzk_post_shape s;
    fill_post_shape(s, in);
    const auto randomness = in.bytes(32);
    const size_t n = 1 + in.u8() % 3;
    const uint32_t first = in.u8() % 3 == 0 ? in.u32() : 0;
    if (which & 1) {
        const cuzk_key* k = pick_key(in.u8());
        std::vector<uint64_t> ids(n);
        for (auto& id : ids) id = in.u64();
        const auto comm_rs = in.bytes(32 * n);
        const auto proof = in.rest();
        int32_t ok = 7;
        const cuzk_status st = cuzk_post_verify(&ok, k, &s, randomness.data(), ids.data(), comm_rs.data(), n, first,
                                                ptr(proof), proof.size());
        check_status(st, key_error(k), "cuzk_post_verify");
        if (st == CUZK_OK) require(ok == 0 || ok == 1, "post verify: *out is 0 or 1");
        verify_valid(k);
        return;
    }
    // Submit under keys that are not PoSt keys: refused by name; the engine stays usable.
    const engine_target t = pick_target(in.u8());
    vanilla_set v(in, n);
    cuzk_job* job = nullptr;
    const cuzk_status st = cuzk_post_submit(&job, F->eng, t.id, randomness.data(), ptr(v.ptrs), ptr(v.len), n,
                                            first, nullptr);
    check_status(st, engine_error(F->eng), "cuzk_post_submit");
    require(st != CUZK_OK, "no PoSt key: refused");
    prove_valid(F->eng, F->id_bp, F->bp, CUZK_PARTITION_WITNESS);
}

void op_update(reader& in)
{
    const uint8_t which = in.u8();
    const int32_t id = in.u8() % 8 == 0 ? int32_t(in.u32()) : int32_t(in.u8() % 5);
    const uint32_t h = in.u8() % 4 == 0 ? in.u32() : uint32_t(in.u8() % 12);
    const auto r_old = in.bytes(32), d_new = in.bytes(32), r_new = in.bytes(32);
    if (which & 1) {
        const cuzk_key* k = pick_key(in.u8());
        const auto proof = in.rest();
        int32_t ok = 7;
        const cuzk_status st =
            cuzk_update_verify(&ok, k, id, r_old.data(), d_new.data(), r_new.data(), h, ptr(proof), proof.size());
        check_status(st, key_error(k), "cuzk_update_verify");
        if (st == CUZK_OK) require(ok == 0 || ok == 1, "update verify: *out is 0 or 1");
        verify_valid(k);
        return;
    }
    const engine_target t = pick_target(in.u8());
    const size_t n = in.u8() % 4;
    vanilla_set v(in, n);
    cuzk_job* job = nullptr;
    const cuzk_status st = cuzk_update_submit(&job, F->eng, t.id, r_old.data(), d_new.data(), r_new.data(), h,
                                              ptr(v.ptrs), ptr(v.len), n, nullptr);
    check_status(st, engine_error(F->eng), "cuzk_update_submit");
    require(st != CUZK_OK, "no update key: refused");
    prove_valid(F->eng, F->id_bp, F->bp, CUZK_PARTITION_WITNESS);
}

// Reading the completed job's results into buffers of any size.
void op_job_read(reader& in)
{
    const uint8_t which = in.u8();
    const size_t partition = in.u8() % 4;
    const size_t room = in.u16() % 512;
    const bool query = in.u8() % 4 == 0;
    std::vector<uint8_t> buf(room + 1, 0xa5);
    size_t size = 12345;
    cuzk_status st;
    size_t want;
    switch (which % 3) {
    case 0:
        st = cuzk_job_proof(query ? nullptr : buf.data(), query ? 0 : room, &size, F->done, partition);
        want = CUZK_PROOF_SIZE;
        break;
    case 1:
        st = cuzk_job_proofs(query ? nullptr : buf.data(), query ? 0 : room, &size, F->done);
        want = 2 * CUZK_PROOF_SIZE;
        break;
    default:
        st = cuzk_job_public_inputs(query ? nullptr : buf.data(), query ? 0 : room, &size, F->done, partition);
        want = 32;
        break;
    }
    check_status(st, job_error(F->done), "cuzk_job_proof/proofs/public_inputs");
    const bool ranged = which % 3 == 1 || partition < 2;
    if (!ranged) {
        require_names(st, job_error(F->done), CUZK_ERR_INVALID_ARGUMENT, "partition", "cuzk_job_proof");
        return;
    }
    require(size == want, "*out_size is the size needed");
    if (query) require(st == CUZK_OK, "a size query");
    else if (room < want) require(st == CUZK_ERR_BUFFER_TOO_SMALL, "a short buffer");
    else require(st == CUZK_OK, "a buffer with room");
    if (st != CUZK_OK || query)
        for (uint8_t b : buf) require(b == 0xa5, "nothing written without room");
    else
        require(buf[want] == 0xa5, "nothing written past the size");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (!F) init();
    if (size == 0) return 0;
    reader in{data + 1, size - 1};
    switch (data[0] % 18) {
    case 0: op_zkey_mem(in); break;
    case 1: op_vk_mem(in); break;
    case 2: op_files(in); break;
    case 3: op_verify(in); break;
    case 4: op_submit(in); break;
    case 5: op_borrowed(in); break;
    case 6: op_density(in); break;
    case 7: op_check_witness(in); break;
    case 8: op_recorder(in); break;
    case 9: op_sha256(in); break;
    case 10: op_shape_of_c1(in); break;
    case 11: op_c2_submit(in); break;
    case 12: op_porep_verify(in); break;
    case 13: op_post_vanilla(in); break;
    case 14: op_post_challenges(in); break;
    case 15: op_post_verify_submit(in); break;
    case 16: op_update(in); break;
    default: op_job_read(in); break;
    }
    return 0;
}
