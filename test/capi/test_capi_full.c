/* The C ABI end to end, in C99: record a small circuit through the recorder
 * calls, the built-in SHA-256 circuit, dev setup, an engine with a timeline
 * callback and a buffered sink, two jobs of three witness partitions and one
 * of a, b, c vectors, proofs read with size queries and verified, the PCE
 * file round trip and a key read back from a .zkey in memory. */
#include <pthread.h>

#include "capi_test_util.h"

/* ---- the timeline callback: counts events (called concurrently) ---------------------- */
struct counter {
    pthread_mutex_t mu;
    long events, job_done, spans_begin, spans_end, bad;
};

static void on_event(void* user_data, const cuzk_event* ev)
{
    struct counter* c = (struct counter*)user_data;
    uint32_t i;
    int bad = ev == NULL || ev->struct_size < sizeof(cuzk_event) || ev->name == NULL || ev->job == NULL ||
              ev->name[0] == '\0' || ev->phase < CUZK_EVENT_INSTANT || ev->phase > CUZK_EVENT_END;
    if (!bad)
        for (i = 0; i < ev->num_details; ++i)
            if (!ev->detail_keys[i] || !ev->detail_values[i]) bad = 1;
    pthread_mutex_lock(&c->mu);
    ++c->events;
    if (bad) ++c->bad;
    else {
        if (strcmp(ev->name, "JOB_DONE") == 0) ++c->job_done;
        if (ev->phase == CUZK_EVENT_BEGIN) ++c->spans_begin;
        if (ev->phase == CUZK_EVENT_END) ++c->spans_end;
    }
    pthread_mutex_unlock(&c->mu);
}

/* ---- helpers ---------------------------------------------------------------------------- */
/* Reads a completed job's proofs and public inputs, checks them against each
 * other and verifies each partition with `vk_key`; a tampered public input
 * must not verify. */
static void check_job(cuzk_job* job, const cuzk_key* vk_key, size_t parts, size_t num_public)
{
    size_t n = 0, i, size = 0;
    uint8_t* all;
    cuzk_status code = -999;
    int32_t failed = 7;
    CHECK_STATUS(CUZK_OK, cuzk_job_status(&code, &failed, job), cuzk_job_last_error, job);
    if (code != CUZK_OK) {
        fprintf(stderr, "job %s ended with %s: %s\n", cuzk_job_id(job), cuzk_status_name(code), cuzk_job_message(job));
        exit(1);
    }
    CHECK(failed == -1);
    CHECK(strcmp(cuzk_job_message(job), "") == 0);
    CHECK_STATUS(CUZK_OK, cuzk_job_num_partitions(&n, job), cuzk_job_last_error, job);
    CHECK(n == parts);

    /* The assembled proof: size query, then the bytes. */
    CHECK_STATUS(CUZK_OK, cuzk_job_proofs(NULL, 0, &size, job), cuzk_job_last_error, job);
    CHECK(size == parts * CUZK_PROOF_SIZE);
    all = (uint8_t*)malloc(size);
    CHECK(all != NULL);
    CHECK_STATUS(CUZK_OK, cuzk_job_proofs(all, size, &size, job), cuzk_job_last_error, job);
    CHECK(size == parts * CUZK_PROOF_SIZE);

    for (i = 0; i < parts; ++i) {
        uint8_t proof[CUZK_PROOF_SIZE];
        uint8_t pub[8 * 32];
        size_t psize = 0, pubsize = 0;
        int32_t valid = -1;
        CHECK_STATUS(CUZK_OK, cuzk_job_proof(NULL, 0, &psize, job, i), cuzk_job_last_error, job);
        CHECK(psize == CUZK_PROOF_SIZE);
        CHECK_STATUS(CUZK_OK, cuzk_job_proof(proof, sizeof proof, &psize, job, i), cuzk_job_last_error, job);
        CHECK(memcmp(proof, all + i * CUZK_PROOF_SIZE, CUZK_PROOF_SIZE) == 0);
        CHECK_STATUS(CUZK_OK, cuzk_job_public_inputs(NULL, 0, &pubsize, job, i), cuzk_job_last_error, job);
        CHECK(pubsize == num_public * 32);
        CHECK_STATUS(CUZK_OK, cuzk_job_public_inputs(pub, sizeof pub, &pubsize, job, i), cuzk_job_last_error, job);
        CHECK_STATUS(CUZK_OK, cuzk_key_verify(&valid, vk_key, proof, sizeof proof, pub, num_public),
                     cuzk_key_last_error, vk_key);
        CHECK(valid == 1);
        /* A different public input must not verify. */
        pub[0] ^= 1;
        CHECK_STATUS(CUZK_OK, cuzk_key_verify(&valid, vk_key, proof, sizeof proof, pub, num_public),
                     cuzk_key_last_error, vk_key);
        CHECK(valid == 0);
    }
    /* Partitions have different witnesses, so different proofs. */
    CHECK(memcmp(all, all + CUZK_PROOF_SIZE, CUZK_PROOF_SIZE) != 0);
    free(all);
}

