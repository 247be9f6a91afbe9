/* The C ABI's borrowed partitions, query densities and PoRep entry points:
 * proofs from Montgomery-form borrowed witnesses and a, b, c, each
 * partition released exactly once (completed, failed and cancelled jobs; a
 * refused submit releases nothing), and misuse of the new functions (NULL,
 * wrong handles, bad JSON, bad shapes, struct sizes, forms). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk.h"
#include "cuzk_filecoin.h"
#include "capi_test_util.h"

/* r and R = 2^256 mod r as little-endian u64 limbs. */
static const uint64_t R_MOD[4] = {0xffffffff00000001ull, 0x53bda402fffe5bfeull, 0x3339d80809a1d805ull,
                                  0x73eda753299d7d48ull};
static const uint64_t R_ONE[4] = {0x00000001fffffffeull, 0x5884b7fa00034802ull, 0x998c4fefecbc4ff5ull,
                                  0x1824b159acc5056full};

/* acc = acc + b mod r (both < r). */
static void add_mod(uint64_t acc[4], const uint64_t b[4])
{
    uint64_t s[4], carry = 0, borrow = 0, d[4];
    int i, ge = 1;
    for (i = 0; i < 4; ++i) {
        uint64_t t = acc[i] + b[i];
        uint64_t c1 = t < acc[i];
        s[i] = t + carry;
        carry = c1 | (s[i] < t);
    }
    for (i = 3; i >= 0; --i)
        if (s[i] != R_MOD[i]) {
            ge = s[i] > R_MOD[i];
            break;
        }
    if (carry || ge) {
        for (i = 0; i < 4; ++i) {
            uint64_t t = s[i] - R_MOD[i];
            uint64_t b1 = s[i] < R_MOD[i];
            d[i] = t - borrow;
            borrow = b1 | (t < borrow);
        }
        memcpy(s, d, sizeof d);
    }
    memcpy(acc, s, sizeof s);
}

/* The Montgomery form v·R mod r of a small non-negative v, as 32 bytes. */
static void mont(uint8_t out[32], unsigned v)
{
    uint64_t acc[4] = {0, 0, 0, 0};
    unsigned k;
    int i, j;
    for (k = 0; k < v; ++k) add_mod(acc, R_ONE);
    for (i = 0; i < 4; ++i)
        for (j = 0; j < 8; ++j) out[8 * i + j] = (uint8_t)(acc[i] >> (8 * j));
}

/* The small circuit's witness and a, b, c in Montgomery form (x, y small).
 * The arrays are 8-byte aligned (the leading uint64_t), so the engine reads
 * them in place; an unaligned copy takes the converting path. */
struct mont_part {
    uint64_t align;
    uint8_t inputs[64], aux[128], a[96], b[96], c[96];
};
static void mont_witness(struct mont_part* m, unsigned x, unsigned y)
{
    mont(m->inputs, 1);
    mont(m->inputs + 32, x * y + 3);
    mont(m->aux, x);
    mont(m->aux + 32, y);
    mont(m->aux + 64, x * y);
    mont(m->aux + 96, 2 * (x + y));
    mont(m->a, x), mont(m->b, y), mont(m->c, x * y);
    mont(m->a + 32, x * y), mont(m->b + 32, 1), mont(m->c + 32, x * y);
    mont(m->a + 64, x + y), mont(m->b + 64, 2), mont(m->c + 64, 2 * (x + y));
}

static int g_released[8];
static void on_release(void* user, size_t partition)
{
    (void)user;
    if (partition < 8) ++g_released[partition];
}

static void fill(cuzk_borrowed_partition* p, struct mont_part* m, uint32_t kind)
{
    CHECK(cuzk_borrowed_partition_init(p) == CUZK_OK);
    p->kind = kind;
    p->form = CUZK_FORM_MONTGOMERY;
    p->inputs = m->inputs, p->num_inputs = 2;
    p->aux = m->aux, p->num_aux = 4;
    if (kind == CUZK_PARTITION_ABC) p->a = m->a, p->b = m->b, p->c = m->c, p->num_constraints = 3;
    p->release = on_release;
}

