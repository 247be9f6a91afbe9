/* The C ABI under misuse, in C99: NULL handles and pointers, wrong
 * struct_size, destroyed and garbage handles, wrong witness lengths,
 * non-canonical scalars, too-small buffers, results of unfinished,
 * cancelled and failed jobs, parents released before children. Every case
 * must return its documented status with a message and never crash; the
 * ASan/UBSan build runs this too (a destroyed handle is never dereferenced). */
#include "capi_test_util.h"

static int contains(const char* s, const char* sub) { return s != NULL && strstr(s, sub) != NULL; }

#define CHECK_MSG(text, sub)                                                                        \
    do {                                                                                            \
        const char* t_ = (text);                                                                    \
        ++g_checks;                                                                                 \
        if (!contains(t_, sub)) {                                                                   \
            fprintf(stderr, "case \"%s\": %s:%d: message \"%s\" lacks \"%s\"\n", g_case, __FILE__, __LINE__, t_ ? t_ : "(null)", sub); \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

/* ---- the cases without an engine ------------------------------------------------------------- */
static void case_status_names(void)
{
    static const cuzk_status codes[] = {
        CUZK_OK, CUZK_ERR_INVALID_ARGUMENT, CUZK_ERR_BAD_LENGTH, CUZK_ERR_NON_CANONICAL, CUZK_ERR_BAD_FLAGS,
        CUZK_ERR_NOT_ON_CURVE, CUZK_ERR_NOT_IN_SUBGROUP, CUZK_ERR_UNEXPECTED_IDENTITY, CUZK_ERR_NO_SQUARE_ROOT,
        CUZK_ERR_IO, CUZK_ERR_BAD_FORMAT, CUZK_ERR_UNSATISFIED, CUZK_ERR_UNSUPPORTED, CUZK_ERR_CANCELLED,
        CUZK_ERR_OUT_OF_MEMORY, CUZK_ERR_DEVICE, CUZK_ERR_INTERNAL, CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE,
        CUZK_ERR_BUFFER_TOO_SMALL, CUZK_ERR_NOT_FINISHED, CUZK_ERR_TIMEOUT, CUZK_ERR_STRUCT_SIZE};
    size_t k, l;
    CASE("status names");
    for (k = 0; k < sizeof codes / sizeof codes[0]; ++k) {
        CHECK(strcmp(cuzk_status_name(codes[k]), "unknown") != 0);
        for (l = 0; l < k; ++l) CHECK(strcmp(cuzk_status_name(codes[k]), cuzk_status_name(codes[l])) != 0);
    }
    CHECK(strcmp(cuzk_status_name(CUZK_ERR_INVALID_HANDLE), "invalid_handle") == 0);
    CHECK(strcmp(cuzk_status_name(12345), "unknown") == 0);
    CHECK(strcmp(cuzk_status_name(-99), "unknown") == 0);
}

static void case_null_handles(void)
{
    char err[256];
    uint32_t u = 0;
    int32_t s = 0;
    size_t n = 0;
    cuzk_job* job = NULL;
    cuzk_recorder* rec = NULL;
    CASE("NULL handles and pointers");
    CHECK(cuzk_recorder_alloc_aux(&u, NULL, 1) == CUZK_ERR_NULL);
    CHECK(cuzk_engine_submit(&job, NULL, 0, NULL, 0, NULL) == CUZK_ERR_NULL);
    CHECK(cuzk_job_wait(NULL, 0) == CUZK_ERR_NULL);
    CHECK(cuzk_job_poll(&s, NULL) == CUZK_ERR_NULL);
    CHECK(cuzk_job_proofs(NULL, 0, &n, NULL) == CUZK_ERR_NULL);
    CHECK(cuzk_key_verify(&s, NULL, NULL, 0, NULL, 0) == CUZK_ERR_NULL);
    CHECK(cuzk_job_id(NULL) == NULL && cuzk_job_message(NULL) == NULL);
    CHECK(cuzk_engine_last_error(err, sizeof err, NULL) > 0);
    CHECK_MSG(err, "NULL");
    /* Destroying NULL is a no-op. */
    cuzk_engine_destroy(NULL);
    cuzk_job_destroy(NULL);
    cuzk_key_destroy(NULL);
    cuzk_pce_destroy(NULL);
    cuzk_recorder_destroy(NULL);
    cuzk_timeline_buffer_destroy(NULL);
    /* NULL out-pointers on a live handle. */
    CHECK_CREATE(CUZK_OK, cuzk_recorder_create(&rec, err, sizeof err));
    CHECK_STATUS(CUZK_ERR_NULL, cuzk_recorder_alloc_aux(NULL, rec, 1), cuzk_recorder_last_error, rec);
    CHECK_MSG(LAST_ERROR(cuzk_recorder_last_error, rec), "out is NULL");
    CHECK_STATUS(CUZK_ERR_NULL, cuzk_recorder_finish(NULL, rec), cuzk_recorder_last_error, rec);
    CHECK_STATUS(CUZK_ERR_NULL, cuzk_recorder_enforce(rec, NULL, 1, NULL, 0, NULL, 0), cuzk_recorder_last_error,
                 rec);
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_recorder_alloc_aux(&u, rec, 0), cuzk_recorder_last_error, rec);
    cuzk_recorder_destroy(rec);
    CHECK(cuzk_recorder_create(NULL, err, sizeof err) == CUZK_ERR_NULL);
    CHECK_MSG(err, "out is NULL");
    CHECK(cuzk_scalar_from_i64(NULL, 1) == CUZK_ERR_NULL);
    CHECK(cuzk_engine_options_init(NULL) == CUZK_ERR_NULL);
    CHECK(cuzk_partition_init(NULL) == CUZK_ERR_NULL);
}

static void case_error_buffers(void)
{
    char err[256];
    cuzk_pce* p = NULL;
    cuzk_key* k = NULL;
    char small[8];
    CASE("error buffers: truncation and NUL termination");
    memset(small, 'x', sizeof small);
    CHECK(cuzk_pce_load(&p, "/nonexistent/capi.pce", 0, small, sizeof small) == CUZK_ERR_IO);
    CHECK(p == NULL);
    CHECK(small[7] == '\0' && strlen(small) == 7);
    CHECK(cuzk_pce_load(&p, "/nonexistent/capi.pce", 0, err, sizeof err) == CUZK_ERR_IO);
    CHECK_MSG(err, "/nonexistent/capi.pce");
    CHECK(cuzk_pce_load(&p, "/nonexistent/capi.pce", 0, NULL, 0) == CUZK_ERR_IO);
    CHECK(cuzk_key_load_params(NULL, "x", 0, 0, err, sizeof err) == CUZK_ERR_NULL);
    CHECK(cuzk_key_load_zkey_mem(&k, "garbage!", 8, 0, 0, err, sizeof err) != CUZK_OK);
    CHECK(k == NULL && err[0] != '\0');
    CHECK(cuzk_key_load_vk_mem(&k, "garbage!", 8, err, sizeof err) != CUZK_OK);
    CHECK(k == NULL && err[0] != '\0');
}

static void case_options_struct_size(void)
{
    char err[256];
    cuzk_engine* e = NULL;
    cuzk_engine_options o;
    struct {
        cuzk_engine_options o;
        unsigned char tail[16];
    } big;
    const int32_t dev0 = 0;
    CASE("option structs: struct_size");
    CHECK(cuzk_engine_options_init(&o) == CUZK_OK);
    o.struct_size = 4;
    CHECK(cuzk_engine_create(&e, &o, err, sizeof err) == CUZK_ERR_STRUCT_SIZE);
    CHECK(e == NULL);
    CHECK_MSG(err, "struct_size");
    /* A newer host's larger struct: accepted when the unknown tail is zero. */
    memset(&big, 0, sizeof big);
    CHECK(cuzk_engine_options_init(&big.o) == CUZK_OK);
    big.o.struct_size = sizeof big;
    big.o.synth_workers = 1;
    big.o.workers_per_device = 1;
    big.tail[3] = 1;
    CHECK(cuzk_engine_create(&e, &big.o, err, sizeof err) == CUZK_ERR_STRUCT_SIZE);
    CHECK_MSG(err, "not zero");
    big.tail[3] = 0;
    CHECK_CREATE(CUZK_OK, cuzk_engine_create(&e, &big.o, err, sizeof err));
    cuzk_engine_destroy(e);
    /* Zero workers: the engine's own check. */
    CHECK(cuzk_engine_options_init(&o) == CUZK_OK);
    o.synth_workers = 0;
    CHECK(cuzk_engine_create(&e, &o, err, sizeof err) == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(err[0] != '\0');
    /* Devices: a CUDA list on the cpu backend, a count without its list. */
    e = NULL;
    CHECK(cuzk_engine_options_init(&o) == CUZK_OK);
    o.cuda_devices = &dev0;
    o.num_cuda_devices = 1;
    CHECK(cuzk_engine_create(&e, &o, err, sizeof err) == CUZK_ERR_INVALID_ARGUMENT);
    CHECK_MSG(err, "cuda_devices");
    o.cuda_devices = NULL;
    CHECK(cuzk_engine_create(&e, &o, err, sizeof err) == CUZK_ERR_NULL);
    CHECK_MSG(err, "cuda_devices");
    CHECK(e == NULL);
}

static void case_device_calls(void)
{
    cuzk_engine* e = NULL;
    cuzk_engine_options o;
    uint32_t n = 0, did = 7;
    cuzk_device_stats ds;
    CASE("option structs: the device calls (two modelled devices, one excluded)");
    CHECK(cuzk_engine_options_init(&o) == CUZK_OK);
    o.devices = 2;
    CHECK_CREATE(CUZK_OK, cuzk_engine_create(&e, &o, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_engine_device_count(&n, e), cuzk_engine_last_error, e);
    CHECK(n == 2);
    CHECK_STATUS(CUZK_ERR_NULL, cuzk_engine_device_count(NULL, e), cuzk_engine_last_error, e);
    ds.struct_size = sizeof ds;
    CHECK_STATUS(CUZK_OK, cuzk_device_stats_get(&ds, e, 1), cuzk_engine_last_error, e);
    CHECK(ds.number == 1 && ds.excluded == 0 && ds.partitions == 0);
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_device_stats_get(&ds, e, 2), cuzk_engine_last_error, e);
    CHECK_MSG(LAST_ERROR(cuzk_engine_last_error, e), "no device 2");
    CHECK_STATUS(CUZK_ERR_NULL, cuzk_device_stats_get(NULL, e, 0), cuzk_engine_last_error, e);
    ds.struct_size = 3;
    CHECK_STATUS(CUZK_ERR_STRUCT_SIZE, cuzk_device_stats_get(&ds, e, 0), cuzk_engine_last_error, e);
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_engine_exclude_device(&did, e, 5, "x"), cuzk_engine_last_error, e);
    CHECK_STATUS(CUZK_OK, cuzk_engine_exclude_device(&did, e, 1, NULL), cuzk_engine_last_error, e);
    CHECK(did == 1);
    CHECK_STATUS(CUZK_OK, cuzk_engine_exclude_device(&did, e, 1, "again"), cuzk_engine_last_error, e);
    CHECK(did == 0);
    ds.struct_size = sizeof ds;
    CHECK_STATUS(CUZK_OK, cuzk_device_stats_get(&ds, e, 1), cuzk_engine_last_error, e);
    CHECK(ds.excluded == 1);
    cuzk_engine_destroy(e);
    CHECK(cuzk_engine_device_count(&n, e) == CUZK_ERR_INVALID_HANDLE);
    CHECK(cuzk_device_stats_get(&ds, e, 0) == CUZK_ERR_INVALID_HANDLE);
    CHECK(cuzk_engine_exclude_device(NULL, e, 0, NULL) == CUZK_ERR_INVALID_HANDLE);
}

static void case_output_structs(void)
{
    cuzk_pce* p = NULL;
    cuzk_pce_info info;
    CASE("option structs: output structs");
    CHECK_CREATE(CUZK_OK, cuzk_sha256_pce(&p, 0, err, sizeof err));
    info.struct_size = 3;
    CHECK_STATUS(CUZK_ERR_STRUCT_SIZE, cuzk_pce_info_get(&info, p), cuzk_pce_last_error, p);
    CHECK_STATUS(CUZK_ERR_NULL, cuzk_pce_info_get(NULL, p), cuzk_pce_last_error, p);
    cuzk_pce_destroy(p);
}

static void case_bad_handles(void)
{
    cuzk_recorder* rec = NULL;
    cuzk_pce* p = NULL;
    cuzk_pce_info info;
    uint32_t u = 0;
    int local = 0;
    char msg[256];
    CASE("destroyed, garbage and wrong-type handles");
    CHECK_CREATE(CUZK_OK, cuzk_recorder_create(&rec, err, sizeof err));
    cuzk_recorder_destroy(rec);
    CHECK(cuzk_recorder_alloc_aux(&u, rec, 1) == CUZK_ERR_INVALID_HANDLE);
    CHECK(cuzk_recorder_finish(&p, rec) == CUZK_ERR_INVALID_HANDLE);
    CHECK(cuzk_recorder_last_error(msg, sizeof msg, rec) > 0);
    CHECK_MSG(msg, "not a live cuzk_recorder");
    cuzk_recorder_destroy(rec); /* twice: ignored */
    /* Garbage: the address of a local, a small integer. */
    CHECK(cuzk_recorder_alloc_aux(&u, (cuzk_recorder*)(void*)&local, 1) == CUZK_ERR_INVALID_HANDLE);
    CHECK(cuzk_job_wait((cuzk_job*)(void*)&local, 0) == CUZK_ERR_INVALID_HANDLE);
    CHECK(cuzk_job_wait((cuzk_job*)(uintptr_t)0x10, 0) == CUZK_ERR_INVALID_HANDLE);
    cuzk_engine_destroy((cuzk_engine*)(void*)&local); /* ignored */
    /* A live handle of another type. */
    CHECK_CREATE(CUZK_OK, cuzk_sha256_pce(&p, 0, err, sizeof err));
    CHECK(cuzk_job_wait((cuzk_job*)(void*)p, 0) == CUZK_ERR_INVALID_HANDLE);
    cuzk_engine_destroy((cuzk_engine*)(void*)p); /* not an engine: ignored, p stays live */
    info.struct_size = sizeof info;
    CHECK_STATUS(CUZK_OK, cuzk_pce_info_get(&info, p), cuzk_pce_last_error, p);
    cuzk_pce_destroy(p);
    CHECK(cuzk_pce_save(p, "never-written.pce") == CUZK_ERR_INVALID_HANDLE);
}

static void case_recorder(void)
{
    cuzk_recorder* rec = NULL;
    uint32_t x = 0;
    uint64_t nc = 99;
    cuzk_term a = term(CUZK_VAR_ONE, 1), b, c;
    CASE("recorder: unallocated variables and non-canonical coefficients");
    CHECK_CREATE(CUZK_OK, cuzk_recorder_create(&rec, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_recorder_alloc_aux(&x, rec, 1), cuzk_recorder_last_error, rec);
    b = term(x, 1);
    c = term(x + 1, 1); /* aux 1: never allocated */
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_recorder_enforce(rec, &a, 1, &b, 1, &c, 1), cuzk_recorder_last_error,
                 rec);
    CHECK_MSG(LAST_ERROR(cuzk_recorder_last_error, rec), "constraint 0, c[0]: aux 1 was never allocated");
    c = term(7, 1); /* input 7 */
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_recorder_enforce(rec, &a, 1, &b, 1, &c, 1), cuzk_recorder_last_error,
                 rec);
    CHECK_MSG(LAST_ERROR(cuzk_recorder_last_error, rec), "input 7");
    c = term(x, 1);
    memset(c.coeff, 0xff, 32);
    CHECK_STATUS(CUZK_ERR_NON_CANONICAL, cuzk_recorder_enforce(rec, &a, 1, &b, 1, &c, 1), cuzk_recorder_last_error,
                 rec);
    CHECK_MSG(LAST_ERROR(cuzk_recorder_last_error, rec), "coefficient");
    CHECK_STATUS(CUZK_OK, cuzk_recorder_counts(NULL, NULL, &nc, rec), cuzk_recorder_last_error, rec);
    CHECK(nc == 0); /* nothing recorded by the failed calls */
    cuzk_recorder_destroy(rec);
}