/* ---- what the cases share ------------------------------------------------------------------ */
struct full {
    cuzk_pce *small, *sha;
    size_t sha_ni, sha_na;
    uint8_t* sha_in[3];
    uint8_t* sha_aux[3];
    cuzk_key *small_key, *sha_key, *small_vk, *sha_vk;
    struct counter cnt;
    cuzk_timeline_buffer* tbuf;
    cuzk_engine* eng;
    uint32_t k_small, k_sha, k_abc;
    cuzk_job *j_small, *j_sha, *j_abc;
    uint8_t in[3][64], aux[3][128]; /* the small job's witnesses */
};

/* ---- the cases ------------------------------------------------------------------------------ */
static void case_versions(void)
{
    char want[32];
    CASE("versions");
    sprintf(want, "%d.%d.%d", CUZK_VERSION_MAJOR, CUZK_VERSION_MINOR, CUZK_VERSION_PATCH);
    CHECK(strcmp(cuzk_version(), want) == 0);
    CHECK(cuzk_abi_version() == CUZK_ABI_VERSION);
    CHECK(strstr(cuzk_build_info(), "cuda ") != NULL);
    CHECK(strstr(cuzk_build_info(), want) != NULL);
    CHECK(cuzk_device_count() >= 0);
    printf("%s; %d CUDA device(s)\n", cuzk_build_info(), (int)cuzk_device_count());
}

