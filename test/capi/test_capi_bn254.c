/* BN254 (circom/snarkjs "bn128") keys through the C ABI, with no call that
 * BLS12-381 keys do not use: a bn128 .zkey (written by bn254_fixture.cpp)
 * loads from a file and from memory with key_info.curve = CUZK_CURVE_BN254;
 * a 2-partition job of its witnesses proves on a cpu engine, its 256-byte
 * proofs and BN254 public inputs come back through the size queries and
 * verify with cuzk_key_verify; a changed public input does not verify; a
 * proof of the wrong length, a scalar >= BN254's r and undecodable proof
 * bytes give their codes; ABC, borrowed, PCE, density, .params and PoRep
 * uses of a BN254 key are refused; the key exports snarkjs's
 * verification_key.json and saves as a .zkey that loads back; a BLS12-381
 * key still says CUZK_CURVE_BLS12_381 and proves 192-byte proofs on the
 * same engine.
 *
 * Usage: test_capi_bn254 <fixture.zkey> <fixture-witness.bin> */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk.h"
#include "cuzk_filecoin.h"
#include "capi_test_util.h"

#define NI 3 /* inputs including ONE (the fixture's circuit) */
#define NA 7 /* aux */
#define NW (NI + NA)

/* BN254's r, little-endian: a scalar that BLS12-381's Fr accepts (r_BN254 <
 * r_BLS) but BN254's does not. */
static const uint8_t BN254_R[32] = {0x01, 0x00, 0x00, 0xf0, 0x93, 0xf5, 0xe1, 0x43, 0x91, 0x70, 0xb9,
                                    0x79, 0x48, 0xe8, 0x33, 0x28, 0x5d, 0x58, 0x81, 0x81, 0xb6, 0x45,
                                    0x50, 0xb8, 0x29, 0xa0, 0x31, 0xe1, 0x72, 0x4e, 0x64, 0x30};

static void check_bn254_info(const cuzk_key* key)
{
    cuzk_key_info ki;
    memset(&ki, 0xff, sizeof ki);
    ki.struct_size = sizeof ki;
    CHECK_STATUS(CUZK_OK, cuzk_key_info_get(&ki, key), cuzk_key_last_error, key);
    CHECK(ki.curve == CUZK_CURVE_BN254 && ki.convention == CUZK_CONVENTION_SNARKJS && ki.has_proving_key == 1);
    CHECK(ki.num_inputs == NI && ki.num_aux == NA && ki.domain_size == 16);
}

/* *out_valid of cuzk_key_verify, or -1 when it does not return CUZK_OK. */
static int verify(const cuzk_key* key, const uint8_t* proof, size_t len, const uint8_t* pub)
{
    int32_t ok = 7;
    if (cuzk_key_verify(&ok, key, proof, len, pub, NI - 1) != CUZK_OK) return -1;
    return ok;
}

/* A 2-partition job of the fixture's witnesses w (2·NW scalars). */
static cuzk_job* submit(cuzk_engine* eng, uint32_t id, const uint8_t* w, uint32_t kind)
{
    cuzk_partition parts[2];
    cuzk_job* job = NULL;
    int p;
    for (p = 0; p < 2; ++p) {
        CHECK(cuzk_partition_init(&parts[p]) == CUZK_OK);
        parts[p].kind = kind;
        parts[p].inputs = w + 32 * NW * p;
        parts[p].num_inputs = NI;
        parts[p].aux = w + 32 * (NW * p + NI);
        parts[p].num_aux = NA;
    }
    if (cuzk_engine_submit(&job, eng, id, parts, 2, NULL) != CUZK_OK) return NULL;
    return job;
}

