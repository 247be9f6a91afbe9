/* Filecoin PoSt through the C ABI: registered and custom PoSt shapes, the
 * challenged leaves of a sector list, development keys of the 2 KiB
 * WindowPoSt V1_2 and WinningPoSt circuits, jobs from vanilla proof bytes
 * (written by post_fixture.cpp) on a cpu engine whose proofs verify, and
 * the refusals: truncated or inconsistent vanilla bytes, a wrong sector
 * count, another randomness at verification.
 *
 * Usage: test_capi_post <fixture prefix> */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk.h"
#include "cuzk_filecoin.h"
#include "capi_test_util.h"


static void randomness_of(uint8_t* r, uint8_t v)
{
    memset(r, v, 32);
    r[31] = 0;
}

static void case_shapes(void)
{
    cuzk_post_shape s;
    uint64_t leaves[20];
    size_t count = 5;
    uint64_t ids[2] = {1, 2};
    uint8_t r[32];
    CASE("registered and custom shapes, the challenged leaves");
    CHECK(cuzk_post_shape_init(NULL) == CUZK_ERR_NULL);
    CHECK(cuzk_post_shape_registered(&s, 15) == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(cuzk_post_shape_registered(&s, 13) == CUZK_OK); /* StackedDrgWindow32GiBV1_2 */
    CHECK(s.type == CUZK_POST_WINDOW && s.sector_count == 2349 && s.challenge_count == 10);
    CHECK(s.nodes == (uint64_t)1 << 30 && s.tree_base == 8 && s.tree_sub == 8 && s.tree_top == 0);
    CHECK(s.api == CUZK_POREP_API_1_2);
    CHECK(cuzk_post_shape_registered(&s, 3) == CUZK_OK); /* StackedDrgWinning32GiBV1 */
    CHECK(s.type == CUZK_POST_WINNING && s.sector_count == 1 && s.challenge_count == 66);
    CHECK(cuzk_post_shape_registered(&s, 10) == CUZK_OK);
    randomness_of(r, 5);
    CHECK(cuzk_post_sector_challenges(leaves, &count, &s, r, ids, 2) == CUZK_ERR_BUFFER_TOO_SMALL);
    CHECK(count == 20);
    CHECK(cuzk_post_sector_challenges(leaves, &count, &s, r, ids, 2) == CUZK_OK);
    CHECK(leaves[0] < 64 && leaves[19] < 64);
    /* A custom shape: WinningPoSt under API 1.2 does not exist. */
    CHECK(cuzk_post_shape_init(&s) == CUZK_OK);
    s.type = CUZK_POST_WINNING;
    s.api = CUZK_POREP_API_1_2;
    s.nodes = 64;
    s.sector_count = 1;
    s.challenge_count = 4;
    s.tree_base = 8;
    count = 20;
    CHECK(cuzk_post_sector_challenges(leaves, &count, &s, r, ids, 1) == CUZK_ERR_INVALID_ARGUMENT);
}

/* Submits n vanilla proofs; returns the job or NULL (status in *st). */
static cuzk_job* submit(cuzk_engine* eng, uint32_t id, const uint8_t* r, uint8_t** v, size_t* len, size_t n,
                        cuzk_status* st)
{
    cuzk_job* job = NULL;
    *st = cuzk_post_submit(&job, eng, id, r, (const uint8_t* const*)v, len, n, 0, NULL);
    if (*st != CUZK_OK) cuzk_engine_last_error(g_msg, sizeof g_msg, eng);
    return job;
}

/* Proves the n vanilla proofs under `shape_id`'s dev key; checks the proof verifies. */
static void case_prove_and_verify(const char* name, cuzk_engine* eng, int32_t shape_id, uint8_t** v, size_t* len,
                                  size_t n)
{
    cuzk_post_shape s;
    cuzk_key* key = NULL;
    cuzk_job* job = NULL;
    cuzk_status st = 1;
    uint32_t id = 0;
    uint8_t r[32], other[32], proof[192], comm_rs[64];
    uint64_t ids[2];
    size_t i, plen = 0;
    int32_t ok = 7;
    CASE(name);
    CHECK(cuzk_post_shape_registered(&s, shape_id) == CUZK_OK);
    CHECK_CREATE(CUZK_OK, cuzk_post_key_setup_dev(&key, &s, 2, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&id, eng, key, NULL, "post", 0), cuzk_engine_last_error, eng);
    randomness_of(r, 5);
    job = submit(eng, id, r, v, len, n, &st);
    CHECK(st == CUZK_OK && job != NULL);
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(job, -1), cuzk_job_last_error, job);
    CHECK_STATUS(CUZK_OK, cuzk_job_status(&st, NULL, job), cuzk_job_last_error, job);
    CHECK(st == CUZK_OK);
    CHECK_STATUS(CUZK_OK, cuzk_job_proofs(proof, sizeof proof, &plen, job), cuzk_job_last_error, job);
    CHECK(plen == 192);
    cuzk_job_destroy(job);
    for (i = 0; i < n; ++i) { /* sector_id: bytes 0..8 LE; comm_r: bytes 8..40 */
        int b;
        ids[i] = 0;
        for (b = 7; b >= 0; --b) ids[i] = ids[i] << 8 | v[i][b];
        memcpy(comm_rs + 32 * i, v[i] + 8, 32);
    }
    CHECK_STATUS(CUZK_OK, cuzk_post_verify(&ok, key, &s, r, ids, comm_rs, n, 0, proof, plen), cuzk_key_last_error, key);
    CHECK(ok == 1);
    randomness_of(other, 6);
    CHECK_STATUS(CUZK_OK, cuzk_post_verify(&ok, key, &s, other, ids, comm_rs, n, 0, proof, plen), cuzk_key_last_error,
                 key);
    CHECK(ok == 0);
    CHECK_STATUS(CUZK_ERR_BAD_LENGTH, cuzk_post_verify(&ok, key, &s, r, ids, comm_rs, n, 0, proof, plen - 1),
                 cuzk_key_last_error, key);
    /* WinningPoSt proves one sector. */
    if (s.type == CUZK_POST_WINNING) {
        uint8_t* two[2] = {v[0], v[0]};
        size_t two_len[2] = {len[0], len[0]};
        CHECK(submit(eng, id, r, two, two_len, 2, &st) == NULL && st == CUZK_ERR_INVALID_ARGUMENT);
    }
    cuzk_key_destroy(key);
}