static void case_small_circuit(struct full* f)
{
    cuzk_pce* small_rec;
    cuzk_pce_info a, b;
    uint8_t in[64], aux[128];
    CASE("the small circuit: record, check, save/load");
    small_rec = record_small_circuit();
    a.struct_size = sizeof a;
    b.struct_size = sizeof b;
    CHECK_STATUS(CUZK_OK, cuzk_pce_info_get(&a, small_rec), cuzk_pce_last_error, small_rec);
    CHECK(a.num_inputs == 2 && a.num_aux == 4 && a.num_constraints == 3);
    CHECK(a.nnz_a == 4 && a.nnz_b == 3 && a.nnz_c == 4);
    CHECK_STATUS(CUZK_OK, cuzk_pce_save(small_rec, "capi_full_small.pce"), cuzk_pce_last_error, small_rec);
    CHECK_CREATE(CUZK_OK, cuzk_pce_load(&f->small, "capi_full_small.pce", 0, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_pce_info_get(&b, f->small), cuzk_pce_last_error, f->small);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    small_witness(in, aux, 5, 7);
    CHECK_STATUS(CUZK_OK, cuzk_pce_check_witness(f->small, in, 2, aux, 4), cuzk_pce_last_error, f->small);
    sc(aux + 64, 36); /* t != x·y */
    CHECK_STATUS(CUZK_ERR_UNSATISFIED, cuzk_pce_check_witness(f->small, in, 2, aux, 4), cuzk_pce_last_error,
                 f->small);
    CHECK(strstr(LAST_ERROR(cuzk_pce_last_error, f->small), "constraint 0") != NULL);
    cuzk_pce_destroy(small_rec);
}

static void case_sha256(struct full* f)
{
    static const char* const msgs[3] = {"abc", "xyz", "cuz"};
    /* SHA-256("abc") = ba7816bf 8f01cfea 414140de 5dae2223 | b00361a3 96177a9c b410ff61 f20015ad */
    static const uint8_t abc_digest[32] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
                                           0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
                                           0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
    cuzk_pce_info info;
    int m, i;
    CASE("SHA-256: PCE and witnesses");
    CHECK_CREATE(CUZK_OK, cuzk_sha256_pce(&f->sha, 3, err, sizeof err));
    info.struct_size = sizeof info;
    CHECK_STATUS(CUZK_OK, cuzk_pce_info_get(&info, f->sha), cuzk_pce_last_error, f->sha);
    CHECK(info.num_inputs == 3);
    CHECK_CREATE(CUZK_OK, cuzk_sha256_witness(NULL, 0, &f->sha_ni, NULL, 0, &f->sha_na, (const uint8_t*)"abc", 3, err,
                                              sizeof err));
    CHECK(f->sha_ni == info.num_inputs && f->sha_na == info.num_aux);
    printf("sha256 (3-byte preimage): %u inputs, %u aux, %llu constraints\n", info.num_inputs, info.num_aux,
           (unsigned long long)info.num_constraints);
    for (m = 0; m < 3; ++m) {
        size_t ni = 0, na = 0;
        f->sha_in[m] = (uint8_t*)malloc(32 * f->sha_ni);
        f->sha_aux[m] = (uint8_t*)malloc(32 * f->sha_na);
        CHECK(f->sha_in[m] && f->sha_aux[m]);
        CHECK_CREATE(CUZK_OK, cuzk_sha256_witness(f->sha_in[m], 32 * f->sha_ni, &ni, f->sha_aux[m], 32 * f->sha_na,
                                                  &na, (const uint8_t*)msgs[m], 3, err, sizeof err));
        CHECK(ni == f->sha_ni && na == f->sha_na);
        CHECK_STATUS(CUZK_OK, cuzk_pce_check_witness(f->sha, f->sha_in[m], ni, f->sha_aux[m], na), cuzk_pce_last_error,
                     f->sha);
    }
    /* Inputs 1 and 2 are the big-endian halves of the digest (an independent check). */
    for (i = 0; i < 16; ++i) {
        CHECK(f->sha_in[0][32 + i] == abc_digest[15 - i]);
        CHECK(f->sha_in[0][64 + i] == abc_digest[31 - i]);
        CHECK(f->sha_in[0][32 + 16 + i] == 0 && f->sha_in[0][64 + 16 + i] == 0);
    }
}

/* A verifying key through its vk_len bytes: exported from `key`, loaded from memory. */
static cuzk_key* vk_through_bytes(cuzk_key* key, size_t vk_len)
{
    cuzk_key* vk_key = NULL;
    uint8_t* vk = (uint8_t*)malloc(vk_len);
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(vk, vk_len, &vk_len, key), cuzk_key_last_error, key);
    CHECK_CREATE(CUZK_OK, cuzk_key_load_vk_mem(&vk_key, vk, vk_len, err, sizeof err));
    free(vk);
    return vk_key;
}

static void case_keys(struct full* f)
{
    cuzk_key_info ki;
    size_t vk_len = 0;
    CASE("keys");
    CHECK_CREATE(CUZK_OK, cuzk_key_setup_dev(&f->small_key, f->small, CUZK_CONVENTION_BELLPERSON, 0, err, sizeof err));
    CHECK_CREATE(CUZK_OK, cuzk_key_setup_dev(&f->sha_key, f->sha, CUZK_CONVENTION_BELLPERSON, 0, err, sizeof err));
    ki.struct_size = sizeof ki;
    CHECK_STATUS(CUZK_OK, cuzk_key_info_get(&ki, f->small_key), cuzk_key_last_error, f->small_key);
    CHECK(ki.convention == CUZK_CONVENTION_BELLPERSON && ki.has_proving_key == 1 && ki.num_inputs == 2 &&
          ki.num_aux == 4 && ki.domain_size == 8);
    /* Verifying keys through their bytes (export, then load from memory). */
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(NULL, 0, &vk_len, f->small_key), cuzk_key_last_error, f->small_key);
    CHECK(vk_len == 868 + 96 * 2);
    f->small_vk = vk_through_bytes(f->small_key, vk_len);
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(NULL, 0, &vk_len, f->sha_key), cuzk_key_last_error, f->sha_key);
    f->sha_vk = vk_through_bytes(f->sha_key, vk_len);
    CHECK_STATUS(CUZK_OK, cuzk_key_info_get(&ki, f->small_vk), cuzk_key_last_error, f->small_vk);
    CHECK(ki.has_proving_key == 0 && ki.num_inputs == 2);
}