static void case_key_files(const cuzk_key* key, const uint8_t* proof, const uint8_t* pub)
{
    size_t n = 0;
    char* vk;
    cuzk_key* back = NULL;
    CASE("key files: verification_key.json, .zkey round trip, no .params");
    /* The verifying key as snarkjs's verification_key.json. */
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk(NULL, 0, &n, key), cuzk_key_last_error, key);
    CHECK(n > 100);
    vk = (char*)malloc(n + 1);
    CHECK(vk != NULL);
    CHECK_STATUS(CUZK_OK, cuzk_key_export_vk((uint8_t*)vk, n, &n, key), cuzk_key_last_error, key);
    vk[n] = '\0';
    CHECK(vk[0] == '{' && strstr(vk, "\"bn128\"") && strstr(vk, "\"vk_alphabeta_12\"") && strstr(vk, "\"IC\""));
    free(vk);
    /* .zkey round trip; .params is BLS12-381 only. */
    CHECK_STATUS(CUZK_OK, cuzk_key_save_zkey(key, "capi_bn254_saved.zkey"), cuzk_key_last_error, key);
    CHECK_CREATE(CUZK_OK, cuzk_key_load_zkey(&back, "capi_bn254_saved.zkey", CUZK_LOAD_CHECK_SUBGROUP, 0, err,
                                             sizeof err));
    check_bn254_info(back);
    CHECK(verify(back, proof, CUZK_PROOF_SIZE_BN254, pub) == 1);
    cuzk_key_destroy(back);
    remove("capi_bn254_saved.zkey");
    CHECK_STATUS(CUZK_ERR_UNSUPPORTED, cuzk_key_save_params(key, "capi_bn254_never.params"), cuzk_key_last_error,
                 key);
    CHECK(strstr(LAST_ERROR(cuzk_key_last_error, key), "BN254") != NULL);
}

/* Proof and scalar misuse on cuzk_key_verify. */
static void case_verify_errors(const cuzk_key* key, const uint8_t* proof, const uint8_t* pub)
{
    uint8_t bad[CUZK_PROOF_SIZE_BN254 + 1], badpub[32 * (NI - 1)];
    int32_t ok = 7;
    CASE("verify: changed inputs, wrong lengths, scalars >= r, undecodable proofs");
    /* A changed public input: invalid, status OK. */
    memcpy(badpub, pub, sizeof badpub);
    badpub[0] ^= 1;
    CHECK(verify(key, proof, CUZK_PROOF_SIZE_BN254, badpub) == 0);
    /* Wrong lengths: 192 (a BLS12-381 proof's) and 257. */
    memcpy(bad, proof, CUZK_PROOF_SIZE_BN254);
    bad[CUZK_PROOF_SIZE_BN254] = 0;
    CHECK_STATUS(CUZK_ERR_BAD_LENGTH, cuzk_key_verify(&ok, key, bad, CUZK_PROOF_SIZE, pub, NI - 1),
                 cuzk_key_last_error, key);
    CHECK(ok == 7);
    CHECK(strstr(LAST_ERROR(cuzk_key_last_error, key), "192") && strstr(g_msg, "256"));
    CHECK_STATUS(CUZK_ERR_BAD_LENGTH, cuzk_key_verify(&ok, key, bad, CUZK_PROOF_SIZE_BN254 + 1, pub, NI - 1),
                 cuzk_key_last_error, key);
    /* A public input >= BN254's r. */
    memcpy(badpub, pub, sizeof badpub);
    memcpy(badpub + 32, BN254_R, 32);
    CHECK_STATUS(CUZK_ERR_NON_CANONICAL, cuzk_key_verify(&ok, key, proof, CUZK_PROOF_SIZE_BN254, badpub, NI - 1),
                 cuzk_key_last_error, key);
    CHECK(strstr(LAST_ERROR(cuzk_key_last_error, key), "public_inputs[1]") != NULL);
    /* Proof bytes that do not decode: A.x = 0xff… (>= q), C moved off the curve. */
    memset(bad, 0xff, 32);
    CHECK_STATUS(CUZK_ERR_NON_CANONICAL, cuzk_key_verify(&ok, key, bad, CUZK_PROOF_SIZE_BN254, pub, NI - 1),
                 cuzk_key_last_error, key);
    CHECK(ok == 0);
    memcpy(bad, proof, CUZK_PROOF_SIZE_BN254);
    bad[CUZK_PROOF_SIZE_BN254 - 1] ^= 1;
    CHECK_STATUS(CUZK_ERR_NOT_ON_CURVE, cuzk_key_verify(&ok, key, bad, CUZK_PROOF_SIZE_BN254, pub, NI - 1),
                 cuzk_key_last_error, key);
    /* The wrong number of public inputs. */
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_key_verify(&ok, key, proof, CUZK_PROOF_SIZE_BN254, pub, NI - 2),
                 cuzk_key_last_error, key);
}