static void case_sha256_buffers(void)
{
    char err[256];
    size_t ni = 0, na = 0;
    uint8_t in[96];
    uint8_t aux[64];
    CASE("SHA-256 witness buffers");
    memset(aux, 0xab, sizeof aux);
    CHECK(cuzk_sha256_witness(in, sizeof in, &ni, aux, sizeof aux, &na, (const uint8_t*)"abc", 3, err, sizeof err) ==
          CUZK_ERR_BUFFER_TOO_SMALL);
    CHECK(ni == 3 && na > 2);
    CHECK(aux[0] == 0xab && aux[63] == 0xab); /* untouched */
    CHECK_MSG(err, "bytes");
    CHECK(cuzk_sha256_witness(in, sizeof in, &ni, aux, sizeof aux, &na, NULL, 3, err, sizeof err) == CUZK_ERR_NULL);
}

/* ---- the cases on one engine ------------------------------------------------------------------ */
struct misuse {
    cuzk_pce *small, *sha;
    cuzk_key *small_key, *sha_key;
    cuzk_engine* eng;
    cuzk_timeline_buffer* tbuf;
    uint32_t k_small, k_sha;
};

static void case_engine_setup(struct misuse* m)
{
    char err[256];
    cuzk_engine_options o;
    cuzk_timeline_buffer* gone = NULL;
    cuzk_engine* e2 = NULL;
    CASE("an engine, a key, and jobs gone wrong");
    m->small = record_small_circuit();
    CHECK_CREATE(CUZK_OK, cuzk_sha256_pce(&m->sha, 3, err, sizeof err));
    CHECK_CREATE(CUZK_OK, cuzk_key_setup_dev(&m->small_key, m->small, CUZK_CONVENTION_BELLPERSON, 0, err, sizeof err));
    CHECK_CREATE(CUZK_OK, cuzk_key_setup_dev(&m->sha_key, m->sha, CUZK_CONVENTION_BELLPERSON, 0, err, sizeof err));
    CHECK(cuzk_key_setup_dev(&m->small_key, m->small, 7, 0, err, sizeof err) == CUZK_ERR_INVALID_ARGUMENT);
    CHECK_CREATE(CUZK_OK, cuzk_timeline_buffer_create(&m->tbuf, 4, err, sizeof err)); /* tiny: drops events */
    CHECK(cuzk_timeline_buffer_create(&m->tbuf, 0, err, sizeof err) == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(cuzk_engine_options_init(&o) == CUZK_OK);
    o.synth_workers = 1;
    o.lookahead = 1;
    o.workers_per_device = 1;
    o.timeline_buffer = m->tbuf;
    CHECK_CREATE(CUZK_OK, cuzk_engine_create(&m->eng, &o, err, sizeof err));
    /* A destroyed buffer handle is refused. */
    CHECK_CREATE(CUZK_OK, cuzk_timeline_buffer_create(&gone, 4, err, sizeof err));
    cuzk_timeline_buffer_destroy(gone);
    o.timeline_buffer = gone;
    CHECK(cuzk_engine_create(&e2, &o, err, sizeof err) == CUZK_ERR_INVALID_HANDLE);
    CHECK(e2 == NULL);
}

static void case_parents_first(struct misuse* m)
{
    uint32_t id = 0;
    size_t n = 0;
    uint8_t vk[868 + 96 * 2];
    CASE("an engine, a key, and jobs gone wrong: parents released before children");
    /* The engine holds the keys and PCEs. */
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&m->k_small, m->eng, m->small_key, m->small, NULL, 0),
                 cuzk_engine_last_error, m->eng);
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&m->k_sha, m->eng, m->sha_key, m->sha, "sha", 0), cuzk_engine_last_error,
                 m->eng);
    /* A PCE that does not match the key. */
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_engine_add_key(&id, m->eng, m->small_key, m->sha, "mismatch", 0),
                 cuzk_engine_last_error, m->eng);
    CHECK_STATUS(CUZK_ERR_NULL, cuzk_engine_add_key(&id, m->eng, NULL, m->small, "x", 0), cuzk_engine_last_error,
                 m->eng);
    /* The verifying key is all a verifier needs; keep it as bytes. */
    CHECK_STATUS(CUZK_ERR_BUFFER_TOO_SMALL, cuzk_key_export_vk(vk, 100, &n, m->small_key), cuzk_key_last_error,
                 m->small_key);
    CHECK(n == sizeof vk);
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(vk, sizeof vk, &n, m->small_key), cuzk_key_last_error, m->small_key);
    cuzk_key_destroy(m->small_key);
    CHECK_CREATE(CUZK_OK, cuzk_key_load_vk_mem(&m->small_key, vk, n, err, sizeof err));
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_engine_add_key(&id, m->eng, m->small_key, m->small, "vk", 0),
                 cuzk_engine_last_error, m->eng);
    CHECK_MSG(LAST_ERROR(cuzk_engine_last_error, m->eng), "verifying key only");
    cuzk_pce_destroy(m->small);
    cuzk_pce_destroy(m->sha);
    cuzk_key_destroy(m->sha_key);
    cuzk_timeline_buffer_destroy(m->tbuf);
}