static void case_key_files(struct full* f)
{
    cuzk_key *pk2 = NULL, *vk2 = NULL;
    cuzk_key_info ki;
    uint8_t *a, *b;
    size_t na = 0, nb = 0;
    FILE* fp;
    CASE("keys: .params and .vk files (write, read back, same verifying key)");
    CHECK_STATUS(CUZK_OK, cuzk_key_save_params(f->small_key, "capi_full_small.params"), cuzk_key_last_error,
                 f->small_key);
    CHECK_STATUS(CUZK_ERR_UNSUPPORTED, cuzk_key_save_zkey(f->small_key, "capi_full_never.zkey"), cuzk_key_last_error,
                 f->small_key);
    CHECK_CREATE(CUZK_OK, cuzk_key_load_params(&pk2, "capi_full_small.params", CUZK_LOAD_CHECK_SUBGROUP, 0, err,
                                               sizeof err));
    ki.struct_size = sizeof ki;
    CHECK_STATUS(CUZK_OK, cuzk_key_info_get(&ki, pk2), cuzk_key_last_error, pk2);
    CHECK(ki.convention == CUZK_CONVENTION_BELLPERSON && ki.has_proving_key == 1 && ki.num_inputs == 2 &&
          ki.num_aux == 4 && ki.domain_size == 8);
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(NULL, 0, &na, f->small_key), cuzk_key_last_error, f->small_key);
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(NULL, 0, &nb, pk2), cuzk_key_last_error, pk2);
    CHECK(na == nb);
    a = (uint8_t*)malloc(na);
    b = (uint8_t*)malloc(nb);
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(a, na, &na, f->small_key), cuzk_key_last_error, f->small_key);
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(b, nb, &nb, pk2), cuzk_key_last_error, pk2);
    CHECK(memcmp(a, b, na) == 0);
    fp = fopen("capi_full_small.vk", "wb");
    CHECK(fp != NULL && fwrite(a, 1, na, fp) == na);
    fclose(fp);
    CHECK_CREATE(CUZK_OK, cuzk_key_load_vk(&vk2, "capi_full_small.vk", err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(b, nb, &nb, vk2), cuzk_key_last_error, vk2);
    CHECK(memcmp(a, b, na) == 0);
    free(a);
    free(b);
    cuzk_key_destroy(pk2);
    cuzk_key_destroy(vk2);
    remove("capi_full_small.params");
    remove("capi_full_small.vk");
}

static void case_engine(struct full* f)
{
    cuzk_timeline_callbacks cb;
    cuzk_engine_options o;
    CASE("engine with a callback and a buffered sink");
    memset(&f->cnt, 0, sizeof f->cnt);
    pthread_mutex_init(&f->cnt.mu, NULL);
    f->k_small = f->k_sha = f->k_abc = 99;
    CHECK_CREATE(CUZK_OK, cuzk_timeline_buffer_create(&f->tbuf, 100000, err, sizeof err));
    CHECK(cuzk_timeline_callbacks_init(&cb) == CUZK_OK);
    cb.user_data = &f->cnt;
    cb.on_event = on_event;
    CHECK(cuzk_engine_options_init(&o) == CUZK_OK);
    CHECK(o.struct_size == sizeof o && o.synth_workers >= 1 && o.lookahead >= 1 && o.self_verify == 1);
    o.synth_workers = 2;
    o.workers_per_device = 2;
    o.timeline_callbacks = &cb;
    o.timeline_buffer = f->tbuf;
    CHECK_CREATE(CUZK_OK, cuzk_engine_create(&f->eng, &o, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&f->k_small, f->eng, f->small_key, f->small, "small", 0),
                 cuzk_engine_last_error, f->eng);
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&f->k_sha, f->eng, f->sha_key, f->sha, "sha256", 0),
                 cuzk_engine_last_error, f->eng);
    /* A dev-setup key knows its densities: a, b, c partitions need no PCE. */
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&f->k_abc, f->eng, f->small_key, NULL, "small-abc", 0),
                 cuzk_engine_last_error, f->eng);
    CHECK(f->k_small != f->k_sha && f->k_sha != f->k_abc);
    /* The engine holds what it needs: the proving keys may go now. */
    cuzk_key_destroy(f->small_key);
    cuzk_key_destroy(f->sha_key);
}

