/*
 * cuzk_filecoin.h — Filecoin's proofs on the cuzk engine: PoRep C2 (a
 * sector's C1 output into its PoRep proof), PoSt (WindowPoSt, WinningPoSt)
 * and SnapDeals (EmptySectorUpdate), each with its shapes, keys, jobs and
 * verification.
 *
 * Part of the C ABI of cuzk, beside cuzk.h (which it includes): pure C99,
 * the same library (libcuzk.so) and the same CUZK_ABI_VERSION. The
 * conventions of cuzk.h (status codes, error text, handles, threading,
 * pointers, size queries, option structs, scalars, proofs) apply to every
 * function here; keys, engines and jobs are cuzk.h's objects, so a job
 * queued here is waited for, polled, cancelled and read with cuzk.h's
 * cuzk_job_* functions.
 */
#ifndef CUZK_FILECOIN_H
#define CUZK_FILECOIN_H

#include "cuzk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Filecoin PoRep (C2) ======================================================== */
/* Proving a sector's SealCommitPhase1Output (the "C1 JSON" that
 * filecoin-ffi's seal_commit_phase1 returns, serde_json form; see
 * docs/FILECOIN.md) into its PoRep proof: one Groth16 proof per partition,
 * concatenated in partition order (192 bytes each; 1920 for 32 GiB), and
 * verifying such a proof. */

#define CUZK_POREP_CUSTOM (-1) /* registered_proof of a custom (test) shape */
#define CUZK_POREP_API_1_0 0u
#define CUZK_POREP_API_1_1 1u
#define CUZK_POREP_API_1_2 2u

/* A PoRep shape: a Filecoin RegisteredSealProof (0 … 19: 2KiB, 8MiB, 512MiB,
 * 32GiB, 64GiB in the V1, V1_1, V1_1 synthetic and V1_2 NI families) or a
 * custom shape of any power-of-two node count (cuzk's test shapes; the C1
 * JSON then says "registered_proof":"custom"). For a registered proof only
 * registered_proof is read; every other field is ignored. */
typedef struct cuzk_porep_shape {
    uint32_t struct_size;      /* sizeof(cuzk_porep_shape) */
    int32_t registered_proof;  /* 0 … 19, or CUZK_POREP_CUSTOM */
    uint64_t nodes;            /* custom: 32-byte nodes of the sector (a power of two) */
    uint32_t layers;           /* custom: SDR layers, 1 … 15 */
    uint32_t challenges;       /* custom: challenges per partition */
    uint32_t partitions;       /* custom: partitions (>= 1) */
    uint32_t api;              /* custom: CUZK_POREP_API_* */
    uint32_t tree_base, tree_sub, tree_top; /* custom: tree arities, 0 = no such level (e.g. 8, 0, 0) */
    uint32_t reserved;         /* 0 */
    uint8_t porep_id[32];      /* custom: the porep id */
} cuzk_porep_shape;

/* Sets struct_size and clears the rest (registered_proof = CUZK_POREP_CUSTOM
 * with every field 0, to be filled). Errors: CUZK_ERR_NULL. */
CUZK_API cuzk_status cuzk_porep_shape_init(cuzk_porep_shape* out);
/* Writes the whole struct (as _init does) for registered proof `id`, every
 * field filled. Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_ARGUMENT (unknown id). */
CUZK_API cuzk_status cuzk_porep_shape_registered(cuzk_porep_shape* out, int32_t id);
/* Writes the whole struct (as _init does) with the shape of a C1 JSON
 * (c1_len bytes, borrowed for the call); the file is parsed and checked
 * structurally (not its proofs).
 * Errors: CUZK_ERR_NULL, CUZK_ERR_BAD_FORMAT (the message gives the JSON path
 * and byte offset). */
CUZK_API cuzk_status cuzk_porep_shape_of_c1(cuzk_porep_shape* out, const uint8_t* c1_json, size_t c1_len, char* err,
                                            size_t err_len);