/* n partitions of the small circuit, x = x0 + i, y = y0 + i·dy. */
static void small_parts(uint8_t in[][64], uint8_t aux[][128], cuzk_partition* p, int n, long long x0, long long dx,
                        long long y0, long long dy)
{
    int i;
    for (i = 0; i < n; ++i) {
        small_witness(in[i], aux[i], x0 + dx * i, y0 + dy * i);
        cuzk_partition_init(&p[i]);
        p[i].inputs = in[i];
        p[i].num_inputs = 2;
        p[i].aux = aux[i];
        p[i].num_aux = 4;
    }
}

static void case_submit_witness(struct misuse* m)
{
    uint8_t in[3][64], aux[3][128];
    cuzk_partition p[3];
    cuzk_job* job = NULL;
    const char* msg;
    CASE("submit-time checks: nothing is queued (witnesses)");
    small_parts(in, aux, p, 3, 3, 1, 4, 0);
    /* A witness of the wrong length in partition 1. */
    p[1].num_aux = 3;
    CHECK_STATUS(CUZK_ERR_BAD_LENGTH, cuzk_engine_submit(&job, m->eng, m->k_small, p, 3, NULL), cuzk_engine_last_error,
                 m->eng);
    CHECK(job == NULL);
    msg = LAST_ERROR(cuzk_engine_last_error, m->eng);
    CHECK_MSG(msg, "partition 1");
    CHECK_MSG(msg, "aux has 3 values");
    CHECK_MSG(msg, "expects 4");
    p[1].num_aux = 4;
    p[2].num_inputs = 1;
    CHECK_STATUS(CUZK_ERR_BAD_LENGTH, cuzk_engine_submit(&job, m->eng, m->k_small, p, 3, NULL), cuzk_engine_last_error,
                 m->eng);
    CHECK_MSG(LAST_ERROR(cuzk_engine_last_error, m->eng), "partition 2: inputs (including ONE) has 1 values");
    p[2].num_inputs = 2;
    /* Non-canonical scalar. */
    memset(aux[0] + 64, 0xff, 32);
    CHECK_STATUS(CUZK_ERR_NON_CANONICAL, cuzk_engine_submit(&job, m->eng, m->k_small, p, 3, NULL),
                 cuzk_engine_last_error, m->eng);
    CHECK_MSG(LAST_ERROR(cuzk_engine_last_error, m->eng), "partition 0 aux[2]");
    small_witness(in[0], aux[0], 3, 4);
    /* inputs[0] must be ONE. */
    sc(in[2], 2);
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_engine_submit(&job, m->eng, m->k_small, p, 3, NULL),
                 cuzk_engine_last_error, m->eng);
    CHECK_MSG(LAST_ERROR(cuzk_engine_last_error, m->eng), "partition 2: inputs[0] must be ONE");
}