static void case_jobs_submit(struct full* f)
{
    static const long long xs[3] = {5, 2, 11}, ys[3] = {7, 9, 13};
    uint8_t av[96], bv[96], cv[96];
    cuzk_partition p[3], q;
    cuzk_job_options jo;
    int i;
    CASE("jobs: submit and wait");
    for (i = 0; i < 3; ++i) {
        small_witness(f->in[i], f->aux[i], xs[i], ys[i]);
        CHECK(cuzk_partition_init(&p[i]) == CUZK_OK);
        p[i].inputs = f->in[i];
        p[i].num_inputs = 2;
        p[i].aux = f->aux[i];
        p[i].num_aux = 4;
    }
    CHECK(cuzk_job_options_init(&jo) == CUZK_OK);
    jo.id = "small-job";
    CHECK_STATUS(CUZK_OK, cuzk_engine_submit(&f->j_small, f->eng, f->k_small, p, 3, &jo), cuzk_engine_last_error,
                 f->eng);
    CHECK(strcmp(cuzk_job_id(f->j_small), "small-job") == 0);
    for (i = 0; i < 3; ++i) {
        p[i].inputs = f->sha_in[i];
        p[i].num_inputs = f->sha_ni;
        p[i].aux = f->sha_aux[i];
        p[i].num_aux = f->sha_na;
    }
    jo.id = NULL; /* "job-<n>" */
    jo.priority = 5;
    CHECK_STATUS(CUZK_OK, cuzk_engine_submit(&f->j_sha, f->eng, f->k_sha, p, 3, &jo), cuzk_engine_last_error, f->eng);
    CHECK(strncmp(cuzk_job_id(f->j_sha), "job-", 4) == 0);
    /* One partition given as a, b, c (x = 5, y = 7): rows (x, y, t), (t, 1, z − 3), (x + y, 2, s). */
    CHECK(cuzk_partition_init(&q) == CUZK_OK);
    q.kind = CUZK_PARTITION_ABC;
    q.inputs = f->in[0];
    q.num_inputs = 2;
    q.aux = f->aux[0];
    q.num_aux = 4;
    sc(av, 5), sc(bv, 7), sc(cv, 35);
    sc(av + 32, 35), sc(bv + 32, 1), sc(cv + 32, 35);
    sc(av + 64, 12), sc(bv + 64, 2), sc(cv + 64, 24);
    q.a = av;
    q.b = bv;
    q.c = cv;
    q.num_constraints = 3;
    CHECK_STATUS(CUZK_OK, cuzk_engine_submit(&f->j_abc, f->eng, f->k_abc, &q, 1, NULL), cuzk_engine_last_error, f->eng);
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(f->j_small, -1), cuzk_job_last_error, f->j_small);
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(f->j_sha, 600000), cuzk_job_last_error, f->j_sha);
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(f->j_abc, -1), cuzk_job_last_error, f->j_abc);
}

static void case_jobs_results(struct full* f)
{
    int32_t st = -1, valid = -1;
    uint8_t pub[64], proof[CUZK_PROOF_SIZE];
    size_t n = 0;
    int i;
    CASE("jobs: proofs, public inputs, verification");
    CHECK_STATUS(CUZK_OK, cuzk_job_poll(&st, f->j_small), cuzk_job_last_error, f->j_small);
    CHECK(st == CUZK_JOB_COMPLETED);
    check_job(f->j_small, f->small_vk, 3, 1);
    check_job(f->j_sha, f->sha_vk, 3, 2);
    CHECK_STATUS(CUZK_OK, cuzk_job_public_inputs(pub, 32, &n, f->j_abc, 0), cuzk_job_last_error, f->j_abc);
    CHECK(n == 32 && memcmp(pub, f->in[0] + 32, 32) == 0); /* z = 38 */
    /* The a, b, c partition verifies too (1 partition: no second proof to compare). */
    CHECK_STATUS(CUZK_OK, cuzk_job_proof(proof, sizeof proof, &n, f->j_abc, 0), cuzk_job_last_error, f->j_abc);
    CHECK_STATUS(CUZK_OK, cuzk_key_verify(&valid, f->small_vk, proof, n, f->in[0] + 32, 1), cuzk_key_last_error,
                 f->small_vk);
    CHECK(valid == 1);
    /* The SHA-256 job's public inputs are the digests' halves. */
    for (i = 0; i < 3; ++i) {
        CHECK_STATUS(CUZK_OK, cuzk_job_public_inputs(pub, sizeof pub, &n, f->j_sha, (size_t)i), cuzk_job_last_error,
                     f->j_sha);
        CHECK(n == 64 && memcmp(pub, f->sha_in[i] + 32, 64) == 0);
    }
}