/* Proves the job and checks each partition's proof against z = x·y + 3. */
static void check_job(cuzk_job* job, const cuzk_key* key, const unsigned* xs, const unsigned* ys, int n)
{
    cuzk_status code;
    int i;
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(job, -1), cuzk_job_last_error, job);
    CHECK(cuzk_job_status(&code, NULL, job) == CUZK_OK);
    if (code != CUZK_OK) fprintf(stderr, "job: %s\n", cuzk_job_message(job));
    CHECK(code == CUZK_OK);
    for (i = 0; i < n; ++i) {
        uint8_t proof[192], pub[32], want[32];
        size_t sz;
        int32_t ok = 0;
        CHECK_STATUS(CUZK_OK, cuzk_job_proof(proof, sizeof proof, &sz, job, (size_t)i), cuzk_job_last_error, job);
        CHECK_STATUS(CUZK_OK, cuzk_job_public_inputs(pub, sizeof pub, &sz, job, (size_t)i), cuzk_job_last_error, job);
        uint8_t win[64], waux[128];
        small_witness(win, waux, (long long)xs[i], (long long)ys[i]);   /* canonical z = x·y + 3 */
        memcpy(want, win + 32, 32);
        CHECK(memcmp(pub, want, 32) == 0);
        CHECK_STATUS(CUZK_OK, cuzk_key_verify(&ok, key, proof, 192, pub, 1), cuzk_key_last_error, key);
        CHECK(ok == 1);
    }
}

/* What the borrowed cases share: an engine with the small circuit's key
 * (kid) and the key read back from .params added with densities (kd). */
struct borrowed {
    cuzk_pce* pce;
    cuzk_key *key, *pkey;
    cuzk_engine* eng;
    uint32_t kid, kd;
    struct mont_part m[3];
    cuzk_borrowed_partition parts[3];
};

static const unsigned xs[3] = {3, 5, 7}, ys[3] = {4, 6, 9};

/* WITNESS partitions, read at synthesis: each released exactly once. */
static void case_witness(struct borrowed* t)
{
    cuzk_job* job = NULL;
    int i;
    CASE("borrowed witness partitions: proved, each released once");
    for (i = 0; i < 3; ++i) mont_witness(&t->m[i], xs[i], ys[i]);
    CHECK_CREATE(CUZK_OK, cuzk_engine_create(&t->eng, NULL, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&t->kid, t->eng, t->key, t->pce, "small", 0), cuzk_engine_last_error,
                 t->eng);
    memset(g_released, 0, sizeof g_released);
    for (i = 0; i < 3; ++i) fill(&t->parts[i], &t->m[i], CUZK_PARTITION_WITNESS);
    CHECK_STATUS(CUZK_OK, cuzk_engine_submit_borrowed(&job, t->eng, t->kid, t->parts, 3, NULL), cuzk_engine_last_error,
                 t->eng);
    check_job(job, t->key, xs, ys, 3);
    cuzk_job_destroy(job);
    for (i = 0; i < 3; ++i) CHECK(g_released[i] == 1);
}

/* A key reloaded from .params knows no densities: add it with the circuit's. */
static void case_density(struct borrowed* t)
{
    const uint8_t a_aux = 0x7, b_in = 0x1, b_aux = 0x2;
    cuzk_query_density d;
    CASE("query densities: a key from .params added with the circuit's");
    CHECK_STATUS(CUZK_OK, cuzk_key_save_params(t->key, "borrowed_small.params"), cuzk_key_last_error, t->key);
    CHECK_CREATE(CUZK_OK, cuzk_key_load_params(&t->pkey, "borrowed_small.params", 0, 0, err, sizeof err));
    CHECK(cuzk_engine_add_key(&t->kd, t->eng, t->pkey, NULL, "p", 0) == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(cuzk_query_density_init(&d) == CUZK_OK);
    d.a_aux = &a_aux, d.a_aux_bits = 4, d.b_input = &b_in, d.b_input_bits = 2, d.b_aux = &b_aux, d.b_aux_bits = 3;
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_engine_add_key_density(&t->kd, t->eng, t->pkey, &d, "p", 0),
                 cuzk_engine_last_error, t->eng);
    CHECK(strstr(LAST_ERROR(cuzk_engine_last_error, t->eng), "b_aux") != NULL);
    d.b_aux_bits = 4;
    d.struct_size = 0;
    CHECK(cuzk_engine_add_key_density(&t->kd, t->eng, t->pkey, &d, "p", 0) == CUZK_ERR_STRUCT_SIZE);
    d.struct_size = sizeof d;
    CHECK(cuzk_engine_add_key_density(&t->kd, t->eng, NULL, &d, "p", 0) == CUZK_ERR_NULL);
    CHECK(cuzk_engine_add_key_density(&t->kd, t->eng, (cuzk_key*)t->eng, &d, "p", 0) == CUZK_ERR_INVALID_HANDLE);
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key_density(&t->kd, t->eng, t->pkey, &d, "p", 0), cuzk_engine_last_error,
                 t->eng);
}