static void case_submit_arguments(struct misuse* m)
{
    uint8_t in[3][64], aux[3][128];
    cuzk_partition p[3];
    cuzk_job* job = NULL;
    cuzk_job_options jo;
    cuzk_engine_stats s;
    CASE("submit-time checks: nothing is queued (arguments)");
    small_parts(in, aux, p, 3, 3, 1, 4, 0);
    /* Wrong struct_size in one element, unknown kind, unknown key, no partitions. */
    p[1].struct_size = 8;
    CHECK_STATUS(CUZK_ERR_STRUCT_SIZE, cuzk_engine_submit(&job, m->eng, m->k_small, p, 3, NULL),
                 cuzk_engine_last_error, m->eng);
    p[1].struct_size = sizeof(cuzk_partition);
    p[1].kind = 9;
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_engine_submit(&job, m->eng, m->k_small, p, 3, NULL),
                 cuzk_engine_last_error, m->eng);
    p[1].kind = CUZK_PARTITION_WITNESS;
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_engine_submit(&job, m->eng, 777, p, 3, NULL), cuzk_engine_last_error,
                 m->eng);
    CHECK_MSG(LAST_ERROR(cuzk_engine_last_error, m->eng), "777");
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_engine_submit(&job, m->eng, m->k_small, p, 0, NULL),
                 cuzk_engine_last_error, m->eng);
    CHECK_STATUS(CUZK_ERR_NULL, cuzk_engine_submit(NULL, m->eng, m->k_small, p, 3, NULL), cuzk_engine_last_error,
                 m->eng);
    cuzk_job_options_init(&jo);
    jo.struct_size = 2;
    CHECK_STATUS(CUZK_ERR_STRUCT_SIZE, cuzk_engine_submit(&job, m->eng, m->k_small, p, 3, &jo), cuzk_engine_last_error,
                 m->eng);
    CHECK(job == NULL);
    s.struct_size = sizeof s;
    CHECK_STATUS(CUZK_OK, cuzk_engine_stats_get(&s, m->eng), cuzk_engine_last_error, m->eng);
    CHECK(s.jobs_submitted == 0);
}