static void case_engine_stats(struct full* f)
{
    cuzk_engine_stats s;
    CASE("engine stats");
    s.struct_size = sizeof s;
    CHECK_STATUS(CUZK_OK, cuzk_engine_stats_get(&s, f->eng), cuzk_engine_last_error, f->eng);
    CHECK(s.jobs_submitted == 3 && s.jobs_completed == 3 && s.jobs_failed == 0 && s.jobs_live == 0);
    CHECK(s.partitions_proved == 7);
}

static void case_key_placement(struct full* f)
{
    uint32_t where = 99;
    uint64_t dev_bytes = 99;
    CASE("where a key's points are (a cpu engine: on the host)");
    CHECK_STATUS(CUZK_OK, cuzk_engine_key_placement(&where, &dev_bytes, f->eng, f->k_sha), cuzk_engine_last_error,
                 f->eng);
    CHECK(where == CUZK_KEY_ON_HOST && dev_bytes == 0);
    CHECK_STATUS(CUZK_OK, cuzk_engine_key_placement(NULL, NULL, f->eng, f->k_small), cuzk_engine_last_error, f->eng);
    CHECK(cuzk_engine_key_placement(&where, NULL, f->eng, 1000) == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(cuzk_engine_key_placement(&where, NULL, NULL, f->k_sha) == CUZK_ERR_NULL);
}

static void case_key_registration(struct full* f)
{
    double layout = -1, pce = -1, points = -1;
    CASE("where registering a key went (a cpu engine: nothing on a device)");
    CHECK_STATUS(CUZK_OK, cuzk_engine_key_registration(&layout, &pce, &points, f->eng, f->k_sha),
                 cuzk_engine_last_error, f->eng);
    CHECK(layout == 0 && pce == 0 && points == 0);
    CHECK_STATUS(CUZK_OK, cuzk_engine_key_registration(NULL, NULL, NULL, f->eng, f->k_small), cuzk_engine_last_error,
                 f->eng);
    CHECK(cuzk_engine_key_registration(&layout, NULL, NULL, f->eng, 1000) == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(cuzk_engine_key_registration(&layout, NULL, NULL, NULL, f->k_sha) == CUZK_ERR_NULL);
}

static void case_remove_key(struct full* f)
{
    uint32_t id = f->k_abc, freed = 9, where = 0;
    uint64_t host = 1, dev = 1;
    cuzk_job* j = NULL;
    cuzk_partition p;
    char msg[256];
    CASE("remove_key: the a, b, c key unregistered (its job has ended), its id refused from then on");
    CHECK_STATUS(CUZK_OK, cuzk_engine_remove_key(&host, &dev, &freed, f->eng, id), cuzk_engine_last_error, f->eng);
    CHECK(freed == 1);    /* its job has ended: nothing held it */
    CHECK(host == 0);     /* its points are shared with k_small, still registered */
    CHECK(dev == 0);      /* a cpu engine */
    CHECK(cuzk_engine_remove_key(NULL, NULL, NULL, f->eng, id) == CUZK_ERR_INVALID_ARGUMENT);
    cuzk_engine_last_error(msg, sizeof msg, f->eng);
    CHECK(strstr(msg, "cuzk_engine_remove_key") != NULL);
    CHECK(cuzk_engine_key_placement(&where, NULL, f->eng, id) == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(cuzk_partition_init(&p) == CUZK_OK);
    p.inputs = f->in[0];
    p.num_inputs = 2;
    p.aux = f->aux[0];
    p.num_aux = 4;
    CHECK(cuzk_engine_submit(&j, f->eng, id, &p, 1, NULL) == CUZK_ERR_INVALID_ARGUMENT);
    CHECK(j == NULL);
    CHECK(cuzk_engine_remove_key(NULL, NULL, NULL, NULL, f->k_small) == CUZK_ERR_NULL);
    CHECK(cuzk_engine_remove_key(NULL, NULL, NULL, f->eng, 1000) == CUZK_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(CUZK_OK, cuzk_engine_key_placement(&where, NULL, f->eng, f->k_small), cuzk_engine_last_error, f->eng);
}

/* The engine proves with the .zkey key zk2 too (no PCE; witness partitions),
 * verified under the key read from its exported bytes vk. */
static void case_zkey_prove(struct full* f, cuzk_key* zk2, const uint8_t* vk, size_t vk_len)
{
    uint32_t id = 0;
    uint8_t in[64], aux[128], proof[CUZK_PROOF_SIZE];
    size_t n = 0;
    int32_t valid = -1;
    cuzk_partition p;
    cuzk_job* job = NULL;
    cuzk_key* zvk = NULL;
    CASE("a key from a .zkey in memory: the engine proves with it");
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_engine_add_key(&id, f->eng, zk2, f->small, "zkey", 0),
                 cuzk_engine_last_error, f->eng); /* a snarkjs key takes no PCE */
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&id, f->eng, zk2, NULL, "zkey", 0), cuzk_engine_last_error, f->eng);
    small_witness(in, aux, 4, 6);
    cuzk_partition_init(&p);
    p.inputs = in;
    p.num_inputs = 2;
    p.aux = aux;
    p.num_aux = 4;
    CHECK_STATUS(CUZK_OK, cuzk_engine_submit(&job, f->eng, id, &p, 1, NULL), cuzk_engine_last_error, f->eng);
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(job, -1), cuzk_job_last_error, job);
    CHECK_STATUS(CUZK_OK, cuzk_job_proof(proof, sizeof proof, &n, job, 0), cuzk_job_last_error, job);
    /* Verified with a key read from the exported verifying key bytes. */
    CHECK_CREATE(CUZK_OK, cuzk_key_load_vk_mem(&zvk, vk, vk_len, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_key_verify(&valid, zvk, proof, n, in + 32, 1), cuzk_key_last_error, zvk);
    CHECK(valid == 1);
    /* Not under the bellperson key of the same circuit. */
    CHECK_STATUS(CUZK_OK, cuzk_key_verify(&valid, f->small_vk, proof, n, in + 32, 1), cuzk_key_last_error,
                 f->small_vk);
    CHECK(valid == 0);
    cuzk_key_destroy(zvk);
    cuzk_job_destroy(job);
}

static void case_zkey_mem(struct full* f)
{
    cuzk_key *zk = NULL, *zk2 = NULL;
    cuzk_key_info ki;
    uint8_t *buf, *vk1, *vk2;
    size_t len = 0, n1 = 0, n2 = 0;
    CASE("a key from a .zkey in memory");
    CHECK_CREATE(CUZK_OK, cuzk_key_setup_dev(&zk, f->small, CUZK_CONVENTION_SNARKJS, 0, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_key_save_zkey(zk, "capi_full_small.zkey"), cuzk_key_last_error, zk);
    buf = read_file("capi_full_small.zkey", &len);
    CHECK_CREATE(CUZK_OK, cuzk_key_load_zkey_mem(&zk2, buf, len, 0, 0, err, sizeof err));
    free(buf);
    ki.struct_size = sizeof ki;
    CHECK_STATUS(CUZK_OK, cuzk_key_info_get(&ki, zk2), cuzk_key_last_error, zk2);
    CHECK(ki.convention == CUZK_CONVENTION_SNARKJS && ki.has_proving_key == 1 && ki.num_inputs == 2 &&
          ki.num_aux == 4);
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(NULL, 0, &n1, zk), cuzk_key_last_error, zk);
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(NULL, 0, &n2, zk2), cuzk_key_last_error, zk2);
    CHECK(n1 == n2);
    vk1 = (uint8_t*)malloc(n1);
    vk2 = (uint8_t*)malloc(n2);
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(vk1, n1, &n1, zk), cuzk_key_last_error, zk);
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(vk2, n2, &n2, zk2), cuzk_key_last_error, zk2);
    CHECK(memcmp(vk1, vk2, n1) == 0);
    case_zkey_prove(f, zk2, vk1, n1);
    free(vk1);
    free(vk2);
    cuzk_key_destroy(zk);
    cuzk_key_destroy(zk2);
}

