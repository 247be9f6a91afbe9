// cuzk C ABI — circuits: the recorder, PCE handles, the built-in SHA-256
// preimage circuit.
#include "objects.hpp"

#include "cuzk/groth16/circuit.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"

using namespace cuzk;
using namespace cuzk::capi;

namespace cuzk::capi {

cuzk_pce* new_pce(r1cs::pce p)
{
    auto o = std::make_shared<pce_obj>();
    o->p = std::make_shared<const r1cs::pce>(std::move(p));
    return add_handle<cuzk_pce>(o);
}

} // namespace cuzk::capi

namespace {
constexpr uint32_t max_vars = 0x7fffffffu;

void check_preimage_len(size_t len, const char* fn)
{
    if (len > CUZK_SHA256_MAX_PREIMAGE)
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: preimage_len is {}, at most {} bytes supported", fn, len,
                                                    CUZK_SHA256_MAX_PREIMAGE));
}
} // namespace

extern "C" {

// ---- recorder ------------------------------------------------------------------------------

CUZK_API cuzk_status cuzk_recorder_create(cuzk_recorder** out, char* err, size_t err_len)
{
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, "cuzk_recorder_create", "out");
        *out = add_handle<cuzk_recorder>(std::make_shared<recorder_obj>());
        return CUZK_OK;
    });
}

CUZK_API void cuzk_recorder_destroy(cuzk_recorder* rec) { remove_handle(rec, kind::recorder); }

CUZK_API size_t cuzk_recorder_last_error(char* out, size_t out_len, const cuzk_recorder* rec)
{
    return last_error<recorder_obj>(out, out_len, rec);
}