/* The job's proofs, verified; public inputs as in the witnesses. */
static void check_job(const cuzk_key* key, cuzk_job* job, const uint8_t* w, uint8_t proofs[2 * CUZK_PROOF_SIZE_BN254])
{
    size_t n = 0;
    cuzk_status st = 1;
    uint8_t one[CUZK_PROOF_SIZE_BN254], pub[32 * (NI - 1)];
    int p;
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(job, -1), cuzk_job_last_error, job);
    CHECK_STATUS(CUZK_OK, cuzk_job_status(&st, NULL, job), cuzk_job_last_error, job);
    if (st != CUZK_OK) fprintf(stderr, "job failed: %s\n", cuzk_job_message(job));
    CHECK(st == CUZK_OK);
    CHECK_STATUS(CUZK_OK, cuzk_job_proofs(NULL, 0, &n, job), cuzk_job_last_error, job);
    CHECK(n == 2 * CUZK_PROOF_SIZE_BN254);
    CHECK_STATUS(CUZK_OK, cuzk_job_proofs(proofs, n, &n, job), cuzk_job_last_error, job);
    for (p = 0; p < 2; ++p) {
        CHECK_STATUS(CUZK_OK, cuzk_job_proof(NULL, 0, &n, job, (size_t)p), cuzk_job_last_error, job);
        CHECK(n == CUZK_PROOF_SIZE_BN254);
        CHECK_STATUS(CUZK_OK, cuzk_job_proof(one, sizeof one, &n, job, (size_t)p), cuzk_job_last_error, job);
        CHECK(memcmp(one, proofs + CUZK_PROOF_SIZE_BN254 * p, sizeof one) == 0);
        CHECK_STATUS(CUZK_OK, cuzk_job_public_inputs(NULL, 0, &n, job, (size_t)p), cuzk_job_last_error, job);
        CHECK(n == sizeof pub);
        CHECK_STATUS(CUZK_OK, cuzk_job_public_inputs(pub, sizeof pub, &n, job, (size_t)p), cuzk_job_last_error, job);
        CHECK(memcmp(pub, w + 32 * (NW * p + 1), sizeof pub) == 0);
        CHECK(verify(key, one, sizeof one, pub) == 1);
    }
    /* Each proof is of its own partition's inputs. */
    CHECK(verify(key, proofs, CUZK_PROOF_SIZE_BN254, w + 32 * (NW + 1)) == 0);
}

static void release_never(void* user, size_t partition)
{
    (void)partition;
    ++*(int*)user;
}

/* Forms and uses a BN254 key does not take. */
static void case_refusals(cuzk_engine* eng, uint32_t id, const cuzk_key* key, const uint8_t* w)
{
    uint8_t bad[32 * 2 * NW];
    cuzk_borrowed_partition bp;
    cuzk_query_density qd;
    cuzk_porep_shape shape;
    cuzk_job* job = NULL;
    uint32_t id2 = 0;
    int32_t ok = 7;
    int released = 0;
    cuzk_pce* pce;
    CASE("refusals: forms and uses a BN254 key does not take");
    pce = record_small_circuit();
    /* ABC partitions and borrowed partitions: unsupported. */
    CHECK(submit(eng, id, w, CUZK_PARTITION_ABC) == NULL);
    CHECK(cuzk_engine_last_error(g_msg, sizeof g_msg, eng) && strstr(g_msg, "BN254"));
    CHECK(cuzk_borrowed_partition_init(&bp) == CUZK_OK);
    bp.inputs = w;
    bp.num_inputs = NI;
    bp.aux = w + 32 * NI;
    bp.num_aux = NA;
    bp.release = release_never;
    bp.user_data = &released;
    CHECK_STATUS(CUZK_ERR_UNSUPPORTED, cuzk_engine_submit_borrowed(&job, eng, id, &bp, 1, NULL),
                 cuzk_engine_last_error, eng);
    CHECK(released == 0 && job == NULL);
    /* Copied witnesses: a scalar >= BN254's r, a wrong count, inputs[0] != ONE. */
    memcpy(bad, w, sizeof bad);
    memcpy(bad + 32 * (NW + NI + 2), BN254_R, 32);
    CHECK(submit(eng, id, bad, CUZK_PARTITION_WITNESS) == NULL);
    CHECK(cuzk_engine_last_error(g_msg, sizeof g_msg, eng) && strstr(g_msg, "partition 1 aux[2]"));
    memcpy(bad, w, sizeof bad);
    bad[0] = 2;
    CHECK(submit(eng, id, bad, CUZK_PARTITION_WITNESS) == NULL);
    CHECK(cuzk_engine_last_error(g_msg, sizeof g_msg, eng) && strstr(g_msg, "ONE"));
    /* A PCE or densities with a BN254 key; PoRep verification. */
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_engine_add_key(&id2, eng, key, pce, "bn", 0), cuzk_engine_last_error,
                 eng);
    CHECK(cuzk_query_density_init(&qd) == CUZK_OK);
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT, cuzk_engine_add_key_density(&id2, eng, key, &qd, "bn", 0),
                 cuzk_engine_last_error, eng);
    CHECK(cuzk_porep_shape_registered(&shape, 0) == CUZK_OK);
    CHECK_STATUS(CUZK_ERR_INVALID_ARGUMENT,
                 cuzk_porep_verify(&ok, key, &shape, w, 1, w, w, w, w, w, CUZK_PROOF_SIZE),
                 cuzk_key_last_error, key);
    cuzk_pce_destroy(pce);
}