/* A PoRep proving key for `shape`'s circuit from a bellperson .params file
 * (path copied; e.g. Filecoin's v28-stacked-proof-of-replication-…params),
 * mapped as cuzk_key_load_params does (points decoded with `threads`
 * threads, 0 = all, where they are needed: a cuda engine takes them straight
 * into device memory). The circuit is recorded (its PCE and query
 * densities) and kept with the key, so cuzk_engine_add_key takes it with
 * pce = NULL. Blocks for the recording (32 GiB: the file is ~47 GB; the
 * circuit ~130 M constraints).
 * Errors: CUZK_ERR_NULL, CUZK_ERR_STRUCT_SIZE, CUZK_ERR_INVALID_ARGUMENT (an
 * invalid shape; a key whose counts do not match the circuit: the message
 * gives both), and the errors of cuzk_key_load_params. */
CUZK_API cuzk_status cuzk_porep_key_load(cuzk_key** out, const cuzk_porep_shape* shape, const char* params_path,
                                         uint32_t threads, char* err, size_t err_len);
/* cuzk_porep_key_load with the recorded circuit kept in the directory
 * pce_cache_dir (NULL or "": exactly cuzk_porep_key_load). The first call for
 * a shape records the circuit and writes it there as a PCE file (the format
 * of cuzk_pce_save; named porep-<shape>-<hash of the shape>.pce, ~9 GB for
 * 32 GiB; the directory is created if missing); later calls, in any process,
 * map that file and verify its checksums instead of recording: seconds
 * instead of about a minute for 32 GiB. A file that does not load (it is
 * then replaced) or a directory that cannot be written is not an error: the
 * circuit is recorded, as without a cache. The engine verifies every proof,
 * so a file that is not the shape's circuit gives failed jobs, never wrong
 * proofs. Errors: those of cuzk_porep_key_load. */
CUZK_API cuzk_status cuzk_porep_key_load_cached(cuzk_key** out, const cuzk_porep_shape* shape,
                                                const char* params_path, const char* pce_cache_dir, uint32_t threads,
                                                char* err, size_t err_len);
/* A development PoRep key for `shape` (records the circuit, then a
 * single-party setup on the CPU with `threads` threads). NOT FOR PRODUCTION:
 * see cuzk_key_setup_dev. Use it for test shapes (the smallest, 8 nodes, 2
 * layers, 1 challenge, tree 8-0-0, has ~1.2 M constraints: about a minute on
 * 2 cores). Export its verifying key with cuzk_key_export_vk.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_STRUCT_SIZE, CUZK_ERR_INVALID_ARGUMENT (an
 * invalid shape), CUZK_ERR_OUT_OF_MEMORY. */
CUZK_API cuzk_status cuzk_porep_key_setup_dev(cuzk_key** out, const cuzk_porep_shape* shape, uint32_t threads,
                                              char* err, size_t err_len);

/* Queues C2 for one sector: the C1 JSON (c1_len bytes, borrowed for the call:
 * parsed into the job) is read, its vanilla proofs are checked (every
 * challenge, path, column and label; with prover_id given, also that
 * replica_id is the one of prover_id, sector_id, ticket and comm_d), and one
 * partition per C1 partition is queued under key_id, which must be a PoRep
 * key (cuzk_porep_key_load / cuzk_porep_key_setup_dev) of the C1's circuit
 * shape. The engine synthesizes each partition's circuit itself; timeline
 * events come per partition as for any job. Wait, poll, cancel and read it
 * as any job: cuzk_job_proofs gives the PoRep proof (192 · partitions bytes),
 * cuzk_job_public_inputs each partition's inputs. Blocks while checking the
 * vanilla proofs (on all cores; a second or so for 32 GiB).
 * prover_id (32 bytes, borrowed) may be NULL: replica_id is then taken as
 * the file says. opt may be NULL (defaults, as for cuzk_engine_submit).
 * Errors: CUZK_ERR_NULL (out, engine, c1_json), CUZK_ERR_INVALID_HANDLE,
 * CUZK_ERR_BAD_FORMAT (malformed JSON, a vanilla proof that does not check, a
 * replica_id not of this prover and sector: the message names the JSON field),
 * CUZK_ERR_INVALID_ARGUMENT (unknown key id, a key that is not a PoRep key or
 * is of another shape: the message gives both), and those of
 * cuzk_engine_submit. */
CUZK_API cuzk_status cuzk_porep_c2_submit(cuzk_job** out, cuzk_engine* engine, uint32_t key_id,
                                          const uint8_t* c1_json, size_t c1_len, const uint8_t* prover_id,
                                          uint64_t sector_id, const cuzk_job_options* opt);

