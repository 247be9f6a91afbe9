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
#include "cuzk_filecoin.h"
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

/* What the cases share: the engine, the fixture's public values and vanilla
 * proof bytes, and the development key. */
struct update {
    cuzk_engine* eng;
    const uint8_t* pub; /* comm_r_old, comm_r_new, comm_d_new */
    uint8_t* v;
    size_t len;
    cuzk_key* key;
    uint32_t id;
    uint8_t proof[192];
    size_t plen;
};

static void case_prove(struct update* u)
{
    cuzk_job* job = NULL;
    cuzk_status st = 1;
    uint8_t* vs[1];
    size_t lens[1];
    CASE("prove from the vanilla bytes");
    vs[0] = u->v;
    lens[0] = u->len;
    CHECK_CREATE(CUZK_ERR_INVALID_ARGUMENT, cuzk_update_key_setup_dev(&u->key, 5, 2, err, sizeof err));
    CHECK_CREATE(CUZK_OK, cuzk_update_key_setup_dev(&u->key, 0, 2, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&u->id, u->eng, u->key, NULL, "update", 0), cuzk_engine_last_error,
                 u->eng);
    job = submit(u->eng, u->id, u->pub, 0, vs, lens, 1, &st);
    CHECK(st == CUZK_OK && job != NULL);
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(job, -1), cuzk_job_last_error, job);
    CHECK_STATUS(CUZK_OK, cuzk_job_status(&st, NULL, job), cuzk_job_last_error, job);
    CHECK(st == CUZK_OK);
    CHECK_STATUS(CUZK_OK, cuzk_job_proofs(u->proof, sizeof u->proof, &u->plen, job), cuzk_job_last_error, job);
    CHECK(u->plen == 192);
    cuzk_job_destroy(job);
}

static void case_verify(struct update* u)
{
    const uint8_t* pub = u->pub;
    uint8_t other[96];
    int32_t ok = 7;
    CASE("verify: the proof, another comm_d_new, wrong lengths and arguments");
    CHECK_STATUS(CUZK_OK, cuzk_update_verify(&ok, u->key, 0, pub, pub + 32, pub + 64, 1, u->proof, u->plen),
                 cuzk_key_last_error, u->key);
    CHECK(ok == 1);
    memcpy(other, pub, 96);
    other[33] ^= 1; /* comm_d_new */
    CHECK_STATUS(CUZK_OK, cuzk_update_verify(&ok, u->key, 0, other, other + 32, other + 64, 0, u->proof, u->plen),
                 cuzk_key_last_error, u->key);
    CHECK(ok == 0);
    CHECK_STATUS(CUZK_ERR_BAD_LENGTH,
                 cuzk_update_verify(&ok, u->key, 0, pub, pub + 32, pub + 64, 0, u->proof, u->plen - 1),
                 cuzk_key_last_error, u->key);
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT,
                 cuzk_update_verify(&ok, u->key, 0, pub, pub + 32, pub + 64, 2, u->proof, u->plen),
                 cuzk_key_last_error, u->key);
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT,
                 cuzk_update_verify(&ok, u->key, 3, pub, pub + 32, pub + 64, 0, u->proof, u->plen),
                 cuzk_key_last_error, u->key);
}

/* Refusals, before anything is queued. */
static void case_refusals(struct update* u)
{
    cuzk_status st = 1;
    uint8_t* vs[2];
    size_t lens[2];
    uint8_t other[96];
    uint8_t* bad;
    CASE("refusals of bad vanilla bytes and arguments");
    vs[0] = vs[1] = u->v;
    lens[0] = lens[1] = u->len;
    memcpy(other, u->pub, 96);
    other[33] ^= 1; /* comm_d_new */
    lens[0] = u->len - 1; /* truncated */
    CHECK(submit(u->eng, u->id, u->pub, 0, vs, lens, 1, &st) == NULL && st == CUZK_ERR_BAD_LENGTH);
    CHECK(strstr(g_msg, "vanilla[0]") != NULL);
    lens[0] = u->len;
    bad = (uint8_t*)malloc(u->len);
    CHECK(bad != NULL);
    memcpy(bad, u->v, u->len);
    bad[40] ^= 1; /* the first apex leaf */
    vs[0] = bad;
    CHECK(submit(u->eng, u->id, u->pub, 0, vs, lens, 1, &st) == NULL && st == CUZK_ERR_BAD_FORMAT);
    CHECK(strstr(g_msg, "apex") != NULL);
    vs[0] = u->v;
    free(bad);
    CHECK(submit(u->eng, u->id, other, 0, vs, lens, 1, &st) == NULL && st == CUZK_ERR_BAD_FORMAT);
    CHECK(submit(u->eng, u->id, u->pub, 0, vs, lens, 2, &st) == NULL && st == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(submit(u->eng, u->id, u->pub, 3, vs, lens, 1, &st) == NULL && st == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(submit(u->eng, 99, u->pub, 0, vs, lens, 1, &st) == NULL && st == CUZK_ERR_INVALID_ARGUMENT);
}

/* The fixture's files (prefix-update-0.vanilla, prefix-update.public) and a cpu engine. */
static void case_setup(struct update* u, const char* prefix, uint8_t** pub)
{
    char path[4096];
    size_t pub_len = 0;
    cuzk_engine_options eo;
    CASE("the fixture and a cpu engine");
    snprintf(path, sizeof path, "%s-update-0.vanilla", prefix);
    u->v = read_file(path, &u->len);
    snprintf(path, sizeof path, "%s-update.public", prefix);
    *pub = read_file(path, &pub_len);
    u->pub = *pub;
    CHECK(pub_len == 96);
    CHECK(cuzk_engine_options_init(&eo) == CUZK_OK);
    eo.backend = CUZK_BACKEND_CPU;
    eo.device_threads = 2;
    CHECK_CREATE(CUZK_OK, cuzk_engine_create(&u->eng, &eo, err, sizeof err));
}

int main(int argc, char** argv)
{
    struct update u;
    uint8_t* pub = NULL;
    if (argc != 2) {
        fprintf(stderr, "usage: %s <fixture prefix>\n", argv[0]);
        return 2;
    }
    memset(&u, 0, sizeof u);
    case_setup(&u, argv[1], &pub);
    case_prove(&u);
    case_verify(&u);
    case_refusals(&u);
    cuzk_key_destroy(u.key);
    cuzk_engine_destroy(u.eng);
    free(u.v);
    free(pub);
    printf("test_capi_update: %d checks passed\n", g_checks);
    return 0;
}