/* The cuzk_engine_submit codes of the refusals above, one by one. */
static void case_submit_codes(cuzk_engine* eng, uint32_t id, const uint8_t* w)
{
    cuzk_partition p;
    cuzk_job* job = NULL;
    uint8_t bad[32 * NW];
    CASE("refusals: the submit codes");
    CHECK(cuzk_partition_init(&p) == CUZK_OK);
    p.kind = CUZK_PARTITION_ABC;
    p.inputs = w;
    p.num_inputs = NI;
    p.aux = w + 32 * NI;
    p.num_aux = NA;
    CHECK_STATUS(CUZK_ERR_UNSUPPORTED, cuzk_engine_submit(&job, eng, id, &p, 1, NULL), cuzk_engine_last_error, eng);
    p.kind = CUZK_PARTITION_WITNESS;
    p.num_aux = NA - 1;
    CHECK_STATUS(CUZK_ERR_BAD_LENGTH, cuzk_engine_submit(&job, eng, id, &p, 1, NULL), cuzk_engine_last_error, eng);
    memcpy(bad, w, sizeof bad);
    memcpy(bad + 32, BN254_R, 32);
    p.inputs = bad;
    p.num_aux = NA;
    CHECK_STATUS(CUZK_ERR_NON_CANONICAL, cuzk_engine_submit(&job, eng, id, &p, 1, NULL), cuzk_engine_last_error, eng);
    CHECK(strstr(LAST_ERROR(cuzk_engine_last_error, eng), "partition 0 inputs[1]") != NULL);
    CHECK(job == NULL);
}

/* A BLS12-381 key says so, and its jobs on the same engine still give
 * 192-byte proofs that verify. */
