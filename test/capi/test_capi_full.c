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

int main(void)
{
    CASE("versions");
    {
        char want[32];
        sprintf(want, "%d.%d.%d", CUZK_VERSION_MAJOR, CUZK_VERSION_MINOR, CUZK_VERSION_PATCH);
        CHECK(strcmp(cuzk_version(), want) == 0);
        CHECK(cuzk_abi_version() == CUZK_ABI_VERSION);
        CHECK(strstr(cuzk_build_info(), "cuda ") != NULL);
        CHECK(strstr(cuzk_build_info(), want) != NULL);
        CHECK(cuzk_device_count() >= 0);
        printf("%s; %d CUDA device(s)\n", cuzk_build_info(), (int)cuzk_device_count());
    }

    CASE("the small circuit: record, check, save/load");
    cuzk_pce* small_rec = record_small_circuit();
    cuzk_pce* small = NULL;
    {
        cuzk_pce_info a, b;
        uint8_t in[64], aux[128];
        a.struct_size = sizeof a;
        b.struct_size = sizeof b;
        CHECK_STATUS(CUZK_OK, cuzk_pce_info_get(&a, small_rec), cuzk_pce_last_error, small_rec);
        CHECK(a.num_inputs == 2 && a.num_aux == 4 && a.num_constraints == 3);
        CHECK(a.nnz_a == 4 && a.nnz_b == 3 && a.nnz_c == 4);
        CHECK_STATUS(CUZK_OK, cuzk_pce_save(small_rec, "capi_full_small.pce"), cuzk_pce_last_error, small_rec);
        CHECK_CREATE(CUZK_OK, cuzk_pce_load(&small, "capi_full_small.pce", 0, err, sizeof err));
        CHECK_STATUS(CUZK_OK, cuzk_pce_info_get(&b, small), cuzk_pce_last_error, small);
        CHECK(memcmp(&a, &b, sizeof a) == 0);
        small_witness(in, aux, 5, 7);
        CHECK_STATUS(CUZK_OK, cuzk_pce_check_witness(small, in, 2, aux, 4), cuzk_pce_last_error, small);
        sc(aux + 64, 36); /* t != x·y */
        CHECK_STATUS(CUZK_ERR_UNSATISFIED, cuzk_pce_check_witness(small, in, 2, aux, 4), cuzk_pce_last_error, small);
        CHECK(strstr(LAST_ERROR(cuzk_pce_last_error, small), "constraint 0") != NULL);
        cuzk_pce_destroy(small_rec);
    }

    CASE("SHA-256: PCE and witnesses");
    cuzk_pce* sha = NULL;
    size_t sha_ni = 0, sha_na = 0;
    const char* msgs[3] = {"abc", "xyz", "cuz"};
    uint8_t* sha_in[3];
    uint8_t* sha_aux[3];
    {
        cuzk_pce_info info;
        int m, i;
        /* SHA-256("abc") = ba7816bf 8f01cfea 414140de 5dae2223 | b00361a3 96177a9c b410ff61 f20015ad */
        static const uint8_t abc_digest[32] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
                                               0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
                                               0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
        CHECK_CREATE(CUZK_OK, cuzk_sha256_pce(&sha, 3, err, sizeof err));
        info.struct_size = sizeof info;
        CHECK_STATUS(CUZK_OK, cuzk_pce_info_get(&info, sha), cuzk_pce_last_error, sha);
        CHECK(info.num_inputs == 3);
        CHECK_CREATE(CUZK_OK, cuzk_sha256_witness(NULL, 0, &sha_ni, NULL, 0, &sha_na, (const uint8_t*)"abc", 3, err,
                                                  sizeof err));
        CHECK(sha_ni == info.num_inputs && sha_na == info.num_aux);
        printf("sha256 (3-byte preimage): %u inputs, %u aux, %llu constraints\n", info.num_inputs, info.num_aux,
               (unsigned long long)info.num_constraints);
        for (m = 0; m < 3; ++m) {
            size_t ni = 0, na = 0;
            sha_in[m] = (uint8_t*)malloc(32 * sha_ni);
            sha_aux[m] = (uint8_t*)malloc(32 * sha_na);
            CHECK(sha_in[m] && sha_aux[m]);
            CHECK_CREATE(CUZK_OK, cuzk_sha256_witness(sha_in[m], 32 * sha_ni, &ni, sha_aux[m], 32 * sha_na, &na,
                                                      (const uint8_t*)msgs[m], 3, err, sizeof err));
            CHECK(ni == sha_ni && na == sha_na);
            CHECK_STATUS(CUZK_OK, cuzk_pce_check_witness(sha, sha_in[m], ni, sha_aux[m], na), cuzk_pce_last_error, sha);
        }
        /* Inputs 1 and 2 are the big-endian halves of the digest (an independent check). */
        for (i = 0; i < 16; ++i) {
            CHECK(sha_in[0][32 + i] == abc_digest[15 - i]);
            CHECK(sha_in[0][64 + i] == abc_digest[31 - i]);
            CHECK(sha_in[0][32 + 16 + i] == 0 && sha_in[0][64 + 16 + i] == 0);
        }
    }

    CASE("keys");
    cuzk_key *small_key = NULL, *sha_key = NULL, *small_vk = NULL, *sha_vk = NULL;
    {
        cuzk_key_info ki;
        size_t vk_len = 0;
        uint8_t* vk;
        CHECK_CREATE(CUZK_OK, cuzk_key_setup_dev(&small_key, small, CUZK_CONVENTION_BELLPERSON, 0, err, sizeof err));
        CHECK_CREATE(CUZK_OK, cuzk_key_setup_dev(&sha_key, sha, CUZK_CONVENTION_BELLPERSON, 0, err, sizeof err));
        ki.struct_size = sizeof ki;
        CHECK_STATUS(CUZK_OK, cuzk_key_info_get(&ki, small_key), cuzk_key_last_error, small_key);
        CHECK(ki.convention == CUZK_CONVENTION_BELLPERSON && ki.has_proving_key == 1 && ki.num_inputs == 2 &&
              ki.num_aux == 4 && ki.domain_size == 8);
        /* Verifying keys through their bytes (export, then load from memory). */
        CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(NULL, 0, &vk_len, small_key), cuzk_key_last_error, small_key);
        CHECK(vk_len == 868 + 96 * 2);
        vk = (uint8_t*)malloc(vk_len);
        CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(vk, vk_len, &vk_len, small_key), cuzk_key_last_error, small_key);
        CHECK_CREATE(CUZK_OK, cuzk_key_load_vk_mem(&small_vk, vk, vk_len, err, sizeof err));
        free(vk);
        CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(NULL, 0, &vk_len, sha_key), cuzk_key_last_error, sha_key);
        vk = (uint8_t*)malloc(vk_len);
        CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(vk, vk_len, &vk_len, sha_key), cuzk_key_last_error, sha_key);
        CHECK_CREATE(CUZK_OK, cuzk_key_load_vk_mem(&sha_vk, vk, vk_len, err, sizeof err));
        free(vk);
        CHECK_STATUS(CUZK_OK, cuzk_key_info_get(&ki, small_vk), cuzk_key_last_error, small_vk);
        CHECK(ki.has_proving_key == 0 && ki.num_inputs == 2);
        /* .params and .vk files: write, read back, same verifying key. */
        {
            cuzk_key *pk2 = NULL, *vk2 = NULL;
            uint8_t *a, *b;
            size_t na = 0, nb = 0;
            FILE* f;
            CHECK_STATUS(CUZK_OK, cuzk_key_save_params(small_key, "capi_full_small.params"), cuzk_key_last_error,
                         small_key);
            CHECK_STATUS(CUZK_ERR_UNSUPPORTED, cuzk_key_save_zkey(small_key, "capi_full_never.zkey"),
                         cuzk_key_last_error, small_key);
            CHECK_CREATE(CUZK_OK, cuzk_key_load_params(&pk2, "capi_full_small.params", CUZK_LOAD_CHECK_SUBGROUP, 0,
                                                       err, sizeof err));
            CHECK_STATUS(CUZK_OK, cuzk_key_info_get(&ki, pk2), cuzk_key_last_error, pk2);
            CHECK(ki.convention == CUZK_CONVENTION_BELLPERSON && ki.has_proving_key == 1 && ki.num_inputs == 2 &&
                  ki.num_aux == 4 && ki.domain_size == 8);
            CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(NULL, 0, &na, small_key), cuzk_key_last_error, small_key);
            CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(NULL, 0, &nb, pk2), cuzk_key_last_error, pk2);
            CHECK(na == nb);
            a = (uint8_t*)malloc(na);
            b = (uint8_t*)malloc(nb);
            CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(a, na, &na, small_key), cuzk_key_last_error, small_key);
            CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(b, nb, &nb, pk2), cuzk_key_last_error, pk2);
            CHECK(memcmp(a, b, na) == 0);
            f = fopen("capi_full_small.vk", "wb");
            CHECK(f != NULL && fwrite(a, 1, na, f) == na);
            fclose(f);
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
    }

    CASE("engine with a callback and a buffered sink");
    struct counter cnt;
    memset(&cnt, 0, sizeof cnt);
    pthread_mutex_init(&cnt.mu, NULL);
    cuzk_timeline_buffer* tbuf = NULL;
    cuzk_engine* eng = NULL;
    uint32_t k_small = 99, k_sha = 99, k_abc = 99;
    {
        cuzk_timeline_callbacks cb;
        cuzk_engine_options o;
        CHECK_CREATE(CUZK_OK, cuzk_timeline_buffer_create(&tbuf, 100000, err, sizeof err));
        CHECK(cuzk_timeline_callbacks_init(&cb) == CUZK_OK);
        cb.user_data = &cnt;
        cb.on_event = on_event;
        CHECK(cuzk_engine_options_init(&o) == CUZK_OK);
        CHECK(o.struct_size == sizeof o && o.synth_workers >= 1 && o.lookahead >= 1 && o.self_verify == 1);
        o.synth_workers = 2;
        o.workers_per_device = 2;
        o.timeline_callbacks = &cb;
        o.timeline_buffer = tbuf;
        CHECK_CREATE(CUZK_OK, cuzk_engine_create(&eng, &o, err, sizeof err));
        CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&k_small, eng, small_key, small, "small", 0), cuzk_engine_last_error,
                     eng);
        CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&k_sha, eng, sha_key, sha, "sha256", 0), cuzk_engine_last_error, eng);
        /* A dev-setup key knows its densities: a, b, c partitions need no PCE. */
        CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&k_abc, eng, small_key, NULL, "small-abc", 0), cuzk_engine_last_error,
                     eng);
        CHECK(k_small != k_sha && k_sha != k_abc);
        /* The engine holds what it needs: the proving keys may go now. */
        cuzk_key_destroy(small_key);
        cuzk_key_destroy(sha_key);
    }

    CASE("jobs");
    cuzk_job *j_small = NULL, *j_sha = NULL, *j_abc = NULL;
    {
        static const long long xs[3] = {5, 2, 11}, ys[3] = {7, 9, 13};
        uint8_t in[3][64], aux[3][128];
        uint8_t av[96], bv[96], cv[96];
        cuzk_partition p[3], q;
        cuzk_job_options jo;
        int i;
        for (i = 0; i < 3; ++i) {
            small_witness(in[i], aux[i], xs[i], ys[i]);
            CHECK(cuzk_partition_init(&p[i]) == CUZK_OK);
            p[i].inputs = in[i];
            p[i].num_inputs = 2;
            p[i].aux = aux[i];
            p[i].num_aux = 4;
        }
        CHECK(cuzk_job_options_init(&jo) == CUZK_OK);
        jo.id = "small-job";
        CHECK_STATUS(CUZK_OK, cuzk_engine_submit(&j_small, eng, k_small, p, 3, &jo), cuzk_engine_last_error, eng);
        CHECK(strcmp(cuzk_job_id(j_small), "small-job") == 0);

        for (i = 0; i < 3; ++i) {
            p[i].inputs = sha_in[i];
            p[i].num_inputs = sha_ni;
            p[i].aux = sha_aux[i];
            p[i].num_aux = sha_na;
        }
        jo.id = NULL; /* "job-<n>" */
        jo.priority = 5;
        CHECK_STATUS(CUZK_OK, cuzk_engine_submit(&j_sha, eng, k_sha, p, 3, &jo), cuzk_engine_last_error, eng);
        CHECK(strncmp(cuzk_job_id(j_sha), "job-", 4) == 0);

        /* One partition given as a, b, c (x = 5, y = 7): rows (x, y, t), (t, 1, z − 3), (x + y, 2, s). */
        CHECK(cuzk_partition_init(&q) == CUZK_OK);
        q.kind = CUZK_PARTITION_ABC;
        q.inputs = in[0];
        q.num_inputs = 2;
        q.aux = aux[0];
        q.num_aux = 4;
        sc(av, 5), sc(bv, 7), sc(cv, 35);
        sc(av + 32, 35), sc(bv + 32, 1), sc(cv + 32, 35);
        sc(av + 64, 12), sc(bv + 64, 2), sc(cv + 64, 24);
        q.a = av;
        q.b = bv;
        q.c = cv;
        q.num_constraints = 3;
        CHECK_STATUS(CUZK_OK, cuzk_engine_submit(&j_abc, eng, k_abc, &q, 1, NULL), cuzk_engine_last_error, eng);

        CHECK_STATUS(CUZK_OK, cuzk_job_wait(j_small, -1), cuzk_job_last_error, j_small);
        CHECK_STATUS(CUZK_OK, cuzk_job_wait(j_sha, 600000), cuzk_job_last_error, j_sha);
        CHECK_STATUS(CUZK_OK, cuzk_job_wait(j_abc, -1), cuzk_job_last_error, j_abc);
        {
            int32_t st = -1;
            CHECK_STATUS(CUZK_OK, cuzk_job_poll(&st, j_small), cuzk_job_last_error, j_small);
            CHECK(st == CUZK_JOB_COMPLETED);
        }
        check_job(j_small, small_vk, 3, 1);
        check_job(j_sha, sha_vk, 3, 2);
        {
            uint8_t pub[32];
            size_t n = 0;
            CHECK_STATUS(CUZK_OK, cuzk_job_public_inputs(pub, sizeof pub, &n, j_abc, 0), cuzk_job_last_error, j_abc);
            CHECK(n == 32 && memcmp(pub, in[0] + 32, 32) == 0); /* z = 38 */
        }
        {
            /* The a, b, c partition verifies too (1 partition: no second proof to compare). */
            uint8_t proof[CUZK_PROOF_SIZE];
            size_t n = 0;
            int32_t valid = -1;
            CHECK_STATUS(CUZK_OK, cuzk_job_proof(proof, sizeof proof, &n, j_abc, 0), cuzk_job_last_error, j_abc);
            CHECK_STATUS(CUZK_OK, cuzk_key_verify(&valid, small_vk, proof, n, in[0] + 32, 1), cuzk_key_last_error,
                         small_vk);
            CHECK(valid == 1);
        }
        /* The SHA-256 job's public inputs are the digests' halves. */
        for (i = 0; i < 3; ++i) {
            uint8_t pub[64];
            size_t n = 0;
            CHECK_STATUS(CUZK_OK, cuzk_job_public_inputs(pub, sizeof pub, &n, j_sha, (size_t)i), cuzk_job_last_error,
                         j_sha);
            CHECK(n == 64 && memcmp(pub, sha_in[i] + 32, 64) == 0);
        }
    }

    CASE("engine stats");
    {
        cuzk_engine_stats s;
        s.struct_size = sizeof s;
        CHECK_STATUS(CUZK_OK, cuzk_engine_stats_get(&s, eng), cuzk_engine_last_error, eng);
        CHECK(s.jobs_submitted == 3 && s.jobs_completed == 3 && s.jobs_failed == 0 && s.jobs_live == 0);
        CHECK(s.partitions_proved == 7);
    }

    CASE("where a key's points are (a cpu engine: on the host)");
    {
        uint32_t where = 99;
        uint64_t dev_bytes = 99;
        CHECK_STATUS(CUZK_OK, cuzk_engine_key_placement(&where, &dev_bytes, eng, k_sha), cuzk_engine_last_error, eng);
        CHECK(where == CUZK_KEY_ON_HOST && dev_bytes == 0);
        CHECK_STATUS(CUZK_OK, cuzk_engine_key_placement(NULL, NULL, eng, k_small), cuzk_engine_last_error, eng);
        CHECK(cuzk_engine_key_placement(&where, NULL, eng, 1000) == CUZK_ERR_INVALID_ARGUMENT);
        CHECK(cuzk_engine_key_placement(&where, NULL, NULL, k_sha) == CUZK_ERR_NULL);
    }

    CASE("where registering a key went (a cpu engine: nothing on a device)");
    {
        double layout = -1, pce = -1, points = -1;
        CHECK_STATUS(CUZK_OK, cuzk_engine_key_registration(&layout, &pce, &points, eng, k_sha),
                     cuzk_engine_last_error, eng);
        CHECK(layout == 0 && pce == 0 && points == 0);
        CHECK_STATUS(CUZK_OK, cuzk_engine_key_registration(NULL, NULL, NULL, eng, k_small), cuzk_engine_last_error,
                     eng);
        CHECK(cuzk_engine_key_registration(&layout, NULL, NULL, eng, 1000) == CUZK_ERR_INVALID_ARGUMENT);
        CHECK(cuzk_engine_key_registration(&layout, NULL, NULL, NULL, k_sha) == CUZK_ERR_NULL);
    }

    CASE("a key from a .zkey in memory");
    {
        cuzk_key *zk = NULL, *zk2 = NULL;
        cuzk_key_info ki;
        uint8_t *buf, *vk1, *vk2;
        size_t len = 0, n1 = 0, n2 = 0;
        CHECK_CREATE(CUZK_OK, cuzk_key_setup_dev(&zk, small, CUZK_CONVENTION_SNARKJS, 0, err, sizeof err));
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
        /* The engine proves with the .zkey key too (no PCE; witness partitions). */
        {
            uint32_t id = 0;
            uint8_t in[64], aux[128], proof[CUZK_PROOF_SIZE];
            size_t n = 0;
            int32_t valid = -1;
            cuzk_partition p;
            cuzk_job* job = NULL;
            cuzk_key* zvk = NULL;
            CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_engine_add_key(&id, eng, zk2, small, "zkey", 0),
                         cuzk_engine_last_error, eng); /* a snarkjs key takes no PCE */
            CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&id, eng, zk2, NULL, "zkey", 0), cuzk_engine_last_error, eng);
            small_witness(in, aux, 4, 6);
            cuzk_partition_init(&p);
            p.inputs = in;
            p.num_inputs = 2;
            p.aux = aux;
            p.num_aux = 4;
            CHECK_STATUS(CUZK_OK, cuzk_engine_submit(&job, eng, id, &p, 1, NULL), cuzk_engine_last_error, eng);
            CHECK_STATUS(CUZK_OK, cuzk_job_wait(job, -1), cuzk_job_last_error, job);
            CHECK_STATUS(CUZK_OK, cuzk_job_proof(proof, sizeof proof, &n, job, 0), cuzk_job_last_error, job);
            /* Verified with a key read from the exported verifying key bytes. */
            CHECK_CREATE(CUZK_OK, cuzk_key_load_vk_mem(&zvk, vk1, n1, err, sizeof err));
            CHECK_STATUS(CUZK_OK, cuzk_key_verify(&valid, zvk, proof, n, in + 32, 1), cuzk_key_last_error, zvk);
            CHECK(valid == 1);
            /* Not under the bellperson key of the same circuit. */
            CHECK_STATUS(CUZK_OK, cuzk_key_verify(&valid, small_vk, proof, n, in + 32, 1), cuzk_key_last_error,
                         small_vk);
            CHECK(valid == 0);
            cuzk_key_destroy(zvk);
            cuzk_job_destroy(job);
        }
        free(vk1);
        free(vk2);
        cuzk_key_destroy(zk);
        cuzk_key_destroy(zk2);
    }

    /* The engine stops (threads joined): no event comes after this. */
    cuzk_engine_destroy(eng);

    CASE("timeline: the callback and the buffer saw the same run");
    {
        size_t waiting = 0, got = 0, total = 0, i;
        long submits = 0, dones = 0, small_synth = 0;
        cuzk_event evs[64];
        uint64_t dropped = 1;
        uint64_t last_t = 0;
        int monotone_submit = 1;
        CHECK_STATUS(CUZK_OK, cuzk_timeline_buffer_drain(&waiting, NULL, 0, sizeof(cuzk_event), tbuf),
                     cuzk_timeline_buffer_last_error, tbuf);
        CHECK(waiting > 0);
        do {
            CHECK_STATUS(CUZK_OK, cuzk_timeline_buffer_drain(&got, evs, 64, sizeof(cuzk_event), tbuf),
                         cuzk_timeline_buffer_last_error, tbuf);
            for (i = 0; i < got; ++i) {
                CHECK(evs[i].struct_size == sizeof(cuzk_event));
                CHECK(evs[i].name != NULL && evs[i].job != NULL);
                if (strcmp(evs[i].name, "JOB_SUBMIT") == 0) {
                    ++submits;
                    if (evs[i].t_ns < last_t) monotone_submit = 0;
                    last_t = evs[i].t_ns;
                }
                if (strcmp(evs[i].name, "JOB_DONE") == 0) ++dones;
                if (strcmp(evs[i].name, "SYNTH_END") == 0 && strcmp(evs[i].job, "small-job") == 0) {
                    ++small_synth;
                    CHECK(evs[i].partition >= 0 && evs[i].partition < 3);
                }
            }
            total += got;
        } while (got == 64);
        CHECK(total == waiting);
        CHECK(submits == 4 && dones == 4 && small_synth == 3 && monotone_submit);
        CHECK_STATUS(CUZK_OK, cuzk_timeline_buffer_dropped(&dropped, tbuf), cuzk_timeline_buffer_last_error, tbuf);
        CHECK(dropped == 0);
        pthread_mutex_lock(&cnt.mu);
        printf("timeline: %lu events drained, %ld seen by the callback\n", (unsigned long)total, cnt.events);
        CHECK(cnt.bad == 0);
        CHECK(cnt.job_done == 4);
        CHECK(cnt.events == (long)total);
        CHECK(cnt.spans_begin == cnt.spans_end && cnt.spans_begin > 0);
        pthread_mutex_unlock(&cnt.mu);
    }

    CASE("teardown in an arbitrary order");
    cuzk_pce_destroy(small);
    cuzk_pce_destroy(sha);
    cuzk_timeline_buffer_destroy(tbuf);
    {
        int32_t st = -1;
        CHECK_STATUS(CUZK_OK, cuzk_job_poll(&st, j_sha), cuzk_job_last_error, j_sha); /* outlives the engine */
        CHECK(st == CUZK_JOB_COMPLETED);
    }
    cuzk_job_destroy(j_small);
    cuzk_job_destroy(j_sha);
    cuzk_job_destroy(j_abc);
    cuzk_key_destroy(small_vk);
    cuzk_key_destroy(sha_vk);
    {
        int m;
        for (m = 0; m < 3; ++m) {
            free(sha_in[m]);
            free(sha_aux[m]);
        }
    }
    pthread_mutex_destroy(&cnt.mu);
    remove("capi_full_small.pce");
    remove("capi_full_small.zkey");
    printf("test_capi_full: %d checks passed\n", g_checks);
    return 0;
}