/* Verifies a PoRep proof (proof_len = 192 · partitions bytes, borrowed) of
 * `shape` for the sector (prover_id, sector_id, ticket, seed, comm_d,
 * comm_r: 32 bytes each, borrowed; the commitments are the little-endian Fr
 * bytes as in the C1 JSON) with `key` (any key of the shape's circuit: a
 * PoRep key, or a verifying key from cuzk_key_load_vk). Rebuilds every
 * partition's public inputs and checks all partitions in one batch.
 * *out = 1 valid, 0 not (status CUZK_OK).
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_STRUCT_SIZE,
 * CUZK_ERR_BAD_LENGTH (proof_len), CUZK_ERR_NON_CANONICAL (comm_d, comm_r),
 * CUZK_ERR_INVALID_ARGUMENT (an invalid shape; a key of another circuit or
 * a BN254 key), decoding codes for a proof whose bytes do not decode
 * (*out = 0). */
CUZK_API cuzk_status cuzk_porep_verify(int32_t* out, const cuzk_key* key, const cuzk_porep_shape* shape,
                                       const uint8_t* prover_id, uint64_t sector_id, const uint8_t* ticket,
                                       const uint8_t* seed, const uint8_t* comm_d, const uint8_t* comm_r,
                                       const uint8_t* proof, size_t proof_len);

/* ==== Filecoin PoSt (WindowPoSt, WinningPoSt) ==================================== */
/* Proving vanilla PoSt proofs (the bytes filecoin-proofs-api's
 * generate_single_vanilla_proof returns, one per sector: bincode of
 * FallbackPoStSectorProof; docs/FORMATS.md) into Groth16 proofs, 192 bytes
 * a partition, and verifying them. A WindowPoSt partition proves up to
 * sector_count sectors (32 GiB: 2349; a short partition repeats its last
 * sector); WinningPoSt proves one sector. */

#define CUZK_POST_CUSTOM (-1) /* registered_proof of a custom (test) shape */
#define CUZK_POST_WINNING 0u
#define CUZK_POST_WINDOW 1u

/* A PoSt proof type: a Filecoin RegisteredPoStProof (0 … 4 WinningPoSt
 * 2KiB … 64GiB, 5 … 9 WindowPoSt V1, 10 … 14 WindowPoSt V1_2) or a custom
 * shape. For a registered proof only registered_proof is read. */
typedef struct cuzk_post_shape {
    uint32_t struct_size;      /* sizeof(cuzk_post_shape) */
    int32_t registered_proof;  /* 0 … 14, or CUZK_POST_CUSTOM */
    uint32_t type;             /* custom: CUZK_POST_WINNING or CUZK_POST_WINDOW */
    uint32_t api;              /* custom: CUZK_POREP_API_1_0, or _1_2 (WindowPoSt only) */
    uint64_t nodes;            /* custom: 32-byte nodes of a sector */
    uint32_t sector_count;     /* custom: sectors a partition (WinningPoSt: 1) */
    uint32_t challenge_count;  /* custom: challenges a sector */
    uint32_t tree_base, tree_sub, tree_top; /* custom: tree R_last's arities, 0 = no such level */
    uint32_t reserved;         /* 0 */
} cuzk_post_shape;

/* Sets struct_size and clears the rest (registered_proof =
 * CUZK_POST_CUSTOM). Errors: CUZK_ERR_NULL. */
CUZK_API cuzk_status cuzk_post_shape_init(cuzk_post_shape* out);
/* Writes the whole struct for registered proof `id`, every field filled.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_ARGUMENT (unknown id). */
CUZK_API cuzk_status cuzk_post_shape_registered(cuzk_post_shape* out, int32_t id);

/* The challenged leaves of each of n sectors (sector_ids, borrowed; the list
 * a prover proves, in order: WindowPoSt V1 challenges depend on a sector's
 * position in it) for the 32-byte randomness: challenge_count leaves a
 * sector written to out[i · challenge_count + j]; out_count (in: room in
 * out, in leaves; out: leaves written or needed).
 * Errors: CUZK_ERR_NULL, CUZK_ERR_STRUCT_SIZE, CUZK_ERR_INVALID_ARGUMENT (an
 * invalid shape; WinningPoSt with n != 1), CUZK_ERR_BUFFER_TOO_SMALL. */
