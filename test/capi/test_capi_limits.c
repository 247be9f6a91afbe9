/* The C ABI's limits on what a host passes: struct_size is bounded (no read
 * or write past a plausible struct), counts are checked before anything is
 * reserved, a size query reads no preimage, an infinite-looking timeout does
 * not overflow, and oversized requests report a cuzk error rather than raw
 * standard-library text under CUZK_ERR_INTERNAL. */
#include <stdint.h>

#include "capi_test_util.h"

static int contains(const char* s, const char* sub) { return s != NULL && strstr(s, sub) != NULL; }
#define CHECK_MSG(s, sub) CHECK(contains((s), (sub)))
#define CHECK_NOT_RAW(s) CHECK(!contains((s), "internal error") && !contains((s), "vector") && !contains((s), "bad_alloc"))

/* A struct_size far past the struct, inside a zeroed heap block so that the
 * unfixed library's reads and writes stayed in bounds: must be refused. */
static void case_oversized_struct_size(void)
{
    char err[256];
    const size_t block = (size_t)2 << 20;
    unsigned char* mem = (unsigned char*)calloc(1, block);
    cuzk_engine* e = NULL;
    cuzk_pce* p = NULL;
    cuzk_engine_options* o = (cuzk_engine_options*)(void*)mem;
    cuzk_pce_info* info = (cuzk_pce_info*)(void*)mem;
    CASE("struct_size far past the struct");
    CHECK(mem != NULL);
    CHECK(cuzk_engine_options_init(o) == CUZK_OK);
    o->synth_workers = 1;
    o->workers_per_device = 1;
    o->struct_size = 1u << 20;
    CHECK(cuzk_engine_create(&e, o, err, sizeof err) == CUZK_ERR_STRUCT_SIZE);
    CHECK(e == NULL);
    CHECK_MSG(err, "at most");
    /* Output struct: the library must not zero a megabyte of host memory. */
    memset(mem, 0xab, block);
    CHECK_CREATE(CUZK_OK, cuzk_sha256_pce(&p, 0, err, sizeof err));
    info->struct_size = 1u << 20;
    CHECK_STATUS(CUZK_ERR_STRUCT_SIZE, cuzk_pce_info_get(info, p), cuzk_pce_last_error, p);
    CHECK(mem[(size_t)1 << 19] == 0xab);
    cuzk_pce_destroy(p);
    free(mem);
}

/* SHA-256 helpers: a size query never reads the preimage; absurd lengths are
 * refused as invalid arguments, not INTERNAL with std::vector's text. */
static void case_sha256_limits(void)
{
    char err[256];
    size_t ni = 0, na = 0, ni2 = 0, na2 = 0;
    uint8_t msg[3] = {1, 2, 3};
    cuzk_pce* p = NULL;
    CASE("SHA-256: size queries and absurd lengths");
    /* Size query with a NULL preimage of 3 bytes: counts only. */
    CHECK_CREATE(CUZK_OK, cuzk_sha256_witness(NULL, 0, &ni, NULL, 0, &na, NULL, 3, err, sizeof err));
    CHECK_CREATE(CUZK_OK, cuzk_sha256_witness(NULL, 0, &ni2, NULL, 0, &na2, msg, 3, err, sizeof err));
    CHECK(ni == 3 && ni2 == 3 && na == na2 && na > 24);
    {
        cuzk_status s = cuzk_sha256_witness(NULL, 0, &ni, NULL, 0, &na, msg, SIZE_MAX, err, sizeof err);
        CHECK(s == CUZK_ERR_INVALID_ARGUMENT);
        CHECK_NOT_RAW(err);
        s = cuzk_sha256_pce(&p, SIZE_MAX, err, sizeof err);
        CHECK(s == CUZK_ERR_INVALID_ARGUMENT && p == NULL);
        CHECK_NOT_RAW(err);
        s = cuzk_timeline_buffer_create((cuzk_timeline_buffer**)(void*)&p, SIZE_MAX, err, sizeof err);
        CHECK(s != CUZK_ERR_INTERNAL);
        CHECK_NOT_RAW(err);
        if (s == CUZK_OK) cuzk_timeline_buffer_destroy((cuzk_timeline_buffer*)(void*)p);
    }
}

/* num_parts is checked before anything is reserved; a huge timeout waits. */
static void case_submit_limits(void)
{
    cuzk_pce* small;
    cuzk_key* key = NULL;
    cuzk_engine* eng = NULL;
    cuzk_engine_options o;
    uint32_t k = 0;
    uint8_t in[64], aux[128];
    cuzk_partition part;
    cuzk_job* job = NULL;
    CASE("submit: num_parts and the timeout");
    small = record_small_circuit();
    CHECK_CREATE(CUZK_OK, cuzk_key_setup_dev(&key, small, CUZK_CONVENTION_BELLPERSON, 0, err, sizeof err));
    CHECK(cuzk_engine_options_init(&o) == CUZK_OK);
    o.synth_workers = 1;
    o.workers_per_device = 1;
    CHECK_CREATE(CUZK_OK, cuzk_engine_create(&eng, &o, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&k, eng, key, small, NULL, 0), cuzk_engine_last_error, eng);
    small_witness(in, aux, 3, 4);
    cuzk_partition_init(&part);
    part.inputs = in;
    part.num_inputs = 2;
    part.aux = aux;
    part.num_aux = 4;
    /* 2^40 partitions (only one exists): refused before any reservation. */
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_engine_submit(&job, eng, k, &part, (size_t)1 << 40, NULL),
                 cuzk_engine_last_error, eng);
    CHECK_MSG(LAST_ERROR(cuzk_engine_last_error, eng), "num_parts");
    CHECK(job == NULL);
    CHECK_STATUS(CUZK_OK, cuzk_engine_submit(&job, eng, k, &part, 1, NULL), cuzk_engine_last_error, eng);
    /* INT64_MAX ms: waits for the job (no overflow into an instant timeout). */
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(job, INT64_MAX), cuzk_job_last_error, job);
    cuzk_job_destroy(job);
    cuzk_engine_destroy(eng);
    cuzk_key_destroy(key);
    cuzk_pce_destroy(small);
}

int main(void)
{
    case_oversized_struct_size();
    case_sha256_limits();
    case_submit_limits();
    return 0;
}