static void case_bls_curve(cuzk_engine* eng)
{
    cuzk_key_info ki;
    cuzk_key* key = NULL;
    cuzk_partition p;
    cuzk_job* job = NULL;
    cuzk_status st = 1;
    uint8_t in[64], aux[128], proof[CUZK_PROOF_SIZE + 1];
    size_t n = 0;
    uint32_t id = 0;
    int32_t ok = 7;
    cuzk_pce* pce;
    CASE("a BLS12-381 key on the same engine");
    pce = record_small_circuit();
    CHECK_CREATE(CUZK_OK, cuzk_key_setup_dev(&key, pce, CUZK_CONVENTION_BELLPERSON, 0, err, sizeof err));
    memset(&ki, 0xff, sizeof ki);
    ki.struct_size = sizeof ki;
    CHECK_STATUS(CUZK_OK, cuzk_key_info_get(&ki, key), cuzk_key_last_error, key);
    CHECK(ki.curve == CUZK_CURVE_BLS12_381 && ki.convention == CUZK_CONVENTION_BELLPERSON);
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&id, eng, key, pce, "bls", 0), cuzk_engine_last_error, eng);
    small_witness(in, aux, 3, 5);
    CHECK(cuzk_partition_init(&p) == CUZK_OK);
    p.inputs = in;
    p.num_inputs = 2;
    p.aux = aux;
    p.num_aux = 4;
    CHECK_STATUS(CUZK_OK, cuzk_engine_submit(&job, eng, id, &p, 1, NULL), cuzk_engine_last_error, eng);
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(job, -1), cuzk_job_last_error, job);
    CHECK_STATUS(CUZK_OK, cuzk_job_status(&st, NULL, job), cuzk_job_last_error, job);
    CHECK(st == CUZK_OK);
    CHECK_STATUS(CUZK_OK, cuzk_job_proof(proof, sizeof proof, &n, job, 0), cuzk_job_last_error, job);
    CHECK(n == CUZK_PROOF_SIZE);
    CHECK_STATUS(CUZK_OK, cuzk_key_verify(&ok, key, proof, n, in + 32, 1), cuzk_key_last_error, key);
    CHECK(ok == 1);
    cuzk_job_destroy(job);
    cuzk_key_destroy(key);
    cuzk_pce_destroy(pce);
}

/* The fixture's key, from its file (*key) and from memory (*mem_key). */
static void case_load(const char* zkey_path, cuzk_key** key, cuzk_key** mem_key)
{
    uint8_t* zkey;
    size_t zkey_len = 0;
    CASE("the bn128 .zkey from a file and from memory");
    CHECK_CREATE(CUZK_OK, cuzk_key_load_zkey(key, zkey_path, 0, 0, err, sizeof err));
    check_bn254_info(*key);
    zkey = read_file(zkey_path, &zkey_len);
    CHECK_CREATE(CUZK_OK, cuzk_key_load_zkey_mem(mem_key, zkey, zkey_len, CUZK_LOAD_CHECK_SUBGROUP, 0, err,
                                                 sizeof err));
    free(zkey);
    check_bn254_info(*mem_key);
}

/* A cpu engine with `key` (id *id); a 2-partition job of the witnesses w,
 * its proofs (into proofs) verified under mem_key. */
static cuzk_engine* case_prove(const cuzk_key* key, const cuzk_key* mem_key, const uint8_t* w, uint32_t* id,
                               uint8_t proofs[2 * CUZK_PROOF_SIZE_BN254])
{
    cuzk_engine* eng = NULL;
    cuzk_engine_options eo;
    cuzk_job* job;
    CASE("a 2-partition job on a cpu engine");
    CHECK(cuzk_engine_options_init(&eo) == CUZK_OK);
    eo.backend = CUZK_BACKEND_CPU;
    CHECK_CREATE(CUZK_OK, cuzk_engine_create(&eng, &eo, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(id, eng, key, NULL, "bn254-chain", 0), cuzk_engine_last_error, eng);
    job = submit(eng, *id, w, CUZK_PARTITION_WITNESS);
    CHECK(job != NULL);
    check_job(mem_key, job, w, proofs);
    cuzk_job_destroy(job);
    return eng;
}

int main(int argc, char** argv)
{
    uint8_t *w, proofs[2 * CUZK_PROOF_SIZE_BN254];
    size_t w_len = 0;
    cuzk_key *key = NULL, *mem_key = NULL;
    cuzk_engine* eng;
    uint32_t id = 0;
    if (argc != 3) {
        fprintf(stderr, "usage: %s <fixture.zkey> <fixture-witness.bin>\n", argv[0]);
        return 2;
    }
    CASE("the fixture's witnesses");
    w = read_file(argv[2], &w_len);
    CHECK(w_len == 2 * 32 * NW);
    case_load(argv[1], &key, &mem_key);
    eng = case_prove(key, mem_key, w, &id, proofs);
    case_verify_errors(key, proofs, w + 32);
    case_key_files(key, proofs, w + 32);
    case_refusals(eng, id, key, w);
    case_submit_codes(eng, id, w);
    case_bls_curve(eng);
    cuzk_engine_destroy(eng);
    cuzk_key_destroy(mem_key);
    cuzk_key_destroy(key);
    free(w);
    return 0;
}