/* Drains the timeline buffer: every event well formed; returns how many,
 * with the JOB_SUBMIT and JOB_DONE counts, the small job's SYNTH_ENDs and
 * whether the JOB_SUBMITs came in time order. */
static size_t drain_timeline(struct full* f, long* submits, long* dones, long* small_synth, int* monotone_submit)
{
    size_t got = 0, total = 0, i;
    cuzk_event evs[64];
    uint64_t last_t = 0;
    do {
        CHECK_STATUS(CUZK_OK, cuzk_timeline_buffer_drain(&got, evs, 64, sizeof(cuzk_event), f->tbuf),
                     cuzk_timeline_buffer_last_error, f->tbuf);
        for (i = 0; i < got; ++i) {
            CHECK(evs[i].struct_size == sizeof(cuzk_event));
            CHECK(evs[i].name != NULL && evs[i].job != NULL);
            if (strcmp(evs[i].name, "JOB_SUBMIT") == 0) {
                ++*submits;
                if (evs[i].t_ns < last_t) *monotone_submit = 0;
                last_t = evs[i].t_ns;
            }
            if (strcmp(evs[i].name, "JOB_DONE") == 0) ++*dones;
            if (strcmp(evs[i].name, "SYNTH_END") == 0 && strcmp(evs[i].job, "small-job") == 0) {
                ++*small_synth;
                CHECK(evs[i].partition >= 0 && evs[i].partition < 3);
            }
        }
        total += got;
    } while (got == 64);
    return total;
}

