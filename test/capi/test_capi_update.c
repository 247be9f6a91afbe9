/* Filecoin SnapDeals through the C ABI: a development key of the 2 KiB
 * update circuit, a job from the vanilla partition proof bytes (written by
 * update_fixture.cpp) on a cpu engine whose proof verifies, and the
 * refusals: truncated or inconsistent vanilla bytes, a wrong partition
 * count, an unknown key or proof type, an h the type does not allow,
 * another comm_d_new at verification.
 *
 * Usage: test_capi_update <fixture prefix> */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk.h"
#include "capi_test_util.h"

/* Submits n vanilla proofs; returns the job or NULL (status in *st). */
static cuzk_job* submit(cuzk_engine* eng, uint32_t id, const uint8_t* pub, uint32_t h, uint8_t** v, size_t* len,
                        size_t n, cuzk_status* st)
{
    cuzk_job* job = NULL;
    *st = cuzk_update_submit(&job, eng, id, pub, pub + 32, pub + 64, h, (const uint8_t* const*)v, len, n, NULL);
    if (*st != CUZK_OK) cuzk_engine_last_error(g_msg, sizeof g_msg, eng);
    return job;
}

static void prove_verify_refuse(cuzk_engine* eng, const uint8_t* pub, uint8_t* v, size_t len)
{
    cuzk_key* key = NULL;
    cuzk_job* job = NULL;
    cuzk_status st = 1;
    uint32_t id = 0;
    uint8_t proof[192], other[96];
    uint8_t* vs[2] = {v, v};
    size_t lens[2] = {len, len};
    uint8_t* bad;
    size_t plen = 0;
    int32_t ok = 7;
    CHECK_CREATE(CUZK_ERR_INVALID_ARGUMENT, cuzk_update_key_setup_dev(&key, 5, 2, err, sizeof err));
    CHECK_CREATE(CUZK_OK, cuzk_update_key_setup_dev(&key, 0, 2, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&id, eng, key, NULL, "update", 0), cuzk_engine_last_error, eng);
    job = submit(eng, id, pub, 0, vs, lens, 1, &st);
    CHECK(st == CUZK_OK && job != NULL);
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(job, -1), cuzk_job_last_error, job);
    CHECK_STATUS(CUZK_OK, cuzk_job_status(&st, NULL, job), cuzk_job_last_error, job);
    CHECK(st == CUZK_OK);
    CHECK_STATUS(CUZK_OK, cuzk_job_proofs(proof, sizeof proof, &plen, job), cuzk_job_last_error, job);
    CHECK(plen == 192);
    cuzk_job_destroy(job);
    CHECK_STATUS(CUZK_OK, cuzk_update_verify(&ok, key, 0, pub, pub + 32, pub + 64, 1, proof, plen),
                 cuzk_key_last_error, key);
    CHECK(ok == 1);
    memcpy(other, pub, 96);
    other[33] ^= 1; /* comm_d_new */
    CHECK_STATUS(CUZK_OK, cuzk_update_verify(&ok, key, 0, other, other + 32, other + 64, 0, proof, plen),
                 cuzk_key_last_error, key);
    CHECK(ok == 0);
    CHECK_STATUS(CUZK_ERR_BAD_LENGTH, cuzk_update_verify(&ok, key, 0, pub, pub + 32, pub + 64, 0, proof, plen - 1),
                 cuzk_key_last_error, key);
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_update_verify(&ok, key, 0, pub, pub + 32, pub + 64, 2, proof, plen),
                 cuzk_key_last_error, key);
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_update_verify(&ok, key, 3, pub, pub + 32, pub + 64, 0, proof, plen),
                 cuzk_key_last_error, key);

    /* Refusals, before anything is queued. */
    lens[0] = len - 1; /* truncated */
    CHECK(submit(eng, id, pub, 0, vs, lens, 1, &st) == NULL && st == CUZK_ERR_BAD_LENGTH);
    CHECK(strstr(g_msg, "vanilla[0]") != NULL);
    lens[0] = len;
    bad = (uint8_t*)malloc(len);
    CHECK(bad != NULL);
    memcpy(bad, v, len);
    bad[40] ^= 1; /* the first apex leaf */
    vs[0] = bad;
    CHECK(submit(eng, id, pub, 0, vs, lens, 1, &st) == NULL && st == CUZK_ERR_BAD_FORMAT);
    CHECK(strstr(g_msg, "apex") != NULL);
    vs[0] = v;
    free(bad);
    CHECK(submit(eng, id, other, 0, vs, lens, 1, &st) == NULL && st == CUZK_ERR_BAD_FORMAT);
    CHECK(submit(eng, id, pub, 0, vs, lens, 2, &st) == NULL && st == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(submit(eng, id, pub, 3, vs, lens, 1, &st) == NULL && st == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(submit(eng, 99, pub, 0, vs, lens, 1, &st) == NULL && st == CUZK_ERR_INVALID_ARGUMENT);
    cuzk_key_destroy(key);
}

int main(int argc, char** argv)
{
    char path[4096];
    uint8_t* v;
    uint8_t* pub;
    size_t len = 0, pub_len = 0;
    cuzk_engine_options eo;
    cuzk_engine* eng = NULL;
    if (argc != 2) {
        fprintf(stderr, "usage: %s <fixture prefix>\n", argv[0]);
        return 2;
    }
    snprintf(path, sizeof path, "%s-update-0.vanilla", argv[1]);
    v = read_file(path, &len);
    snprintf(path, sizeof path, "%s-update.public", argv[1]);
    pub = read_file(path, &pub_len);
    CHECK(pub_len == 96);
    CHECK(cuzk_engine_options_init(&eo) == CUZK_OK);
    eo.backend = CUZK_BACKEND_CPU;
    eo.device_threads = 2;
    CHECK_CREATE(CUZK_OK, cuzk_engine_create(&eng, &eo, err, sizeof err));
    prove_verify_refuse(eng, pub, v, len);
    cuzk_engine_destroy(eng);
    free(v);
    free(pub);
    printf("test_capi_update: %d checks passed\n", g_checks);
    return 0;
}