/* ABC partitions in Montgomery form (read in place, released when the
 * engine has read them: by the job's end here, since nothing failed);
 * the same buffer in two partitions is released once per partition. */
static void case_abc(struct borrowed* t)
{
    static const unsigned x2[2] = {3, 3}, y2[2] = {4, 4};
    cuzk_job* job = NULL;
    CASE("borrowed a, b, c partitions: proved, released once per partition");
    memset(g_released, 0, sizeof g_released);
    fill(&t->parts[0], &t->m[0], CUZK_PARTITION_ABC);
    fill(&t->parts[1], &t->m[0], CUZK_PARTITION_ABC);
    CHECK(cuzk_engine_submit_borrowed(&job, t->eng, t->kd, t->parts, 2, NULL) == CUZK_OK);
    check_job(job, t->pkey, x2, y2, 2);
    CHECK(g_released[0] == 1 && g_released[1] == 1);
    cuzk_job_destroy(job);
    CHECK(g_released[0] == 1 && g_released[1] == 1);
}

/* A witness partition for a key without PCE, a bad form, a wrong count: refused, nothing released. */
static void case_refused(struct borrowed* t)
{
    cuzk_borrowed_partition* parts = t->parts;
    cuzk_job* job = NULL;
    int i;
    CASE("refused submits release nothing");
    memset(g_released, 0, sizeof g_released);
    fill(&parts[0], &t->m[0], CUZK_PARTITION_WITNESS);
    CHECK(cuzk_engine_submit_borrowed(&job, t->eng, t->kd, parts, 1, NULL) == CUZK_ERR_INVALID_ARGUMENT);
    fill(&parts[0], &t->m[0], CUZK_PARTITION_ABC);
    parts[0].form = 7;
    CHECK(cuzk_engine_submit_borrowed(&job, t->eng, t->kd, parts, 1, NULL) == CUZK_ERR_INVALID_ARGUMENT);
    fill(&parts[0], &t->m[0], CUZK_PARTITION_ABC);
    parts[0].num_aux = 3;
    CHECK(cuzk_engine_submit_borrowed(&job, t->eng, t->kd, parts, 1, NULL) == CUZK_ERR_BAD_LENGTH);
    fill(&parts[0], &t->m[0], CUZK_PARTITION_ABC);
    parts[0].aux = NULL;
    CHECK(cuzk_engine_submit_borrowed(&job, t->eng, t->kd, parts, 1, NULL) == CUZK_ERR_NULL);
    CHECK(cuzk_engine_submit_borrowed(NULL, t->eng, t->kd, parts, 1, NULL) == CUZK_ERR_NULL);
    CHECK(cuzk_engine_submit_borrowed(&job, NULL, t->kd, parts, 1, NULL) == CUZK_ERR_NULL);
    CHECK(cuzk_engine_submit_borrowed(&job, (cuzk_engine*)t->pkey, t->kd, parts, 1, NULL) == CUZK_ERR_INVALID_HANDLE);
    CHECK(cuzk_borrowed_partition_init(NULL) == CUZK_ERR_NULL && cuzk_query_density_init(NULL) == CUZK_ERR_NULL);
    for (i = 0; i < 3; ++i) CHECK(g_released[i] == 0);
}

/* A non-canonical Montgomery value fails the job when read; still released once. */
static void case_non_canonical(struct borrowed* t)
{
    cuzk_job* job = NULL;
    cuzk_status code;
    CASE("a non-canonical borrowed value fails the job, released once");
    fill(&t->parts[0], &t->m[1], CUZK_PARTITION_WITNESS);
    memset(t->m[1].aux + 32, 0xff, 32);
    CHECK(cuzk_engine_submit_borrowed(&job, t->eng, t->kid, t->parts, 1, NULL) == CUZK_OK);
    CHECK(cuzk_job_wait(job, -1) == CUZK_OK);
    CHECK(cuzk_job_status(&code, NULL, job) == CUZK_OK && code == CUZK_ERR_NON_CANONICAL);
    cuzk_job_destroy(job);
    CHECK(g_released[0] == 1);
}