static void case_timeline(struct full* f)
{
    size_t waiting = 0, total;
    long submits = 0, dones = 0, small_synth = 0;
    uint64_t dropped = 1;
    int monotone_submit = 1;
    CASE("timeline: the callback and the buffer saw the same run");
    CHECK_STATUS(CUZK_OK, cuzk_timeline_buffer_drain(&waiting, NULL, 0, sizeof(cuzk_event), f->tbuf),
                 cuzk_timeline_buffer_last_error, f->tbuf);
    CHECK(waiting > 0);
    total = drain_timeline(f, &submits, &dones, &small_synth, &monotone_submit);
    CHECK(total == waiting);
    CHECK(submits == 4 && dones == 4 && small_synth == 3 && monotone_submit);
    CHECK_STATUS(CUZK_OK, cuzk_timeline_buffer_dropped(&dropped, f->tbuf), cuzk_timeline_buffer_last_error, f->tbuf);
    CHECK(dropped == 0);
    pthread_mutex_lock(&f->cnt.mu);
    printf("timeline: %lu events drained, %ld seen by the callback\n", (unsigned long)total, f->cnt.events);
    CHECK(f->cnt.bad == 0);
    CHECK(f->cnt.job_done == 4);
    CHECK(f->cnt.events == (long)total);
    CHECK(f->cnt.spans_begin == f->cnt.spans_end && f->cnt.spans_begin > 0);
    pthread_mutex_unlock(&f->cnt.mu);
}

static void case_teardown(struct full* f)
{
    int32_t st = -1;
    int m;
    CASE("teardown in an arbitrary order");
    cuzk_pce_destroy(f->small);
    cuzk_pce_destroy(f->sha);
    cuzk_timeline_buffer_destroy(f->tbuf);
    CHECK_STATUS(CUZK_OK, cuzk_job_poll(&st, f->j_sha), cuzk_job_last_error, f->j_sha); /* outlives the engine */
    CHECK(st == CUZK_JOB_COMPLETED);
    cuzk_job_destroy(f->j_small);
    cuzk_job_destroy(f->j_sha);
    cuzk_job_destroy(f->j_abc);
    cuzk_key_destroy(f->small_vk);
    cuzk_key_destroy(f->sha_vk);
    for (m = 0; m < 3; ++m) {
        free(f->sha_in[m]);
        free(f->sha_aux[m]);
    }
    pthread_mutex_destroy(&f->cnt.mu);
    remove("capi_full_small.pce");
    remove("capi_full_small.zkey");
}

int main(void)
{
    static struct full f;
    case_versions();
    case_small_circuit(&f);
    case_sha256(&f);
    case_keys(&f);
    case_key_files(&f);
    case_engine(&f);
    case_jobs_submit(&f);
    case_jobs_results(&f);
    case_engine_stats(&f);
    case_key_placement(&f);
    case_key_registration(&f);
    case_remove_key(&f);
    case_zkey_mem(&f);
    cuzk_engine_destroy(f.eng); /* the engine stops (threads joined): no event comes after this */
    case_timeline(&f);
    case_teardown(&f);
    printf("test_capi_full: %d checks passed\n", g_checks);
    return 0;
}