CUZK_API cuzk_status cuzk_post_sector_challenges(uint64_t* out, size_t* out_count, const cuzk_post_shape* shape,
                                                 const uint8_t* randomness, const uint64_t* sector_ids, size_t n);

/* A PoSt proving key for `shape`'s circuit from a bellperson .params file
 * (e.g. Filecoin's v28-proof-of-spacetime-fallback-…params), mapped as
 * cuzk_porep_key_load does; the circuit is recorded and kept with the key.
 * Errors: as cuzk_porep_key_load. */
CUZK_API cuzk_status cuzk_post_key_load(cuzk_key** out, const cuzk_post_shape* shape, const char* params_path,
                                        uint32_t threads, char* err, size_t err_len);
/* A development PoSt key for `shape` (NOT FOR PRODUCTION: see
 * cuzk_key_setup_dev). Errors: as cuzk_porep_key_setup_dev. */
CUZK_API cuzk_status cuzk_post_key_setup_dev(cuzk_key** out, const cuzk_post_shape* shape, uint32_t threads,
                                             char* err, size_t err_len);

/* Checks the vanilla proofs of n sectors (as cuzk_post_submit reads and
 * checks them, partitions numbered from first_partition) and reports every
 * faulty sector, as filecoin-proofs' FaultySectors does, so that a host can
 * declare them and prove the others: their numbers go to faulty[0 …] in
 * list order; *faulty_count (in: room in faulty; out: faulty sectors found
 * or needed; 0: every proof checks). The reasons go to err (the first one).
 * Errors: CUZK_ERR_NULL, CUZK_ERR_STRUCT_SIZE, CUZK_ERR_BAD_LENGTH and
 * CUZK_ERR_BAD_FORMAT (bytes that do not read: not a fault, the message
 * names vanilla[i]), CUZK_ERR_INVALID_ARGUMENT (an invalid shape, n = 0,
 * WinningPoSt with n != 1), CUZK_ERR_BUFFER_TOO_SMALL. */
CUZK_API cuzk_status cuzk_post_check_vanilla(uint64_t* faulty, size_t* faulty_count, const cuzk_post_shape* shape,
                                             const uint8_t* randomness, const uint8_t* const* vanilla,
                                             const size_t* vanilla_len, size_t n, uint32_t first_partition,
                                             char* err, size_t err_len);

/* Queues the PoSt of n sectors: vanilla[i] (vanilla_len[i] bytes, borrowed
 * for the call) is sector i's vanilla proof; the sectors are proved as
 * partitions first_partition, first_partition + 1, … of sector_count each
 * (a host that proves one partition a call passes that partition's sectors
 * and its index; WinningPoSt: n = 1, first_partition 0). Every proof is
 * read strictly and checked (comm_r = Poseidon2(comm_c, comm_r_last), each
 * path to comm_r_last, each leaf the challenged one for `randomness`)
 * before anything is queued, under key_id, a PoSt key of the shape's
 * circuit. cuzk_job_proofs then gives 192 bytes a partition.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_BAD_LENGTH and
 * CUZK_ERR_BAD_FORMAT (a vanilla proof that does not read or check: the
 * message names the sector, its index and the field),
 * CUZK_ERR_NON_CANONICAL, CUZK_ERR_INVALID_ARGUMENT (unknown key id, a key
 * that is not a PoSt key of this shape, n = 0, WinningPoSt with n != 1), and
 * those of cuzk_engine_submit. */
CUZK_API cuzk_status cuzk_post_submit(cuzk_job** out, cuzk_engine* engine, uint32_t key_id,
                                      const uint8_t* randomness, const uint8_t* const* vanilla,
                                      const size_t* vanilla_len, size_t n, uint32_t first_partition,
                                      const cuzk_job_options* opt);

/* Verifies a PoSt proof (192 bytes a partition, borrowed) of n sectors
 * (sector_ids and comm_rs: n numbers and 32 · n bytes, borrowed, in the
 * prover's order) for `randomness`, partitions numbered from
 * first_partition, with `key` (a PoSt key or a verifying key of the
 * circuit). *out = 1 valid, 0 not (status CUZK_OK).
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_STRUCT_SIZE,
 * CUZK_ERR_BAD_LENGTH (proof_len), CUZK_ERR_NON_CANONICAL (a comm_r),
 * CUZK_ERR_INVALID_ARGUMENT (an invalid shape; a key of another circuit or a
 * BN254 key), decoding codes for a proof that does not decode (*out = 0). */