/* Unaligned Montgomery arrays: converted by the synthesis stage instead of read in place. */
static void case_unaligned(struct borrowed* t)
{
    static uint8_t raw[1 + 64 + 128];
    static const unsigned x1[1] = {5}, y1[1] = {6};
    struct mont_part w;
    cuzk_job* job = NULL;
    CASE("unaligned borrowed arrays: converted, proved, released once");
    mont_witness(&w, 5, 6);
    memcpy(raw + 1, w.inputs, 64);
    memcpy(raw + 1 + 64, w.aux, 128);
    memset(g_released, 0, sizeof g_released);
    fill(&t->parts[0], &w, CUZK_PARTITION_WITNESS);
    t->parts[0].inputs = raw + 1;
    t->parts[0].aux = raw + 1 + 64;
    CHECK(((uintptr_t)t->parts[0].aux & 7) != 0);
    CHECK(cuzk_engine_submit_borrowed(&job, t->eng, t->kid, t->parts, 1, NULL) == CUZK_OK);
    check_job(job, t->key, x1, y1, 1);
    cuzk_job_destroy(job);
    CHECK(g_released[0] == 1);
}

/* The engine destroyed right after submit: whatever happened, one release each. */
static void case_engine_destroyed(struct borrowed* t)
{
    cuzk_job* job = NULL;
    int i;
    CASE("the engine destroyed right after submit: one release each");
    memset(g_released, 0, sizeof g_released);
    for (i = 0; i < 3; ++i) fill(&t->parts[i], &t->m[i == 1 ? 0 : i], CUZK_PARTITION_WITNESS);
    CHECK(cuzk_engine_submit_borrowed(&job, t->eng, t->kid, t->parts, 3, NULL) == CUZK_OK);
    cuzk_engine_destroy(t->eng);
    CHECK(cuzk_job_wait(job, -1) == CUZK_OK);
    for (i = 0; i < 3; ++i) CHECK(g_released[i] == 1);
    cuzk_job_destroy(job);
    cuzk_key_destroy(t->pkey);
    remove("borrowed_small.params");
}

static const char bad_json[] = "{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":7}";