static void case_failed_job(struct misuse* m)
{
    uint8_t in[2][64], aux[2][128];
    cuzk_partition p[2];
    cuzk_job* job = NULL;
    cuzk_status code = 0;
    int32_t failed = -5;
    size_t n = 0;
    uint8_t proof[CUZK_PROOF_SIZE];
    CASE("a failed job: an unsatisfied witness in partition 1");
    small_parts(in, aux, p, 2, 6, 0, 2, 1);
    sc(aux[1] + 96, 1000); /* s != 2(x + y) */
    CHECK_STATUS(CUZK_OK, cuzk_engine_submit(&job, m->eng, m->k_small, p, 2, NULL), cuzk_engine_last_error, m->eng);
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(job, -1), cuzk_job_last_error, job);
    CHECK_STATUS(CUZK_OK, cuzk_job_status(&code, &failed, job), cuzk_job_last_error, job);
    CHECK(code == CUZK_ERR_UNSATISFIED && failed == 1);
    CHECK_MSG(cuzk_job_message(job), "partition 1");
    memset(proof, 0x5a, sizeof proof);
    CHECK_STATUS(CUZK_ERR_UNSATISFIED, cuzk_job_proof(proof, sizeof proof, &n, job, 0), cuzk_job_last_error, job);
    CHECK(proof[0] == 0x5a && proof[191] == 0x5a); /* nothing written */
    CHECK_MSG(LAST_ERROR(cuzk_job_last_error, job), "failed");
    CHECK_STATUS(CUZK_ERR_UNSATISFIED, cuzk_job_proofs(NULL, 0, &n, job), cuzk_job_last_error, job);
    CHECK_STATUS(CUZK_ERR_UNSATISFIED, cuzk_job_public_inputs(NULL, 0, &n, job, 0), cuzk_job_last_error, job);
    cuzk_job_destroy(job);
    CHECK(cuzk_job_proof(proof, sizeof proof, &n, job, 0) == CUZK_ERR_INVALID_HANDLE);
}