CUZK_API cuzk_status cuzk_post_verify(int32_t* out, const cuzk_key* key, const cuzk_post_shape* shape,
                                      const uint8_t* randomness, const uint64_t* sector_ids, const uint8_t* comm_rs,
                                      size_t n, uint32_t first_partition, const uint8_t* proof, size_t proof_len);

/* ==== Filecoin SnapDeals (EmptySectorUpdate) ==================================== */
/* Proving a sector update from its vanilla partition proofs (the bytes
 * filecoin-proofs-api's generate_partition_proofs returns, one per
 * partition: bincode of PartitionProof; docs/FORMATS.md) into one Groth16
 * proof, 192 bytes a partition (32 GiB: 16 partitions, 3072 bytes), and
 * verifying it. registered_proof is a Filecoin RegisteredUpdateProof: 0 … 4
 * = StackedDrg 2KiB, 8MiB, 512MiB, 32GiB, 64GiB V1. h is the encoding's h;
 * 0 means the production value (10; 1 for 2 KiB). comm_r_old, comm_d_new and
 * comm_r_new are 32 bytes each (Filecoin's byte order). */

/* An update proving key for registered_proof's circuit from a bellperson
 * .params file (Filecoin's v28-empty-sector-update-…params), mapped as
 * cuzk_porep_key_load does; the circuit is recorded and kept with the key.
 * Errors: as cuzk_porep_key_load; CUZK_ERR_INVALID_ARGUMENT for an unknown
 * registered_proof. */
CUZK_API cuzk_status cuzk_update_key_load(cuzk_key** out, int32_t registered_proof, const char* params_path,
                                          uint32_t threads, char* err, size_t err_len);
/* A development update key (NOT FOR PRODUCTION: see cuzk_key_setup_dev).
 * Errors: as cuzk_porep_key_setup_dev. */
CUZK_API cuzk_status cuzk_update_key_setup_dev(cuzk_key** out, int32_t registered_proof, uint32_t threads,
                                               char* err, size_t err_len);

/* Queues an update proof: vanilla[k] (vanilla_len[k] bytes, borrowed for
 * the call) is partition k's vanilla proof, n the proof type's partition
 * count. Every proof is read strictly and checked (comm_c with each tree's
 * root gives comm_r_old and comm_r_new, the apex leaves reach comm_d_new,
 * every challenge's paths and its encoding) before anything is queued,
 * under key_id, an update key. cuzk_job_proofs then gives 192 bytes a
 * partition. Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE,
 * CUZK_ERR_BAD_LENGTH and CUZK_ERR_BAD_FORMAT (a vanilla proof that does not
 * read or check: the message names vanilla[k], the challenge and the field),
 * CUZK_ERR_NON_CANONICAL, CUZK_ERR_INVALID_ARGUMENT (unknown key id, a key
 * that is not an update key, n not the partition count, an h the proof type
 * does not allow), and those of cuzk_engine_submit. */
CUZK_API cuzk_status cuzk_update_submit(cuzk_job** out, cuzk_engine* engine, uint32_t key_id,
                                        const uint8_t* comm_r_old, const uint8_t* comm_d_new,
                                        const uint8_t* comm_r_new, uint32_t h, const uint8_t* const* vanilla,
                                        const size_t* vanilla_len, size_t n, const cuzk_job_options* opt);

/* Verifies an update proof (192 bytes a partition, borrowed) with `key` (an
 * update key or a verifying key of the circuit). *out = 1 valid, 0 not
 * (status CUZK_OK). Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE,
 * CUZK_ERR_BAD_LENGTH (proof_len), CUZK_ERR_NON_CANONICAL (a commitment),
 * CUZK_ERR_INVALID_ARGUMENT (an unknown registered_proof or h; a key of
 * another circuit or a BN254 key), decoding codes for a proof that does not
 * decode (*out = 0). */
CUZK_API cuzk_status cuzk_update_verify(int32_t* out, const cuzk_key* key, int32_t registered_proof,
                                        const uint8_t* comm_r_old, const uint8_t* comm_d_new,
                                        const uint8_t* comm_r_new, uint32_t h, const uint8_t* proof,
                                        size_t proof_len);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CUZK_FILECOIN_H */