/* PoRep shapes and key loading under misuse; leaves *s the registered shape 0. */
static void case_porep_shapes(cuzk_porep_shape* s)
{
    cuzk_key* k = NULL;
    char e[512];
    CASE("PoRep: shapes and keys misused");
    CHECK(cuzk_porep_shape_init(NULL) == CUZK_ERR_NULL);
    CHECK(cuzk_porep_shape_registered(s, 99) == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(cuzk_porep_shape_registered(s, 8) == CUZK_OK);   /* 32 GiB V1_1 */
    CHECK(s->nodes == (1ull << 30) && s->partitions == 10 && s->layers == 11 && s->struct_size == sizeof *s);
    CHECK(cuzk_porep_shape_of_c1(s, (const uint8_t*)bad_json, strlen(bad_json), e, sizeof e) == CUZK_ERR_BAD_FORMAT);
    CHECK(strstr(e, "vanilla_proofs") != NULL);
    CHECK(cuzk_porep_shape_of_c1(s, NULL, 0, e, sizeof e) == CUZK_ERR_NULL);
    CHECK(cuzk_porep_shape_init(s) == CUZK_OK && s->registered_proof == CUZK_POREP_CUSTOM);
    s->nodes = 7, s->layers = 2, s->challenges = 1, s->partitions = 1, s->tree_base = 8;
    CHECK(cuzk_porep_key_setup_dev(&k, s, 1, e, sizeof e) == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(e, "nodes") != NULL);
    s->nodes = 8;
    s->struct_size = 4;
    CHECK(cuzk_porep_key_setup_dev(&k, s, 1, e, sizeof e) == CUZK_ERR_STRUCT_SIZE);
    CHECK(cuzk_porep_key_setup_dev(&k, NULL, 1, e, sizeof e) == CUZK_ERR_NULL);
    CHECK(cuzk_porep_key_load(&k, NULL, "x.params", 1, e, sizeof e) == CUZK_ERR_NULL);
    CHECK(cuzk_porep_shape_registered(s, 0) == CUZK_OK);
    CHECK(cuzk_porep_key_load(&k, s, "does-not-exist.params", 1, e, sizeof e) == CUZK_ERR_IO);
    CHECK(cuzk_porep_key_load_cached(&k, NULL, "x.params", "pce-cache", 1, e, sizeof e) == CUZK_ERR_NULL);
    CHECK(cuzk_porep_key_load_cached(NULL, s, "x.params", "pce-cache", 1, e, sizeof e) == CUZK_ERR_NULL);
    CHECK(cuzk_porep_key_load_cached(&k, s, NULL, "pce-cache", 1, e, sizeof e) == CUZK_ERR_NULL);
    CHECK(strstr(e, "cuzk_porep_key_load_cached") != NULL);
    CHECK(cuzk_porep_key_load_cached(&k, s, "does-not-exist.params", "pce-cache", 1, e, sizeof e) == CUZK_ERR_IO);
    CHECK(cuzk_porep_key_load_cached(&k, s, "does-not-exist.params", NULL, 1, e, sizeof e) == CUZK_ERR_IO);
}

/* C2 submits and PoRep verification under misuse, with the small key and shape s. */
static void case_porep_c2_verify(cuzk_key* key, const cuzk_porep_shape* s)
{
    cuzk_engine* eng = NULL;
    cuzk_job* job = NULL;
    uint8_t id32[32] = {0}, proof[192] = {0};
    uint32_t kid = 0;
    int32_t ok = 7;
    CASE("PoRep: C2 submits and verification misused");
    CHECK_CREATE(CUZK_OK, cuzk_engine_create(&eng, NULL, err, sizeof err));
    CHECK(cuzk_engine_add_key(&kid, eng, key, NULL, "small", 0) == CUZK_OK);   /* dev key: densities known */
    CHECK(cuzk_porep_c2_submit(&job, NULL, kid, (const uint8_t*)bad_json, strlen(bad_json), id32, 1, NULL) == CUZK_ERR_NULL);
    CHECK(cuzk_porep_c2_submit(&job, (cuzk_engine*)key, kid, (const uint8_t*)bad_json, 3, id32, 1, NULL) ==
          CUZK_ERR_INVALID_HANDLE);
    CHECK(cuzk_porep_c2_submit(&job, eng, kid, NULL, 0, id32, 1, NULL) == CUZK_ERR_NULL);
    CHECK_STATUS(CUZK_ERR_BAD_FORMAT,
                 cuzk_porep_c2_submit(&job, eng, kid, (const uint8_t*)bad_json, strlen(bad_json), id32, 1, NULL),
                 cuzk_engine_last_error, eng);
    CHECK(cuzk_porep_c2_submit(&job, eng, kid + 99, (const uint8_t*)bad_json, strlen(bad_json), NULL, 1, NULL) ==
          CUZK_ERR_INVALID_ARGUMENT);
    cuzk_engine_destroy(eng);

    CHECK(cuzk_porep_verify(&ok, NULL, s, id32, 1, id32, id32, id32, id32, proof, 192) == CUZK_ERR_NULL);
    CHECK(cuzk_porep_verify(&ok, (cuzk_key*)eng, s, id32, 1, id32, id32, id32, id32, proof, 192) ==
          CUZK_ERR_INVALID_HANDLE);   /* a destroyed engine's token */
    CHECK(cuzk_porep_verify(&ok, key, s, NULL, 1, id32, id32, id32, id32, proof, 192) == CUZK_ERR_NULL);
    CHECK_STATUS(CUZK_ERR_BAD_LENGTH, cuzk_porep_verify(&ok, key, s, id32, 1, id32, id32, id32, id32, proof, 191),
                 cuzk_key_last_error, key);
    memset(id32, 0xff, 32);   /* comm_d >= r */
    CHECK(cuzk_porep_verify(&ok, key, s, id32, 1, id32, id32, id32, id32, proof, 192) == CUZK_ERR_NON_CANONICAL);
}

int main(void)
{
    static struct borrowed t;
    cuzk_porep_shape s;
    t.pce = record_small_circuit();
    CHECK_CREATE(CUZK_OK, cuzk_key_setup_dev(&t.key, t.pce, CUZK_CONVENTION_BELLPERSON, 1, err, sizeof err));
    case_witness(&t);
    case_density(&t);
    case_abc(&t);
    case_refused(&t);
    case_non_canonical(&t);
    case_unaligned(&t);
    case_engine_destroyed(&t);
    case_porep_shapes(&s);
    case_porep_c2_verify(t.key, &s);
    cuzk_key_destroy(t.key);
    cuzk_pce_destroy(t.pce);
    if (g_checks < 50) return 1;
    return 0;
}