/* A long SHA-256 job ("busy") keeps the single worker busy; the small job
 * ("queued", lower priority) waits behind it. */
struct two_jobs {
    uint8_t *sin, *saux;
    uint8_t in[64], aux[128];
    cuzk_partition q; /* the queued job's partition */
    cuzk_job *busy, *queued;
};

static void case_busy_and_queued(struct misuse* m, struct two_jobs* t)
{
    size_t ni = 0, na = 0;
    cuzk_partition p[6];
    cuzk_job_options jo;
    int i;
    CASE("unfinished and cancelled jobs: a busy job and a queued one");
    CHECK_CREATE(CUZK_OK, cuzk_sha256_witness(NULL, 0, &ni, NULL, 0, &na, (const uint8_t*)"abc", 3, err, sizeof err));
    t->sin = (uint8_t*)malloc(32 * ni);
    t->saux = (uint8_t*)malloc(32 * na);
    CHECK(t->sin && t->saux);
    CHECK_CREATE(CUZK_OK, cuzk_sha256_witness(t->sin, 32 * ni, &ni, t->saux, 32 * na, &na, (const uint8_t*)"abc", 3,
                                              err, sizeof err));
    for (i = 0; i < 6; ++i) {
        cuzk_partition_init(&p[i]);
        p[i].inputs = t->sin;
        p[i].num_inputs = ni;
        p[i].aux = t->saux;
        p[i].num_aux = na;
    }
    cuzk_job_options_init(&jo);
    jo.priority = 10;
    jo.id = "busy";
    CHECK_STATUS(CUZK_OK, cuzk_engine_submit(&t->busy, m->eng, m->k_sha, p, 6, &jo), cuzk_engine_last_error, m->eng);
    /* The id is in use while "busy" runs. */
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_engine_submit(&t->queued, m->eng, m->k_sha, p, 1, &jo),
                 cuzk_engine_last_error, m->eng);
    small_parts(&t->in, &t->aux, &t->q, 1, 2, 0, 3, 0);
    jo.priority = 0;
    jo.id = "queued";
    CHECK_STATUS(CUZK_OK, cuzk_engine_submit(&t->queued, m->eng, m->k_small, &t->q, 1, &jo), cuzk_engine_last_error,
                 m->eng);
}