static cuzk_status recorder_alloc(uint32_t* out, cuzk_recorder* rec, uint32_t count, bool input, const char* fn)
{
    return call<recorder_obj>(rec, fn, [&](recorder_obj& r) -> cuzk_status {
        need(out, fn, "out");
        if (count == 0) fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: count is 0", fn));
        std::lock_guard lk(r.mu);
        uint32_t& n = input ? r.num_inputs : r.num_aux;
        if (uint64_t(n) + count > max_vars)
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: {} + {} would exceed 2^31 − 1 {} variables", fn, n, count,
                                                        input ? "input" : "aux"));
        *out = input ? n : (CUZK_VAR_AUX | n);
        n += count;
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_recorder_alloc_inputs(uint32_t* out, cuzk_recorder* rec, uint32_t count)
{
    return recorder_alloc(out, rec, count, true, "cuzk_recorder_alloc_inputs");
}

CUZK_API cuzk_status cuzk_recorder_alloc_aux(uint32_t* out, cuzk_recorder* rec, uint32_t count)
{
    return recorder_alloc(out, rec, count, false, "cuzk_recorder_alloc_aux");
}

CUZK_API cuzk_status cuzk_recorder_enforce(cuzk_recorder* rec, const cuzk_term* a, size_t num_a, const cuzk_term* b,
                                           size_t num_b, const cuzk_term* c, size_t num_c)
{
    static const char* fn = "cuzk_recorder_enforce";
    return call<recorder_obj>(rec, fn, [&](recorder_obj& r) -> cuzk_status {
        const cuzk_term* t[3] = {a, b, c};
        const size_t n[3] = {num_a, num_b, num_c};
        static const char* mname[3] = {"a", "b", "c"};
        std::lock_guard lk(r.mu);
        const uint64_t row = r.b->num_constraints();
        for (int m = 0; m < 3; ++m) {
            if (n[m] && !t[m]) fail(CUZK_ERR_NULL, fmt::format("{}: {} is NULL but num_{} is {}", fn, mname[m], mname[m], n[m]));
            auto& s = r.s[m];
            s.clear();
            s.reserve(n[m]);
            for (size_t i = 0; i < n[m]; ++i) {
                const uint32_t v = t[m][i].var;
                const bool is_aux = v & CUZK_VAR_AUX;
                const uint32_t idx = v & ~CUZK_VAR_AUX;
                if (idx >= (is_aux ? r.num_aux : r.num_inputs))
                    fail(CUZK_ERR_INVALID_ARGUMENT,
                         fmt::format("{}: constraint {}, {}[{}]: {} {} was never allocated ({} inputs including ONE, "
                                     "{} aux so far)",
                                     fn, row, mname[m], i, is_aux ? "aux" : "input", idx, r.num_inputs, r.num_aux));
                fr coeff;
                if (!fr::from_bytes_le(t[m][i].coeff, coeff))
                    throw error(errc::non_canonical,
                                fmt::format("{}: constraint {}, {}[{}]: the coefficient is not canonical (>= r)", fn,
                                            row, mname[m], i));
                s.push_back({v, coeff});
            }
        }
        r.b->add_constraint(r.s[0], r.s[1], r.s[2]);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_recorder_counts(uint32_t* out_num_inputs, uint32_t* out_num_aux,
                                          uint64_t* out_num_constraints, const cuzk_recorder* rec)
{
    return call<recorder_obj>(rec, "cuzk_recorder_counts", [&](recorder_obj& r) -> cuzk_status {
        std::lock_guard lk(r.mu);
        if (out_num_inputs) *out_num_inputs = r.num_inputs;
        if (out_num_aux) *out_num_aux = r.num_aux;
        if (out_num_constraints) *out_num_constraints = r.b->num_constraints();
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_recorder_finish(cuzk_pce** out, cuzk_recorder* rec)
{
    static const char* fn = "cuzk_recorder_finish";
    return call<recorder_obj>(rec, fn, [&](recorder_obj& r) -> cuzk_status {
        need(out, fn, "out");
        std::lock_guard lk(r.mu);
        r1cs::pce p = r.b->finish(r.num_inputs, r.num_aux);
        *out = new_pce(std::move(p));
        r.b = std::make_unique<r1cs::pce_builder>(r1cs::pce_builder::columns::tagged);
        r.num_inputs = 1;
        r.num_aux = 0;
        return CUZK_OK;
    });
}

// ---- PCE ------------------------------------------------------------------------------------

CUZK_API void cuzk_pce_destroy(cuzk_pce* pce) { remove_handle(pce, kind::pce); }

CUZK_API size_t cuzk_pce_last_error(char* out, size_t out_len, const cuzk_pce* pce)
{
    return last_error<pce_obj>(out, out_len, pce);
}

CUZK_API cuzk_status cuzk_pce_info_get(cuzk_pce_info* out, const cuzk_pce* pce)
{
    static const char* fn = "cuzk_pce_info_get";
    return call<pce_obj>(pce, fn, [&](pce_obj& o) -> cuzk_status {
        cuzk_pce_info v{};
        v.struct_size = sizeof v;
        v.num_inputs = o.p->num_inputs;
        v.num_aux = o.p->num_aux;
        v.num_constraints = o.p->num_constraints;
        v.nnz_a = o.p->a.nnz();
        v.nnz_b = o.p->b.nnz();
        v.nnz_c = o.p->c.nnz();
        v.memory_bytes = o.p->memory_bytes();
        write_struct(out, v, sizeof(cuzk_pce_info), fn);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_pce_save(const cuzk_pce* pce, const char* path)
{
    return call<pce_obj>(pce, "cuzk_pce_save", [&](pce_obj& o) -> cuzk_status {
        need(path, "cuzk_pce_save", "path");
        r1cs::save_pce(*o.p, path);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_pce_load(cuzk_pce** out, const char* path, uint32_t flags, char* err, size_t err_len)
{
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, "cuzk_pce_load", "out");
        need(path, "cuzk_pce_load", "path");
        if (flags & ~CUZK_PCE_LOAD_SKIP_CHECKSUM)
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("cuzk_pce_load: unknown flags 0x{:x}", flags));
        *out = new_pce(r1cs::load_pce(path, !(flags & CUZK_PCE_LOAD_SKIP_CHECKSUM)));
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_pce_check_witness(const cuzk_pce* pce, const uint8_t* inputs, size_t num_inputs,
                                            const uint8_t* aux, size_t num_aux)
{
    static const char* fn = "cuzk_pce_check_witness";
    return call<pce_obj>(pce, fn, [&](pce_obj& o) -> cuzk_status {
        const r1cs::pce& p = *o.p;
        if (num_inputs != p.num_inputs || num_aux != p.num_aux)
            throw error(errc::bad_length, fmt::format("{}: {} inputs and {} aux given; the circuit has {} inputs "
                                                      "(including ONE) and {} aux",
                                                      fn, num_inputs, num_aux, p.num_inputs, p.num_aux));
        const auto in = scalars(inputs, num_inputs, "inputs", fn);
        const auto ax = scalars(aux, num_aux, "aux", fn);
        r1cs::check_satisfied(p, in, ax, 0, fn);
        return CUZK_OK;
    });
}

// ---- SHA-256 --------------------------------------------------------------------------------

CUZK_API cuzk_status cuzk_sha256_pce(cuzk_pce** out, size_t preimage_len, char* err, size_t err_len)
{
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, "cuzk_sha256_pce", "out");
        check_preimage_len(preimage_len, "cuzk_sha256_pce");
        const r1cs::gadgets::sha256_preimage_circuit circ(std::vector<uint8_t>(preimage_len, 0));
        *out = new_pce(r1cs::record(circ));
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_sha256_witness(uint8_t* out_inputs, size_t out_inputs_len, size_t* out_num_inputs,
                                         uint8_t* out_aux, size_t out_aux_len, size_t* out_num_aux,
                                         const uint8_t* preimage, size_t preimage_len, char* err, size_t err_len)
{
    static const char* fn = "cuzk_sha256_witness";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out_num_inputs, fn, "out_num_inputs");
        need(out_num_aux, fn, "out_num_aux");
        check_preimage_len(preimage_len, fn);
        // A size query: the counts depend on the length only, so the preimage
        // is neither read nor copied (it may be NULL).
        if (!out_inputs && out_inputs_len == 0 && !out_aux && out_aux_len == 0) {
            r1cs::witness_cs cs;
            r1cs::gadgets::sha256_preimage_circuit(std::vector<uint8_t>(preimage_len, 0)).synthesize(cs);
            *out_num_inputs = cs.num_inputs();
            *out_num_aux = cs.num_aux();
            return CUZK_OK;
        }
        if (preimage_len && !preimage) fail(CUZK_ERR_NULL, fmt::format("{}: preimage is NULL but preimage_len is {}", fn, preimage_len));
        const r1cs::gadgets::sha256_preimage_circuit circ(
            preimage_len ? std::vector<uint8_t>(preimage, preimage + preimage_len) : std::vector<uint8_t>{});
        r1cs::witness_cs cs;
        circ.synthesize(cs);
        const size_t ni = cs.num_inputs(), na = cs.num_aux();
        *out_num_inputs = ni;
        *out_num_aux = na;
        need(out_inputs, fn, "out_inputs");
        if (na) need(out_aux, fn, "out_aux");
        if (out_inputs_len < 32 * ni || out_aux_len < 32 * na)
            fail(CUZK_ERR_BUFFER_TOO_SMALL,
                 fmt::format("{}: buffers of {} and {} bytes; {} inputs and {} aux need {} and {} bytes", fn,
                             out_inputs_len, out_aux_len, ni, na, 32 * ni, 32 * na));
        put_scalars(out_inputs, cs.inputs());
        if (na) put_scalars(out_aux, cs.aux());
        return CUZK_OK;
    });
}

} // extern "C"