/* Refusals of bad vanilla bytes under a window key. */
static void case_refusals(cuzk_engine* eng, uint8_t** v, size_t* len)
{
    cuzk_post_shape s;
    cuzk_key* key = NULL;
    cuzk_status st = 1;
    uint32_t id = 0;
    uint8_t r[32];
    uint8_t* bad[2];
    size_t bad_len[2];
    CASE("refusals of bad vanilla bytes under a window key");
    CHECK(cuzk_post_shape_registered(&s, 10) == CUZK_OK);
    CHECK_CREATE(CUZK_OK, cuzk_post_key_setup_dev(&key, &s, 2, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&id, eng, key, NULL, "post", 0), cuzk_engine_last_error, eng);
    randomness_of(r, 5);
    bad[0] = v[0];
    bad[1] = v[1];
    bad_len[0] = len[0];
    bad_len[1] = len[1] - 1; /* truncated */
    CHECK(submit(eng, id, r, bad, bad_len, 2, &st) == NULL && st == CUZK_ERR_BAD_LENGTH);
    CHECK(strstr(g_msg, "vanilla[1]") != NULL);
    bad[1] = (uint8_t*)malloc(len[1]);
    CHECK(bad[1] != NULL);
    memcpy(bad[1], v[1], len[1]);
    bad[1][8] ^= 1; /* comm_r no longer Poseidon2(comm_c, comm_r_last) */
    bad_len[1] = len[1];
    CHECK(submit(eng, id, r, bad, bad_len, 2, &st) == NULL && st == CUZK_ERR_BAD_FORMAT);
    CHECK(strstr(g_msg, "vanilla proof 1") != NULL && strstr(g_msg, "comm_r") != NULL);
    free(bad[1]);
    randomness_of(r, 7); /* other challenges: the paths lead elsewhere */
    CHECK(submit(eng, id, r, v, len, 2, &st) == NULL && st == CUZK_ERR_BAD_FORMAT);
    CHECK(strstr(g_msg, "the challenge is leaf") != NULL);
    CHECK(submit(eng, id, r, v, len, 0, &st) == NULL && st == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(submit(eng, 99, r, v, len, 2, &st) == NULL && st == CUZK_ERR_INVALID_ARGUMENT);
    cuzk_key_destroy(key);
}

/* cuzk_post_check_vanilla: no fault, then the second sector's, reported by number. */
static void case_faults(uint8_t** v, size_t* len)
{
    cuzk_post_shape s;
    uint8_t r[32];
    uint8_t* bad[2];
    uint64_t faulty[2] = {0, 0};
    size_t count = 2;
    CASE("cuzk_post_check_vanilla: faulty sectors by number");
    CHECK(cuzk_post_shape_registered(&s, 10) == CUZK_OK);
    randomness_of(r, 5);
    CHECK_CREATE(CUZK_OK, cuzk_post_check_vanilla(faulty, &count, &s, r, (const uint8_t* const*)v, len, 2, 0, err,
                                                  sizeof err));
    CHECK(count == 0);
    bad[0] = v[0];
    bad[1] = (uint8_t*)malloc(len[1]);
    CHECK(bad[1] != NULL);
    memcpy(bad[1], v[1], len[1]);
    bad[1][8] ^= 1; /* comm_r */
    count = 2;
    CHECK_CREATE(CUZK_OK, cuzk_post_check_vanilla(faulty, &count, &s, r, (const uint8_t* const*)bad, len, 2, 0, err,
                                                  sizeof err));
    CHECK(count == 1 && faulty[0] == 2); /* the fixture's sectors are numbered 1 and 2 */
    {
        char msg[512];
        size_t room = 0;
        CHECK(cuzk_post_check_vanilla(NULL, &room, &s, r, (const uint8_t* const*)bad, len, 2, 0, msg, sizeof msg) ==
              CUZK_ERR_BUFFER_TOO_SMALL);
        CHECK(room == 1 && strstr(msg, "faulty") != NULL);
    }
    free(bad[1]);
}

/* The fixture's vanilla proofs: two WindowPoSt sectors, one WinningPoSt. */
struct fixture {
    uint8_t* window[2];
    size_t window_len[2];
    uint8_t* winning[1];
    size_t winning_len[1];
};

static void case_read_fixture(struct fixture* fx, const char* prefix)
{
    char path[4096];
    int i;
    CASE("the fixture's vanilla proofs");
    for (i = 0; i < 2; ++i) {
        snprintf(path, sizeof path, "%s-window-%d.vanilla", prefix, i);
        fx->window[i] = read_file(path, &fx->window_len[i]);
    }
    snprintf(path, sizeof path, "%s-winning.vanilla", prefix);
    fx->winning[0] = read_file(path, &fx->winning_len[0]);
}

static cuzk_engine* case_engine(void)
{
    cuzk_engine_options eo;
    cuzk_engine* eng = NULL;
    CASE("a cpu engine");
    CHECK(cuzk_engine_options_init(&eo) == CUZK_OK);
    eo.backend = CUZK_BACKEND_CPU;
    eo.device_threads = 2;
    CHECK_CREATE(CUZK_OK, cuzk_engine_create(&eng, &eo, err, sizeof err));
    return eng;
}

int main(int argc, char** argv)
{
    struct fixture fx;
    cuzk_engine* eng;
    int i;
    if (argc != 2) {
        fprintf(stderr, "usage: %s <fixture prefix>\n", argv[0]);
        return 2;
    }
    case_read_fixture(&fx, argv[1]);
    case_shapes();
    eng = case_engine();
    case_prove_and_verify("WindowPoSt: prove and verify", eng, 10, fx.window, fx.window_len, 2);
    case_prove_and_verify("WinningPoSt: prove and verify", eng, 0, fx.winning, fx.winning_len, 1);
    case_refusals(eng, fx.window, fx.window_len);
    case_faults(fx.window, fx.window_len);
    cuzk_engine_destroy(eng);
    for (i = 0; i < 2; ++i) free(fx.window[i]);
    free(fx.winning[0]);
    printf("test_capi_post: %d checks passed\n", g_checks);
    return 0;
}