static void case_cancel_queued(struct two_jobs* t)
{
    uint8_t proof[CUZK_PROOF_SIZE];
    size_t n = 0;
    int32_t st = -1, ended = -1;
    cuzk_status code = 0;
    CASE("unfinished and cancelled jobs: not finished, then cancelled");
    /* Not finished yet. */
    CHECK_STATUS(CUZK_ERR_TIMEOUT, cuzk_job_wait(t->busy, 0), cuzk_job_last_error, t->busy);
    CHECK_STATUS(CUZK_ERR_NOT_FINISHED, cuzk_job_proof(proof, sizeof proof, &n, t->busy, 0), cuzk_job_last_error,
                 t->busy);
    CHECK_MSG(LAST_ERROR(cuzk_job_last_error, t->busy), "has not ended");
    CHECK_STATUS(CUZK_ERR_NOT_FINISHED, cuzk_job_status(&code, NULL, t->busy), cuzk_job_last_error, t->busy);
    CHECK(strcmp(cuzk_job_message(t->busy), "") == 0);
    /* Cancel the queued job; reading it as finished gives CANCELLED. */
    CHECK_STATUS(CUZK_OK, cuzk_job_cancel(&ended, t->queued), cuzk_job_last_error, t->queued);
    CHECK(ended == 1);
    CHECK_STATUS(CUZK_OK, cuzk_job_cancel(&ended, t->queued), cuzk_job_last_error, t->queued);
    CHECK(ended == 0); /* already ended */
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(t->queued, 0), cuzk_job_last_error, t->queued);
    CHECK_STATUS(CUZK_OK, cuzk_job_poll(&st, t->queued), cuzk_job_last_error, t->queued);
    CHECK(st == CUZK_JOB_CANCELLED);
    CHECK_STATUS(CUZK_OK, cuzk_job_status(&code, NULL, t->queued), cuzk_job_last_error, t->queued);
    CHECK(code == CUZK_ERR_CANCELLED);
    memset(proof, 0x5a, sizeof proof);
    CHECK_STATUS(CUZK_ERR_CANCELLED, cuzk_job_proof(proof, sizeof proof, &n, t->queued, 0), cuzk_job_last_error,
                 t->queued);
    CHECK(proof[0] == 0x5a && proof[191] == 0x5a);
    CHECK_MSG(LAST_ERROR(cuzk_job_last_error, t->queued), "cancelled");
    CHECK_STATUS(CUZK_ERR_CANCELLED, cuzk_job_proofs(proof, sizeof proof, &n, t->queued), cuzk_job_last_error,
                 t->queued);
}

static void case_engine_goes_first(struct misuse* m, struct two_jobs* t)
{
    uint8_t proof[CUZK_PROOF_SIZE];
    size_t n = 0;
    cuzk_status code = 0;
    CASE("unfinished and cancelled jobs: the engine goes first");
    /* The running job is cancelled, its handle stays valid. */
    cuzk_engine_destroy(m->eng);
    CHECK(cuzk_engine_submit(&t->queued, m->eng, m->k_small, &t->q, 1, NULL) == CUZK_ERR_INVALID_HANDLE);
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(t->busy, -1), cuzk_job_last_error, t->busy);
    CHECK_STATUS(CUZK_OK, cuzk_job_status(&code, NULL, t->busy), cuzk_job_last_error, t->busy);
    CHECK(code == CUZK_ERR_CANCELLED);
    CHECK_MSG(cuzk_job_message(t->busy), "engine shut down");
    CHECK_STATUS(CUZK_ERR_CANCELLED, cuzk_job_proof(proof, sizeof proof, &n, t->busy, 5), cuzk_job_last_error,
                 t->busy);
    CHECK_STATUS(CUZK_OK, cuzk_job_cancel(NULL, t->busy), cuzk_job_last_error, t->busy);
    cuzk_job_destroy(t->queued);
    cuzk_job_destroy(t->busy);
    free(t->sin);
    free(t->saux);
}

static void case_verify(struct misuse* m)
{
    uint8_t proof[CUZK_PROOF_SIZE], pub[32];
    int32_t valid = -1;
    cuzk_status s;
    cuzk_key* key = m->small_key;
    CASE("verify: wrong lengths, counts, bytes");
    memset(proof, 0, sizeof proof);
    sc(pub, 9);
    CHECK_STATUS(CUZK_ERR_BAD_LENGTH, cuzk_key_verify(&valid, key, proof, 191, pub, 1), cuzk_key_last_error, key);
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_key_verify(&valid, key, proof, 192, pub, 0), cuzk_key_last_error,
                 key);
    CHECK_MSG(LAST_ERROR(cuzk_key_last_error, key), "0 public inputs given, the key expects 1");
    /* All-zero bytes: no compression flag. */
    valid = -1;
    s = cuzk_key_verify(&valid, key, proof, 192, pub, 1);
    CHECK(s != CUZK_OK && s != CUZK_ERR_INTERNAL && valid == 0);
    memset(pub, 0xff, sizeof pub);
    CHECK_STATUS(CUZK_ERR_NON_CANONICAL, cuzk_key_verify(&valid, key, proof, 192, pub, 1), cuzk_key_last_error, key);
    CHECK_STATUS(CUZK_ERR_NULL, cuzk_key_verify(NULL, key, proof, 192, pub, 1), cuzk_key_last_error, key);
    CHECK_STATUS(CUZK_ERR_UNSUPPORTED, cuzk_key_save_params(key, "never.params"), cuzk_key_last_error, key);
    cuzk_key_destroy(key);
}

static void case_timeline_buffer(void)
{
    cuzk_timeline_buffer* b = NULL;
    cuzk_event ev[2];
    size_t n = 0;
    uint64_t dropped = 0;
    CASE("the timeline buffer: event_size");
    CHECK_CREATE(CUZK_OK, cuzk_timeline_buffer_create(&b, 8, err, sizeof err));
    CHECK_STATUS(CUZK_ERR_STRUCT_SIZE, cuzk_timeline_buffer_drain(&n, ev, 2, 8, b), cuzk_timeline_buffer_last_error,
                 b);
    CHECK_STATUS(CUZK_ERR_NULL, cuzk_timeline_buffer_drain(&n, NULL, 2, sizeof ev[0], b),
                 cuzk_timeline_buffer_last_error, b);
    CHECK_STATUS(CUZK_OK, cuzk_timeline_buffer_drain(&n, ev, 2, sizeof ev[0], b), cuzk_timeline_buffer_last_error, b);
    CHECK(n == 0);
    CHECK_STATUS(CUZK_OK, cuzk_timeline_buffer_dropped(&dropped, b), cuzk_timeline_buffer_last_error, b);
    CHECK(dropped == 0);
    cuzk_timeline_buffer_destroy(b);
    CHECK(cuzk_timeline_buffer_drain(&n, ev, 2, sizeof ev[0], b) == CUZK_ERR_INVALID_HANDLE);
}

int main(void)
{
    struct misuse m;
    struct two_jobs t;
    memset(&m, 0, sizeof m);
    memset(&t, 0, sizeof t);
    case_status_names();
    case_null_handles();
    case_error_buffers();
    case_options_struct_size();
    case_device_calls();
    case_output_structs();
    case_bad_handles();
    case_recorder();
    case_sha256_buffers();
    case_engine_setup(&m);
    case_parents_first(&m);
    case_submit_witness(&m);
    case_submit_arguments(&m);
    case_failed_job(&m);
    case_busy_and_queued(&m, &t);
    case_cancel_queued(&t);
    case_engine_goes_first(&m, &t);
    case_verify(&m);
    case_timeline_buffer();
    printf("test_capi_misuse: %d checks passed\n", g_checks);
    return 0;
}
