/*
 * cuzk.h — the C ABI of cuzk: Groth16 over BLS12-381 and BN254 with a
 * persistent proving engine. This header is the core: versions and status
 * codes, circuits (the recorder, PCEs, the SHA-256 circuit), keys, the
 * timeline, the engine, jobs and borrowed partitions.
 *
 * The ABI is two headers over one library, both pure C99, for every host: C
 * and C++ directly, Go through cgo, Rust through bindgen. cuzk_filecoin.h
 * (which includes this one) adds Filecoin's proofs on the core engine:
 * PoRep C2, PoSt and SnapDeals; a host that proves only its own circuits
 * needs cuzk.h alone. The library behind both is libcuzk.so (SONAME
 * libcuzk.so.<CUZK_ABI_VERSION>); its exported symbols are exactly the
 * functions declared in the two headers, and the conventions below apply to
 * both.
 *
 * ---- Conventions (apply to every function unless its comment says otherwise) ----
 *
 * Status codes. Functions return cuzk_status: CUZK_OK (0) on success, a
 * negative code on failure. Codes are pinned and never reused; the values
 * -1 … -99 mirror the C++ library's cuzk::errc one to one, -100 … are
 * specific to this ABI. cuzk_status_name() gives a stable short name. A
 * function that fails leaves its out-parameters untouched unless it says
 * otherwise (size queries always report the size needed).
 *
 * Error text. Each handle keeps the message of the last call on it that
 * failed; cuzk_<object>_last_error(out, out_len, handle) copies it out.
 * Functions that create a handle from nothing take an optional caller buffer
 * (char* err, size_t err_len): on failure a NUL-terminated message is
 * written there, truncated to err_len − 1 bytes (err may be NULL). There is
 * no thread-local error state (goroutines migrate between OS threads). When
 * several threads fail on the same handle at once, last_error holds one of
 * their messages; rely on the returned status for control flow.
 *
 * Handles. Each object is an opaque typed handle (cuzk_engine*, cuzk_key*,
 * …) created by one function and released by its cuzk_<object>_destroy(),
 * which accepts NULL and ignores a handle that is not live. A handle is a
 * token, not an address: the library never dereferences a handle it is
 * given but looks it up among the live handles, and tokens are never reused
 * within a process. A NULL handle gives CUZK_ERR_NULL; a destroyed, foreign
 * or garbage handle, or a handle of another type, gives
 * CUZK_ERR_INVALID_HANDLE. Objects that need another object hold their own
 * reference to it (an engine holds its keys, PCEs and timeline buffer), so
 * handles may be destroyed in any order: Go finalizers and Rust Drop may run
 * in any order. A job does not keep its engine running: destroying the
 * engine cancels its unfinished jobs, and their handles stay valid (status
 * CUZK_JOB_CANCELLED).
 *
 * Threading. Every function may be called from any thread, and handles may
 * be shared between threads, except where a comment says otherwise (the
 * recorder serialises its calls internally; timeline strings, see
 * cuzk_timeline_buffer_drain). Blocking functions: cuzk_job_wait,
 * cuzk_engine_destroy (joins the engine's threads, and waits for the
 * timeline callback to take the events still queued), and the loaders and
 * setup (they run long computations on the calling thread and on internal
 * threads).
 *
 * Pointers. Every pointer argument is one of
 *   copied     read during the call and copied; may be freed on return,
 *   borrowed   (for the call) read or written only during the call,
 *   retained   borrowed for the life of a handle (said explicitly).
 * Unless a comment says "may be NULL", a NULL pointer gives CUZK_ERR_NULL.
 * Out-parameters come first and are named out…; a string or byte output
 * goes into a caller buffer with its length, never into memory the host must
 * free.
 *
 * Size queries. Functions that write a variable amount of bytes take
 * (uint8_t* out, size_t out_len, size_t* out_size). With out == NULL and
 * out_len == 0 they only set *out_size to the bytes needed and return
 * CUZK_OK. With a buffer shorter than needed they set *out_size and return
 * CUZK_ERR_BUFFER_TOO_SMALL without writing. On success *out_size is the
 * number of bytes written.
 *
 * Option structs begin with uint32_t struct_size. Fill them with their
 * _init function (which sets struct_size and the defaults, writing the
 * struct as this library defines it), then change fields. A struct_size
 * smaller than the struct's first version, or larger than this library
 * knows with a non-zero byte in the unknown tail, gives
 * CUZK_ERR_STRUCT_SIZE; so a host built against a newer header may run on
 * an older library as long as it leaves the newer fields zero. Because
 * _init writes the library's whole struct, growing a struct that has an
 * _init is an incompatible change (CUZK_ABI_VERSION, hence the SONAME, is
 * bumped): a host never meets a library whose structs are larger than its
 * own. The first version of every struct is the one in the headers at
 * CUZK_ABI_VERSION 1, or for a struct added since (cuzk_post_shape, in
 * cuzk_filecoin.h) the one in the headers that added it. Output
 * structs (cuzk_*_info, cuzk_engine_stats) work the same way: the caller
 * sets struct_size (at least the first version's size, else
 * CUZK_ERR_STRUCT_SIZE); the library fills that many bytes, zeroing any
 * tail it does not know.
 *
 * Curves. A key is over BLS12-381 (every key but those below: bellperson
 * .params and .vk files, development and PoRep keys, bls12381 .zkey files)
 * or over BN254 (circom/snarkjs "bn128": a .zkey file whose curve is bn128).
 * cuzk_key_info's `curve` says which (CUZK_CURVE_*). The functions are the
 * same for both; what crosses the ABI for a key (its scalars and proofs)
 * is of the key's curve, as the two paragraphs below say. Where a function
 * handles one curve only, its comment says so.
 *
 * Scalars. Field elements of the key's scalar field travel as 32 bytes,
 * little-endian, canonical (the integer must be < r; otherwise
 * CUZK_ERR_NON_CANONICAL naming the value). BLS12-381's r =
 * 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001 (also
 * for everything not tied to a key: recorder, PCE, SHA-256 circuit);
 * BN254's r =
 * 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001 for the
 * scalars of a BN254 key (cuzk_key_verify's public inputs, the partitions of
 * its jobs, their public inputs). Arrays of scalars are packed: scalar i
 * occupies bytes [32·i, 32·i + 32).
 *
 * Proofs. BLS12-381 keys: 192 bytes (CUZK_PROOF_SIZE), A (G1 compressed,
 * 48) ‖ B (G2 compressed, 96) ‖ C (G1 compressed, 48) in the
 * zcash/bellperson encoding. BN254 keys: 256 bytes (CUZK_PROOF_SIZE_BN254),
 * uncompressed, each coordinate 32 bytes big-endian, in the order of
 * Ethereum's EIP-197 pairing precompile and of snarkjs's Solidity calldata
 * (`snarkjs zkey export soliditycalldata`): A.x ‖ A.y ‖ B.x.c1 ‖ B.x.c0 ‖
 * B.y.c1 ‖ B.y.c0 ‖ C.x ‖ C.y (an Fp2 element is c0 + c1·u; the point at
 * infinity is all zeros). A multi-partition proof is the concatenation of
 * its partitions' proofs in partition order. Readers of proofs use the
 * size queries (or the key's curve) for the length.
 *
 * Variables. As in bellperson: input 0 is the constant ONE, then the public
 * inputs, then the private (aux) variables. A witness is given as two
 * arrays: inputs (starting with ONE, i.e. the first scalar is 1) and aux.
 * Public inputs given to a verifier exclude ONE.
 *
 * Every entry point catches every C++ exception: a failure inside the
 * library is always a status code, never an abort or an unwinding into the
 * host.
 */
#ifndef CUZK_H
#define CUZK_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define CUZK_API
#elif defined(__GNUC__) || defined(__clang__)
#define CUZK_API __attribute__((visibility("default")))
#else
#define CUZK_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Versions and build ========================================================== */

#define CUZK_VERSION_MAJOR 0
#define CUZK_VERSION_MINOR 1
#define CUZK_VERSION_PATCH 0
/* MAJOR·10000 + MINOR·100 + PATCH */
#define CUZK_VERSION_NUMBER (CUZK_VERSION_MAJOR * 10000 + CUZK_VERSION_MINOR * 100 + CUZK_VERSION_PATCH)
/* Incremented on every incompatible change of either header (a changed
 * signature, struct layout or meaning); the shared library's SONAME carries
 * it. New functions keep it; a struct that grows bumps it (see the
 * conventions on struct_size). */
#define CUZK_ABI_VERSION 2

#define CUZK_SCALAR_SIZE 32 /* bytes per scalar (either curve) */
#define CUZK_PROOF_SIZE 192 /* bytes per Groth16 proof of a BLS12-381 key */
#define CUZK_PROOF_SIZE_BN254 256 /* bytes per Groth16 proof of a BN254 key (EIP-197 order) */
/* Limits on what a host passes (larger values are refused, nothing is read
 * or allocated for them): struct_size of any struct (CUZK_ERR_STRUCT_SIZE),
 * partitions per job and SHA-256 preimage bytes (CUZK_ERR_INVALID_ARGUMENT). */
#define CUZK_STRUCT_SIZE_MAX 4096u
#define CUZK_MAX_PARTITIONS 65536u
#define CUZK_SHA256_MAX_PREIMAGE (1u << 20)

/* The library's version, "MAJOR.MINOR.PATCH". Static string. */
CUZK_API const char* cuzk_version(void);
/* The library's CUZK_ABI_VERSION. A host should check that it equals the
 * CUZK_ABI_VERSION it was compiled with. */
CUZK_API uint32_t cuzk_abi_version(void);
/* One line describing the build: version, ABI, CUDA on/off with the CUDA
 * architectures, build type and options, e.g.
 * "cuzk 0.1.0 abi 2; cuda off; build Release; sanitize none". Static string. */
CUZK_API const char* cuzk_build_info(void);
/* Number of usable CUDA devices: 0 in a build without CUDA or without a
 * driver or device. Never fails. */
CUZK_API int32_t cuzk_device_count(void);

/* ==== Status codes ================================================================ */

typedef int32_t cuzk_status;

enum cuzk_status_code {
    CUZK_OK = 0,
    /* -1 … -99: the C++ library's cuzk::errc, same values. */
    CUZK_ERR_INVALID_ARGUMENT = -1,    /* an argument outside the contract (the message names it) */
    CUZK_ERR_BAD_LENGTH = -2,          /* a buffer or file has the wrong size */
    CUZK_ERR_NON_CANONICAL = -3,       /* a field element encoding is >= the modulus */
    CUZK_ERR_BAD_FLAGS = -4,           /* point-encoding flag bits are inconsistent */
    CUZK_ERR_NOT_ON_CURVE = -5,        /* decoded coordinates are not on the curve */
    CUZK_ERR_NOT_IN_SUBGROUP = -6,     /* on the curve but not in the prime-order subgroup */
    CUZK_ERR_UNEXPECTED_IDENTITY = -7, /* the point at infinity where it is not allowed */
    CUZK_ERR_NO_SQUARE_ROOT = -8,      /* a compressed x has no matching y */
    CUZK_ERR_IO = -9,                  /* reading or writing a file failed */
    CUZK_ERR_BAD_FORMAT = -10,         /* a file's structure is wrong (magic, version, section) */
    CUZK_ERR_UNSATISFIED = -11,        /* a witness does not satisfy a constraint */
    CUZK_ERR_UNSUPPORTED = -12,        /* valid input this build cannot handle */
    CUZK_ERR_CANCELLED = -13,          /* the job was cancelled */
    CUZK_ERR_OUT_OF_MEMORY = -14,
    CUZK_ERR_DEVICE = -15,             /* a CUDA call failed */
    CUZK_ERR_INTERNAL = -16,           /* a bug in cuzk; please report it with the message */
    /* -100 …: specific to the C ABI. */
    CUZK_ERR_NULL = -100,              /* a required pointer or handle is NULL */
    CUZK_ERR_INVALID_HANDLE = -101,    /* not a live handle of the expected type (destroyed, garbage) */
    CUZK_ERR_BUFFER_TOO_SMALL = -102,  /* *out_size says how many bytes are needed */
    CUZK_ERR_NOT_FINISHED = -103,      /* the job has not ended yet */
    CUZK_ERR_TIMEOUT = -104,           /* cuzk_job_wait: the timeout passed before the job ended */
    CUZK_ERR_STRUCT_SIZE = -105        /* an option struct's struct_size is not acceptable */
};

/* A short stable name of a code: "ok", "invalid_argument", …, "null",
 * "invalid_handle", "buffer_too_small", "not_finished", "timeout",
 * "struct_size"; "unknown" for any other value. Static string; never NULL. */
CUZK_API const char* cuzk_status_name(cuzk_status code);

/* ==== Handles ===================================================================== */

typedef struct cuzk_key cuzk_key;                       /* a Groth16 key (proving + verifying, or verifying only) */
typedef struct cuzk_pce cuzk_pce;                       /* a recorded circuit: the matrices A, B, C (immutable) */
typedef struct cuzk_recorder cuzk_recorder;             /* records a circuit through calls, gives a cuzk_pce */
typedef struct cuzk_engine cuzk_engine;                 /* the proving engine with its threads */
typedef struct cuzk_job cuzk_job;                       /* one submitted proof request (N partitions) */
typedef struct cuzk_timeline_buffer cuzk_timeline_buffer; /* a buffered timeline sink the host drains */

/* ==== Scalars ===================================================================== */

/* out (32 bytes, borrowed) = v mod r as a canonical little-endian scalar;
 * negative v gives r − |v| (e.g. the coefficient −1).
 * Errors: CUZK_ERR_NULL. */
CUZK_API cuzk_status cuzk_scalar_from_i64(uint8_t out[32], int64_t v);

/* ==== Recording a circuit (PCE) =================================================== */

/* Variable references used in cuzk_term.var:
 *   CUZK_VAR_ONE (0)          the constant ONE (input 0)
 *   i, 1 <= i < 2^31          public input i, as returned by cuzk_recorder_alloc_inputs
 *   CUZK_VAR_AUX | j          aux (private) variable j, as returned by cuzk_recorder_alloc_aux
 * i.e. bit 31 tells aux from input; the index spaces are separate, as in
 * bellperson. Inputs may be allocated after aux variables. In the finished
 * PCE (and in witnesses), input i is inputs[i] and aux j is aux[j]. */
#define CUZK_VAR_ONE 0u
#define CUZK_VAR_AUX 0x80000000u

/* One term coeff·var of a linear combination: 36 bytes, no padding. */
typedef struct cuzk_term {
    uint32_t var;       /* a variable reference, see above */
    uint8_t coeff[32];  /* canonical little-endian scalar; zero terms are dropped */
} cuzk_term;

/* A new, empty recorder (ONE is allocated; no other variable).
 * Errors: CUZK_ERR_NULL (out), CUZK_ERR_OUT_OF_MEMORY. */
CUZK_API cuzk_status cuzk_recorder_create(cuzk_recorder** out, char* err, size_t err_len);
CUZK_API void cuzk_recorder_destroy(cuzk_recorder* rec);
/* Copies the recorder's last error message (see the conventions) into out
 * (NUL-terminated, truncated to out_len − 1; out may be NULL when out_len is
 * 0) and returns its full length without the NUL. For a NULL or invalid
 * handle the message says so. The same contract holds for every
 * cuzk_<object>_last_error below. */
CUZK_API size_t cuzk_recorder_last_error(char* out, size_t out_len, const cuzk_recorder* rec);

/* Allocates `count` (>= 1) new public inputs; *out = the reference of the
 * first, the others follow consecutively (first + 1, …).
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_INVALID_ARGUMENT
 * (count 0, or more than 2^31 − 1 inputs in all). */
CUZK_API cuzk_status cuzk_recorder_alloc_inputs(uint32_t* out, cuzk_recorder* rec, uint32_t count);
/* Allocates `count` (>= 1) new aux variables; *out = CUZK_VAR_AUX | j of the
 * first, the others follow consecutively.
 * Errors: as cuzk_recorder_alloc_inputs (at most 2^31 − 1 aux in all). */
CUZK_API cuzk_status cuzk_recorder_alloc_aux(uint32_t* out, cuzk_recorder* rec, uint32_t count);
/* Records the constraint (Σ a)·(Σ b) = (Σ c). The term arrays are copied;
 * each may be NULL when its count is 0. Repeated variables in one
 * combination are summed, zero coefficients dropped.
 * Errors: CUZK_ERR_NULL (a NULL array with a non-zero count),
 * CUZK_ERR_INVALID_HANDLE, CUZK_ERR_INVALID_ARGUMENT (a variable that was not
 * allocated: the message names the constraint, the matrix and the term),
 * CUZK_ERR_NON_CANONICAL (a coefficient >= r, named the same way). On error
 * nothing is recorded. */
CUZK_API cuzk_status cuzk_recorder_enforce(cuzk_recorder* rec, const cuzk_term* a, size_t num_a, const cuzk_term* b,
                                           size_t num_b, const cuzk_term* c, size_t num_c);
/* Counts so far: inputs including ONE, aux variables, constraints. Each out
 * may be NULL. Errors: CUZK_ERR_NULL (rec), CUZK_ERR_INVALID_HANDLE. */
CUZK_API cuzk_status cuzk_recorder_counts(uint32_t* out_num_inputs, uint32_t* out_num_aux,
                                          uint64_t* out_num_constraints, const cuzk_recorder* rec);
/* The recorded circuit as a new PCE handle; the recorder is then as new
 * (only ONE allocated) and may record another circuit.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_OUT_OF_MEMORY. */
CUZK_API cuzk_status cuzk_recorder_finish(cuzk_pce** out, cuzk_recorder* rec);

/* ==== PCE ========================================================================= */

typedef struct cuzk_pce_info {
    uint32_t struct_size;      /* set by the caller: sizeof(cuzk_pce_info) */
    uint32_t num_inputs;       /* including ONE */
    uint32_t num_aux;
    uint64_t num_constraints;  /* the circuit's own (without Groth16's input constraints) */
    uint64_t nnz_a, nnz_b, nnz_c;
    uint64_t memory_bytes;     /* bytes held by the matrices */
} cuzk_pce_info;

CUZK_API void cuzk_pce_destroy(cuzk_pce* pce);
CUZK_API size_t cuzk_pce_last_error(char* out, size_t out_len, const cuzk_pce* pce);
/* Fills *out up to out->struct_size bytes (set it first; the conventions'
 * struct_size rule applies). Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE,
 * CUZK_ERR_STRUCT_SIZE. */
CUZK_API cuzk_status cuzk_pce_info_get(cuzk_pce_info* out, const cuzk_pce* pce);
/* Writes the PCE file format (docs/PCE-FORMAT.md; path + ".tmp"
 * is written and renamed over path). path copied.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_IO. */
CUZK_API cuzk_status cuzk_pce_save(const cuzk_pce* pce, const char* path);
#define CUZK_PCE_LOAD_SKIP_CHECKSUM 1u /* skip the payload checksum (structure is still checked) */
/* Maps and validates a PCE file (read-only mapping held by the handle).
 * flags: 0 or CUZK_PCE_LOAD_SKIP_CHECKSUM. path copied.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_IO, CUZK_ERR_BAD_LENGTH, CUZK_ERR_BAD_FORMAT
 * (the message names the file and the failed check). */
CUZK_API cuzk_status cuzk_pce_load(cuzk_pce** out, const char* path, uint32_t flags, char* err, size_t err_len);
/* Checks a witness against the circuit: inputs (num_inputs scalars, starting
 * with ONE) and aux (num_aux scalars), both borrowed for the call.
 * CUZK_OK when every constraint holds; CUZK_ERR_UNSATISFIED naming the first
 * failing constraint; CUZK_ERR_BAD_LENGTH for wrong counts;
 * CUZK_ERR_NON_CANONICAL; CUZK_ERR_NULL; CUZK_ERR_INVALID_HANDLE. */
CUZK_API cuzk_status cuzk_pce_check_witness(const cuzk_pce* pce, const uint8_t* inputs, size_t num_inputs,
                                            const uint8_t* aux, size_t num_aux);

/* ==== The built-in SHA-256 preimage circuit ======================================= */
/* "I know a message of preimage_len bytes whose SHA-256 is the public digest."
 * Inputs: ONE, then the digest as two 128-bit halves (input 1 = big-endian
 * integer of digest bytes 0..15, input 2 = bytes 16..31). Aux: the message
 * bits first, then the compression's internal bits. The circuit depends on
 * preimage_len only, so one PCE (and key) serves every message of that
 * length. */

/* The circuit for messages of preimage_len bytes (any length, including 0),
 * recorded into a new PCE.
 * Errors: CUZK_ERR_NULL (out), CUZK_ERR_OUT_OF_MEMORY. */
CUZK_API cuzk_status cuzk_sha256_pce(cuzk_pce** out, size_t preimage_len, char* err, size_t err_len);
/* The witness for `preimage` (preimage_len bytes, borrowed; may be NULL when
 * preimage_len is 0): inputs (including ONE) into out_inputs and aux into
 * out_aux, as packed scalars. *out_num_inputs and *out_num_aux receive the
 * counts (scalars). Size query: with both buffers NULL and lengths 0, only
 * the counts are set (CUZK_OK). A buffer shorter than 32·count bytes gives
 * CUZK_ERR_BUFFER_TOO_SMALL (counts set, nothing written).
 * Errors: CUZK_ERR_NULL, CUZK_ERR_BUFFER_TOO_SMALL, CUZK_ERR_OUT_OF_MEMORY. */
CUZK_API cuzk_status cuzk_sha256_witness(uint8_t* out_inputs, size_t out_inputs_len, size_t* out_num_inputs,
                                         uint8_t* out_aux, size_t out_aux_len, size_t* out_num_aux,
                                         const uint8_t* preimage, size_t preimage_len, char* err, size_t err_len);

/* ==== Keys ======================================================================== */

/* Conventions of a key (see include/cuzk/groth16/types.hpp). The engine
 * proves both (BLS12-381 snarkjs keys on the CPU backend only; BN254 keys,
 * always snarkjs, on both backends); both verify. */
#define CUZK_CONVENTION_BELLPERSON 0u
#define CUZK_CONVENTION_SNARKJS 1u

/* Curves of a key (see the conventions: Curves, Scalars, Proofs). */
#define CUZK_CURVE_BLS12_381 0u
#define CUZK_CURVE_BN254 1u /* circom/snarkjs "bn128", alt_bn128 */

#define CUZK_LOAD_CHECK_SUBGROUP 1u /* also check every point for subgroup membership (slow) */

typedef struct cuzk_key_info {
    uint32_t struct_size;      /* set by the caller: sizeof(cuzk_key_info) */
    uint32_t convention;       /* CUZK_CONVENTION_* (BN254 keys: always snarkjs) */
    uint32_t has_proving_key;  /* 0: verifying key only */
    uint32_t num_inputs;       /* including ONE */
    uint32_t num_aux;          /* 0 for a verifying key only */
    uint32_t curve;            /* CUZK_CURVE_* (this field was `reserved`, always 0, before BN254 keys) */
    uint64_t domain_size;      /* 0 for a verifying key only */
} cuzk_key_info;

CUZK_API void cuzk_key_destroy(cuzk_key* key);
CUZK_API size_t cuzk_key_last_error(char* out, size_t out_len, const cuzk_key* key);

/* A bellperson/Filecoin .params file (verifying key plus the five point
 * vectors), mapped read-only: the verifying key is read and the vector
 * lengths are checked here; the points are decoded, with `threads` threads
 * (0 = all cores), where they are needed: by cuzk_engine_add_key on a cuda
 * engine chunk by chunk straight into device memory, or whole, once, for a
 * cpu engine or cuzk_key_save_params (the key keeps the file mapped).
 * flags: 0 or CUZK_LOAD_CHECK_SUBGROUP (the verifying key is always fully
 * checked; the points when they are decoded). path copied.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_IO, CUZK_ERR_BAD_LENGTH, CUZK_ERR_BAD_FORMAT,
 * CUZK_ERR_OUT_OF_MEMORY; the point decoding codes (CUZK_ERR_NOT_ON_CURVE,
 * …; the message names the vector and index) come from the call that
 * decodes them. */
CUZK_API cuzk_status cuzk_key_load_params(cuzk_key** out, const char* path, uint32_t flags, uint32_t threads,
                                          char* err, size_t err_len);
/* A snarkjs .zkey file of either curve, read from the file (its q and r):
 * bls12381 gives a BLS12-381 key, bn128 a BN254 key (cuzk_key_info's curve
 * says which). Errors as cuzk_key_load_params (CUZK_ERR_BAD_FORMAT for a
 * file of neither curve: the message gives the prime). */
CUZK_API cuzk_status cuzk_key_load_zkey(cuzk_key** out, const char* path, uint32_t flags, uint32_t threads,
                                        char* err, size_t err_len);
/* The same from memory: data (len bytes) is borrowed for the call (the key
 * is decoded into the handle). */
CUZK_API cuzk_status cuzk_key_load_zkey_mem(cuzk_key** out, const void* data, size_t len, uint32_t flags,
                                            uint32_t threads, char* err, size_t err_len);
/* A verifying key only (bellperson .vk encoding: 868 + 96·n_ic bytes), from
 * a file or from memory (borrowed for the call). Such a key verifies but
 * cannot prove. Errors: as above. */
CUZK_API cuzk_status cuzk_key_load_vk(cuzk_key** out, const char* path, char* err, size_t err_len);
CUZK_API cuzk_status cuzk_key_load_vk_mem(cuzk_key** out, const void* data, size_t len, char* err, size_t err_len);

/* A development key for the circuit in `pce` (borrowed for the call), in
 * convention CUZK_CONVENTION_BELLPERSON or CUZK_CONVENTION_SNARKJS, computed
 * with `threads` threads (0 = all cores). Always a BLS12-381 key (a PCE is
 * a circuit over BLS12-381's Fr).
 * NOT FOR PRODUCTION: a single process draws the toxic waste (τ, α, β, γ, δ)
 * from the OS CSPRNG, uses it and forgets it; anyone able to read this
 * process's memory during the call could forge proofs. Production keys come
 * from multi-party ceremonies.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE (pce),
 * CUZK_ERR_INVALID_ARGUMENT (convention), CUZK_ERR_OUT_OF_MEMORY. */
CUZK_API cuzk_status cuzk_key_setup_dev(cuzk_key** out, const cuzk_pce* pce, uint32_t convention, uint32_t threads,
                                        char* err, size_t err_len);

/* Fills *out up to out->struct_size bytes. Errors: CUZK_ERR_NULL,
 * CUZK_ERR_INVALID_HANDLE, CUZK_ERR_STRUCT_SIZE. */
CUZK_API cuzk_status cuzk_key_info_get(cuzk_key_info* out, const cuzk_key* key);
/* The verifying key, with a size query (see the conventions). BLS12-381
 * keys: the bellperson .vk encoding (868 + 96·num_inputs bytes). BN254 keys:
 * snarkjs's verification_key.json text (UTF-8 JSON, not NUL-terminated,
 * indented by one space: the fields of `snarkjs zkey export
 * verificationkey`, curve "bn128", vk_alphabeta_12 included), which
 * snarkjs's `groth16 verify` reads. */
CUZK_API cuzk_status cuzk_key_export_vk(uint8_t* out, size_t out_len, size_t* out_size, const cuzk_key* key);
/* Writes the key: .params needs a bellperson-convention BLS12-381 proving
 * key, .zkey a snarkjs-convention one of either curve (written for the key's
 * curve: bls12381 or bn128); CUZK_ERR_UNSUPPORTED otherwise, e.g. .params
 * for a BN254 key. path copied.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_UNSUPPORTED,
 * CUZK_ERR_IO. */
CUZK_API cuzk_status cuzk_key_save_params(const cuzk_key* key, const char* path);
CUZK_API cuzk_status cuzk_key_save_zkey(const cuzk_key* key, const char* path);

/* Verifies one proof (borrowed; 192 bytes for a BLS12-381 key, 256 for a
 * BN254 key: see the conventions) for public_inputs (num_public_inputs
 * packed scalars of the key's curve without ONE, borrowed; may be NULL when
 * 0). *out = 1 when the proof is valid, 0 when it is not; the status is then
 * CUZK_OK. A proof whose bytes do not decode sets *out = 0 and returns the
 * decoding code: BLS12-381 flags, not on the curve, not in the subgroup,
 * identity; BN254 a coordinate >= q (CUZK_ERR_NON_CANONICAL), not on the
 * curve, G2 not in the subgroup (an identity point decodes, and the proof
 * is then invalid).
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_BAD_LENGTH
 * (proof_len is not the key's proof size: the message gives both),
 * CUZK_ERR_INVALID_ARGUMENT (the count does not match the key: the message
 * gives both), CUZK_ERR_NON_CANONICAL, decoding codes. */
CUZK_API cuzk_status cuzk_key_verify(int32_t* out, const cuzk_key* key, const uint8_t* proof, size_t proof_len,
                                     const uint8_t* public_inputs, size_t num_public_inputs);

/* ==== Timeline ==================================================================== */

#define CUZK_EVENT_INSTANT 0 /* a stage event: SYNTH_START, GPU_END, JOB_DONE, … */
#define CUZK_EVENT_BEGIN 1   /* a span of work starts: NTT, MSM_H, CPU_TAIL, … */
#define CUZK_EVENT_END 2     /* the span with the same name/job/partition/worker ends */

/* One timeline event (the engine's list of events: include/cuzk/pipeline/engine.hpp).
 * Filled by the library. Strings are NUL-terminated and borrowed: in a
 * callback for the duration of the call; from cuzk_timeline_buffer_drain
 * until the next drain of that buffer or its destruction. */
typedef struct cuzk_event {
    uint32_t struct_size;              /* sizeof(cuzk_event) of the library */
    int32_t phase;                     /* CUZK_EVENT_* */
    uint64_t t_ns;                     /* nanoseconds since the engine started (monotonic) */
    int32_t partition;                 /* −1: not tied to a partition */
    int32_t worker;                    /* −1: none */
    int32_t device;                    /* −1: host / CPU work; >= 0 a device index */
    uint32_t num_details;
    const char* name;                  /* "SYNTH_START", "MSM_H", … */
    const char* job;                   /* the job id; "" when not tied to a job */
    const char* const* detail_keys;    /* num_details key strings ("synth_ms", "query", …) */
    const char* const* detail_values;  /* num_details value strings */
} cuzk_event;

/* Callbacks for timeline events. Delivery: the engine queues each event
 * (a copy; it never waits for the host) and one delivery thread of the
 * engine, a cuzk thread, calls on_event with them one at a time, in the
 * order they were queued, never concurrently and never under an engine
 * lock. So on_event may call any function of this library, on this engine
 * too: statistics, polling, waiting for or cancelling a job, submitting a
 * job. A slow callback only delays the later events (they wait in memory).
 * cuzk_engine_destroy delivers every event queued before it and joins the
 * delivery thread before it returns; no call comes after that.
 * Destroying the engine from inside its own callback is allowed and safe:
 * the handle is invalid at once, the events not yet delivered are
 * discarded, and no callback starts after the current one returns; the
 * engine shuts down (cancels its jobs, joins its threads) inside that
 * cuzk_engine_destroy call, or, if another thread is inside a call on the
 * engine at that moment, when that call returns. on_event cannot report
 * errors. The table is copied by cuzk_engine_create; user_data is retained:
 * it must stay valid until cuzk_engine_destroy returns (or, when the
 * callback destroyed the engine, until that callback returns). */
typedef struct cuzk_timeline_callbacks {
    uint32_t struct_size;  /* sizeof(cuzk_timeline_callbacks) */
    void* user_data;       /* passed back as the first argument; may be NULL */
    void (*on_event)(void* user_data, const cuzk_event* ev);  /* may be NULL: events are dropped */
} cuzk_timeline_callbacks;

/* Sets struct_size and clears the rest. Errors: CUZK_ERR_NULL. */
CUZK_API cuzk_status cuzk_timeline_callbacks_init(cuzk_timeline_callbacks* out);

/* A buffered sink: events are copied into the buffer (up to `capacity`
 * events; later ones are dropped and counted) until the host drains them.
 * An engine holds a reference to the buffer it was given, so the buffer may
 * be destroyed before the engine.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_ARGUMENT (capacity 0). */
CUZK_API cuzk_status cuzk_timeline_buffer_create(cuzk_timeline_buffer** out, size_t capacity, char* err,
                                                 size_t err_len);
CUZK_API void cuzk_timeline_buffer_destroy(cuzk_timeline_buffer* buf);
CUZK_API size_t cuzk_timeline_buffer_last_error(char* out, size_t out_len, const cuzk_timeline_buffer* buf);
/* Moves up to `capacity` of the oldest buffered events into out (an array
 * with stride event_size; pass sizeof(cuzk_event)), in the order they were
 * recorded; *out_count = how many. The events' strings stay valid until the
 * next drain of this buffer or its destruction, so drain from one thread at a
 * time. out may be NULL when capacity is 0 (then *out_count = the number of
 * events waiting, nothing moved).
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_STRUCT_SIZE
 * (event_size smaller than the first version of cuzk_event). */
CUZK_API cuzk_status cuzk_timeline_buffer_drain(size_t* out_count, cuzk_event* out, size_t capacity,
                                                size_t event_size, cuzk_timeline_buffer* buf);
/* Events dropped because the buffer was full. */
CUZK_API cuzk_status cuzk_timeline_buffer_dropped(uint64_t* out, const cuzk_timeline_buffer* buf);

/* ==== Engine ====================================================================== */

#define CUZK_BACKEND_CPU 0u  /* device work on host threads (every build) */
#define CUZK_BACKEND_CUDA 1u /* CUDA devices (see devices, cuda_devices); CUZK_ERR_UNSUPPORTED where CUDA is not available */

/* Maps pipeline::engine_config (see include/cuzk/pipeline/engine.hpp for the
 * stages these sizes belong to). */
typedef struct cuzk_engine_options {
    uint32_t struct_size;          /* sizeof(cuzk_engine_options) */
    uint32_t synth_workers;        /* partitions synthesized at once (>= 1); default 2 */
    uint32_t synth_threads;        /* threads inside one synthesis; 0 = all; default 1 */
    uint32_t lookahead;            /* synthesized partitions waiting for a prove worker (>= 1); default 2 */
    uint32_t devices;              /* devices: cpu: modelled (0 = 1); cuda: the first N (0 = every visible one); default 0 */
    uint32_t workers_per_device;   /* prove workers per device (>= 1); default 2 */
    uint32_t device_threads;       /* threads of the CPU backend's device work; 0 = all; default 0 */
    uint32_t tail_threads;         /* CPU-tail threads; 0 = the prove worker runs its tail; default 1 */
    uint64_t host_memory_budget;   /* bytes for partitions in flight; 0 = unlimited; default 0 */
    uint32_t self_verify;          /* non-zero: verify every proof before reporting it; default 1 */
    uint32_t reserved0;            /* 0 */
    /* Timeline: either, both or neither (NULL). The callback table is copied
     * (see cuzk_timeline_callbacks for its threading); the engine takes its
     * own reference to the buffer. */
    const cuzk_timeline_callbacks* timeline_callbacks;
    cuzk_timeline_buffer* timeline_buffer;
    /* (Appended to the first draft of this header; part of ABI 1.) */
    uint32_t partitions_per_call;  /* partitions of one key a prove worker runs per device-lock hold (>= 1); default 1 */
    uint32_t backend;              /* CUZK_BACKEND_CPU (default) or CUZK_BACKEND_CUDA */
    uint64_t device_memory_budget; /* bytes per device for resident keys and device parts; 0 = unlimited; default 0 */
    /* (Appended at ABI 2 for several devices.) cuda: the CUDA device numbers
     * to prove on, in the engine's device order (copied; devices must then
     * be 0 or num_cuda_devices); NULL = as `devices` says. */
    const int32_t* cuda_devices;
    uint32_t num_cuda_devices;
    uint32_t device_error_limit;   /* exclude a device after this many device errors in a row; 0 = never (default) */
    /* (Appended at ABI 2 for small cards.) cuda: keys streamed from host
     * memory prove up to this many partitions per device call, each chunk of
     * points copied once for all of them; 0 = as many as the key's device
     * memory plan fits (default), 1 = one at a time. cpu: batches only when
     * > 1. The cuda backend also makes device_memory_budget each device's
     * cap: no allocation of the engine passes it. */
    uint32_t max_batch;
    uint32_t reserved1;            /* 0 */
} cuzk_engine_options;

/* Sets struct_size and the defaults above. Errors: CUZK_ERR_NULL. */
CUZK_API cuzk_status cuzk_engine_options_init(cuzk_engine_options* out);

/* Starts an engine (its threads run until cuzk_engine_destroy). opt is
 * copied; NULL means the defaults.
 * Errors: CUZK_ERR_NULL (out), CUZK_ERR_STRUCT_SIZE,
 * CUZK_ERR_INVALID_ARGUMENT (a zero worker count, lookahead or
 * partitions_per_call; an unknown backend; cuda_devices on the cpu backend,
 * a CUDA device that does not exist or is listed twice, devices contradicting
 * num_cuda_devices; a non-zero reserved field), CUZK_ERR_UNSUPPORTED (the
 * cuda backend where CUDA is not available: the message says why),
 * CUZK_ERR_INVALID_HANDLE (timeline_buffer). */
CUZK_API cuzk_status cuzk_engine_create(cuzk_engine** out, const cuzk_engine_options* opt, char* err,
                                        size_t err_len);
/* Cancels every job of the engine that has not ended (their status becomes
 * CUZK_JOB_CANCELLED, message "engine shut down"), waits for the work in
 * progress to stop and joins the threads, delivers the timeline events
 * still queued to the callback and joins its delivery thread; the handle is
 * invalid afterwards. If other threads (the timeline callback's included)
 * are inside calls on this engine at that moment, it first waits for those
 * calls to return. May be called from this engine's own timeline callback
 * (see cuzk_timeline_callbacks: the events not yet delivered are then
 * discarded, and the call does not wait for the callback to return). */
CUZK_API void cuzk_engine_destroy(cuzk_engine* engine);
CUZK_API size_t cuzk_engine_last_error(char* out, size_t out_len, const cuzk_engine* engine);

/* Registers a key with the engine; *out = its id for cuzk_engine_submit.
 * The engine takes its own references to key and pce (either handle may be
 * destroyed afterwards). pce is the key's circuit. For a bellperson key it
 * may be NULL when only CUZK_PARTITION_ABC partitions will be submitted and
 * the key came from cuzk_key_setup_dev (which knows the query densities).
 * A snarkjs key (from a .zkey) takes no PCE (pass NULL): its A and B travel
 * with the key, and its jobs take CUZK_PARTITION_WITNESS partitions only.
 * A BN254 key is such a key too (a non-NULL pce is
 * CUZK_ERR_INVALID_ARGUMENT); its jobs' scalars and proofs are BN254's.
 * name is copied (for messages; may be NULL). partition_bytes: host memory
 * per partition in flight for the memory budget; 0 = the engine's estimate.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_INVALID_ARGUMENT
 * (a verifying key only; the PCE's counts do not match the key; a PCE with a
 * snarkjs key; a bellperson key without PCE and without densities),
 * CUZK_ERR_UNSUPPORTED (a BLS12-381 snarkjs key on the cuda backend),
 * CUZK_ERR_OUT_OF_MEMORY (the device memory budget cannot hold the key),
 * CUZK_ERR_DEVICE (uploading the key to the device failed). */
CUZK_API cuzk_status cuzk_engine_add_key(uint32_t* out, cuzk_engine* engine, const cuzk_key* key,
                                         const cuzk_pce* pce, const char* name, uint64_t partition_bytes);

/* Where a registered key's points are while it proves. */
#define CUZK_KEY_ON_HOST 0u  /* a cpu engine */
#define CUZK_KEY_RESIDENT 1u /* a cuda engine: uploaded to every device by cuzk_engine_add_key */
#define CUZK_KEY_STREAMED 2u /* a cuda engine whose devices cannot hold the points beside a prove: they
                                stay in page-locked host memory and are copied at every prove (slower) */

/* *out_placement = CUZK_KEY_* of key_id, *out_device_bytes = the device
 * memory the engine counts as the key's on each device (0 on a cpu engine).
 * Either output may be NULL. Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE,
 * CUZK_ERR_INVALID_ARGUMENT (no key key_id). */
CUZK_API cuzk_status cuzk_engine_key_placement(uint32_t* out_placement, uint64_t* out_device_bytes,
                                               const cuzk_engine* engine, uint32_t key_id);

/* Where cuzk_engine_add_key spent its time registering key_id on a cuda
 * engine's devices, in seconds, each part the slowest device's (the devices
 * register at once): *out_layout_s the sizes, checks and gather index
 * lists; *out_pce_s the PCE prepared and uploaded; *out_points_s the points
 * uploaded (a mapped .params file's decoded on the way) or made ready to
 * stream. All zero on a cpu engine and for BN254 keys. Any output may be
 * NULL. Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE,
 * CUZK_ERR_INVALID_ARGUMENT (no key key_id). */
CUZK_API cuzk_status cuzk_engine_key_registration(double* out_layout_s, double* out_pce_s, double* out_points_s,
                                                  const cuzk_engine* engine, uint32_t key_id);

/* Unregisters key_id (a key of this engine): it takes no more jobs (every
 * submit refuses its id), the jobs of it already submitted run to their
 * end, and the engine gives its memory back when the last of them has let
 * go of it (at once when none is left). *out_host_bytes and
 * *out_device_bytes are what goes back to the host memory budget and to
 * each device's budget (the key's points, coefficients and PCE unless
 * another registered key shares them; its copy on each device);
 * *out_freed is 1 when they went back before the call returned, 0 when
 * jobs still hold the key. Any output may be NULL. Ids are never reused.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_INVALID_ARGUMENT
 * (no key key_id, or removed already; the message names it). */
CUZK_API cuzk_status cuzk_engine_remove_key(uint64_t* out_host_bytes, uint64_t* out_device_bytes, uint32_t* out_freed,
                                            cuzk_engine* engine, uint32_t key_id);

#define CUZK_PARTITION_WITNESS 0u /* inputs + aux; the engine evaluates the key's PCE */
#define CUZK_PARTITION_ABC 1u     /* a, b, c ready (one value per constraint) plus inputs + aux */

/* One partition of a job. All arrays are packed scalars of the key's curve,
 * copied by cuzk_engine_submit. num_inputs / num_aux must equal the key's
 * counts; inputs[0] must be ONE. For CUZK_PARTITION_ABC, a, b and c hold
 * num_constraints scalars each: the circuit's own constraints, without
 * Groth16's per-input constraints. A BN254 key takes
 * CUZK_PARTITION_WITNESS only: inputs ‖ aux is the circuit's full witness
 * (circom's order: ONE, public signals, private signals; a .wtns file's
 * values). */
typedef struct cuzk_partition {
    uint32_t struct_size;          /* sizeof(cuzk_partition) */
    uint32_t kind;                 /* CUZK_PARTITION_* */
    const uint8_t* inputs;         /* num_inputs scalars, starting with ONE */
    size_t num_inputs;
    const uint8_t* aux;            /* num_aux scalars (may be NULL when 0) */
    size_t num_aux;
    const uint8_t* a;              /* CUZK_PARTITION_ABC only, else NULL */
    const uint8_t* b;
    const uint8_t* c;
    size_t num_constraints;        /* CUZK_PARTITION_ABC only, else 0 */
} cuzk_partition;

/* Sets struct_size and clears the rest (kind = CUZK_PARTITION_WITNESS).
 * Errors: CUZK_ERR_NULL. */
CUZK_API cuzk_status cuzk_partition_init(cuzk_partition* out);

typedef struct cuzk_job_options {
    uint32_t struct_size;  /* sizeof(cuzk_job_options) */
    int32_t priority;      /* higher runs first; default 0 */
    const char* id;        /* copied; unique among the engine's jobs not yet ended; NULL or "" = "job-<n>" */
} cuzk_job_options;

/* Sets struct_size and the defaults. Errors: CUZK_ERR_NULL. */
CUZK_API cuzk_status cuzk_job_options_init(cuzk_job_options* out);

/* Queues a job of num_parts (>= 1) partitions under key_id; *out = the job.
 * parts is an array with stride parts[0].struct_size (every element must
 * have the same struct_size); everything it points to is copied before the
 * call returns. opt may be NULL (defaults). Every partition is checked before
 * anything is queued; on error no job exists.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_STRUCT_SIZE,
 * CUZK_ERR_BAD_LENGTH (a wrong number of inputs, aux or constraint values:
 * the message names the partition, the array, the length given and the
 * length expected), CUZK_ERR_NON_CANONICAL (names the partition, array and
 * index), CUZK_ERR_INVALID_ARGUMENT (unknown key id, kind, inputs[0] != 1, a
 * witness partition for a key added without PCE, an ABC partition for a
 * BLS12-381 snarkjs key, an id in use), CUZK_ERR_UNSUPPORTED (an ABC
 * partition for a BN254 key), CUZK_ERR_OUT_OF_MEMORY (a partition can never
 * fit the memory budget). An unsatisfied witness is not detected here: the
 * job fails with CUZK_ERR_UNSATISFIED (for a BN254 key, whose witness the
 * engine does not check before proving: with the self-verify's failure,
 * CUZK_ERR_INTERNAL, when self_verify is on). */
CUZK_API cuzk_status cuzk_engine_submit(cuzk_job** out, cuzk_engine* engine, uint32_t key_id,
                                        const cuzk_partition* parts, size_t num_parts, const cuzk_job_options* opt);

typedef struct cuzk_engine_stats {
    uint32_t struct_size;          /* set by the caller: sizeof(cuzk_engine_stats) */
    uint32_t reserved;
    uint64_t jobs_submitted, jobs_completed, jobs_failed, jobs_cancelled;
    uint64_t jobs_live;            /* submitted, not yet ended */
    uint64_t partitions_proved;    /* device parts finished (including discarded ones) */
    uint64_t memory_reserved;      /* bytes of the budget reserved now */
    uint64_t memory_peak;
    uint64_t uptime_ns;
    uint64_t device_calls;         /* device-lock holds (one per prove call of <= partitions_per_call) */
} cuzk_engine_stats;

/* Fills *out up to out->struct_size bytes. Errors: CUZK_ERR_NULL,
 * CUZK_ERR_INVALID_HANDLE, CUZK_ERR_STRUCT_SIZE. */
CUZK_API cuzk_status cuzk_engine_stats_get(cuzk_engine_stats* out, const cuzk_engine* engine);

/* One device of an engine (the engine's device numbers are 0 … count − 1). */
typedef struct cuzk_device_stats {
    uint32_t struct_size;          /* set by the caller: sizeof(cuzk_device_stats) */
    int32_t number;                /* cuda: the CUDA device number; cpu: the index */
    uint32_t excluded;             /* 1 once excluded (cuzk_engine_exclude_device or device_error_limit) */
    uint32_t reserved;
    uint64_t busy_ns;              /* time inside device parts, under the device's lock */
    uint64_t partitions;           /* device parts run, including failed ones */
    uint64_t failures;             /* device parts failed with a device error */
    uint64_t memory_reserved;      /* bytes of its device budget reserved now (resident keys, parts) */
    uint64_t memory_peak;
    /* (Appended at ABI 2 for small cards.) cuda: the most device memory held
     * on it at once since the engine started, every allocation counted
     * (measured); cpu: memory_peak. */
    uint64_t memory_high_water;
} cuzk_device_stats;

/* *out = the number of devices the engine proves on.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE. */
CUZK_API cuzk_status cuzk_engine_device_count(uint32_t* out, const cuzk_engine* engine);
/* Fills *out (up to out->struct_size bytes) for the engine's device `device`.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_STRUCT_SIZE,
 * CUZK_ERR_INVALID_ARGUMENT (no such device). */
CUZK_API cuzk_status cuzk_device_stats_get(cuzk_device_stats* out, const cuzk_engine* engine, uint32_t device);
/* Takes device `device` out of service: it takes no more work (a device
 * part in progress ends first) and the other devices carry on. When no
 * device is left, every job that has not ended fails with CUZK_ERR_DEVICE
 * and cuzk_engine_submit returns CUZK_ERR_DEVICE. reason is copied into the
 * timeline event DEVICE_EXCLUDED (may be NULL). *out_excluded (may be NULL)
 * = 1 when this call excluded it, 0 when it was excluded already.
 * Errors: CUZK_ERR_INVALID_HANDLE, CUZK_ERR_INVALID_ARGUMENT (no such device). */
CUZK_API cuzk_status cuzk_engine_exclude_device(uint32_t* out_excluded, cuzk_engine* engine, uint32_t device,
                                                const char* reason);

/* ==== Jobs ======================================================================== */

#define CUZK_JOB_QUEUED 0
#define CUZK_JOB_RUNNING 1
#define CUZK_JOB_COMPLETED 2 /* every partition proved (and verified with self_verify) */
#define CUZK_JOB_FAILED 3    /* the first failure ended it (code, message, partition) */
#define CUZK_JOB_CANCELLED 4 /* cuzk_job_cancel or the engine's destruction */

/* Releases the handle. Does NOT cancel the job (call cuzk_job_cancel first
 * for that); a running job finishes and its result is dropped. */
CUZK_API void cuzk_job_destroy(cuzk_job* job);
CUZK_API size_t cuzk_job_last_error(char* out, size_t out_len, const cuzk_job* job);

/* The job's id (as given, or "job-<n>"). The string belongs to the handle
 * and stays valid until cuzk_job_destroy; NULL for a NULL or invalid handle. */
CUZK_API const char* cuzk_job_id(const cuzk_job* job);
/* Number of partitions. Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE. */
CUZK_API cuzk_status cuzk_job_num_partitions(size_t* out, const cuzk_job* job);

/* Blocks until the job has ended or timeout_ms milliseconds have passed
 * (timeout_ms < 0: no limit; 0: just look). CUZK_OK when the job has ended
 * (whatever its outcome: see cuzk_job_status), CUZK_ERR_TIMEOUT otherwise.
 * Safe to call from several threads at once.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_TIMEOUT. */
CUZK_API cuzk_status cuzk_job_wait(cuzk_job* job, int64_t timeout_ms);
/* *out = the current CUZK_JOB_* state, without waiting. */
CUZK_API cuzk_status cuzk_job_poll(int32_t* out, const cuzk_job* job);
/* Cancels the job unless it has already ended. *out (may be NULL) = 1 when
 * this call ended it, 0 when it had already ended. Work already running for
 * it finishes and is discarded. */
CUZK_API cuzk_status cuzk_job_cancel(int32_t* out, cuzk_job* job);
/* The outcome of an ended job: *out = CUZK_OK (completed), the failure's
 * code (failed; e.g. CUZK_ERR_UNSATISFIED) or CUZK_ERR_CANCELLED; the call
 * itself returns CUZK_OK. out_failed_partition (may be NULL) receives the
 * failed partition, −1 when none.
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_NOT_FINISHED. */
CUZK_API cuzk_status cuzk_job_status(cuzk_status* out, int32_t* out_failed_partition, const cuzk_job* job);
/* Why a failed or cancelled job ended (names the partition): a string owned
 * by the handle, valid until cuzk_job_destroy; "" while the job runs or when
 * it completed; NULL for a NULL or invalid handle. */
CUZK_API const char* cuzk_job_message(const cuzk_job* job);

/* Reading results. These succeed only for a completed job; otherwise they
 * return CUZK_ERR_NOT_FINISHED (still queued or running), CUZK_ERR_CANCELLED
 * (cancelled) or the job's failure code (failed), write nothing, and put the
 * reason into the job's last_error. Each has a size query (conventions). */

/* Partition `partition`'s proof: 192 bytes for a BLS12-381 key, 256 for a
 * BN254 key (the conventions' encodings).
 * Errors: as above, CUZK_ERR_INVALID_ARGUMENT (partition out of range),
 * CUZK_ERR_BUFFER_TOO_SMALL. */
CUZK_API cuzk_status cuzk_job_proof(uint8_t* out, size_t out_len, size_t* out_size, const cuzk_job* job,
                                    size_t partition);
/* Every partition's proof concatenated in partition order (192·N bytes for
 * a BLS12-381 key, 256·N for a BN254 key): the assembled multi-partition
 * proof. */
CUZK_API cuzk_status cuzk_job_proofs(uint8_t* out, size_t out_len, size_t* out_size, const cuzk_job* job);
/* Partition `partition`'s public inputs (packed scalars of the key's curve,
 * without ONE): what a verifier needs with the proof. */
CUZK_API cuzk_status cuzk_job_public_inputs(uint8_t* out, size_t out_len, size_t* out_size, const cuzk_job* job,
                                            size_t partition);

/* ==== Host-synthesized partitions, borrowed ====================================== */
/* A host that synthesizes its circuits itself (bellperson's
 * ProvingAssignment: a, b, c plus the input and aux assignments) hands them
 * over without building packed canonical copies: the arrays are borrowed and
 * may be in either scalar form below.
 *
 * Forms of a scalar array (every array of one partition has the same form):
 *   CUZK_FORM_CANONICAL   32 bytes per scalar, little-endian, < r (as
 *                         everywhere else in the ABI).
 *   CUZK_FORM_MONTGOMERY  4 × uint64 little-endian limbs of x·R mod r with
 *                         R = 2^256 mod r: the in-memory layout of blstrs'
 *                         Scalar and blst's blst_fr, i.e. a bellperson
 *                         Vec<Fr>'s buffer as is. This is also cuzk's own
 *                         representation, so these values are copied without
 *                         conversion (only checked to be < r).
 * Arrays need no particular alignment. */
#define CUZK_FORM_CANONICAL 0u
#define CUZK_FORM_MONTGOMERY 1u

/* Called once for each partition of a job submitted with
 * cuzk_engine_submit_borrowed, when the library no longer reads that
 * partition's arrays; `partition` is its index in the job. See
 * cuzk_engine_submit_borrowed for when and on which thread. */
typedef void (*cuzk_release_fn)(void* user_data, size_t partition);

/* One borrowed partition. Like cuzk_partition, plus the form and a release
 * callback. For CUZK_PARTITION_ABC, a, b and c are read for the first
 * num_constraints values only: a bellperson assignment whose vectors already
 * carry the appended input constraints (one per input) may be passed as is
 * with num_constraints = the circuit's own constraint count. */
typedef struct cuzk_borrowed_partition {
    uint32_t struct_size;          /* sizeof(cuzk_borrowed_partition) */
    uint32_t kind;                 /* CUZK_PARTITION_WITNESS or CUZK_PARTITION_ABC */
    uint32_t form;                 /* CUZK_FORM_* */
    uint32_t reserved;             /* 0 */
    const void* inputs;            /* num_inputs scalars, starting with ONE */
    size_t num_inputs;
    const void* aux;               /* num_aux scalars (may be NULL when 0) */
    size_t num_aux;
    const void* a;                 /* CUZK_PARTITION_ABC only, else NULL */
    const void* b;
    const void* c;
    size_t num_constraints;        /* CUZK_PARTITION_ABC only, else 0 */
    cuzk_release_fn release;       /* may be NULL */
    void* user_data;               /* passed to release; may be NULL */
} cuzk_borrowed_partition;

/* Sets struct_size and clears the rest (kind WITNESS, form CANONICAL).
 * Errors: CUZK_ERR_NULL. */
CUZK_API cuzk_status cuzk_borrowed_partition_init(cuzk_borrowed_partition* out);

/* Queues a job of num_parts borrowed partitions under key_id; *out = the job.
 * parts (stride parts[0].struct_size, as in cuzk_engine_submit) is copied;
 * the arrays it points to are retained: they must stay valid and unchanged
 * until that partition's release callback has been called.
 *
 * When the arrays are read. In place, without a copy, when the form is
 * CUZK_FORM_MONTGOMERY and every array is 8-byte aligned: the engine's
 * synthesis stage checks the values and, on the cuda backend, packs a WITNESS
 * partition's aux straight from the host's memory into the page-locked
 * upload form, then releases it; an ABC partition on the cuda backend is
 * uploaded from the host's memory by its device part and released when that
 * ends; on the cpu backend a WITNESS partition is read by the PCE evaluation
 * and the device part, an ABC one is copied by the synthesis stage, and each
 * is released when the engine no longer reads it. Otherwise (canonical form,
 * or unaligned arrays; the values must then be converted): a WITNESS
 * partition (key with a PCE) is read, converted, when its turn comes in the
 * synthesis stage and released right after the read; an ABC partition is
 * read (converted) before this function returns, and released before it
 * returns.
 * A partition that is never read (the job failed or was cancelled first, or
 * the engine was destroyed) is released when the job ends, on the thread that
 * ended it; one read in place that is being read when its job ends is
 * released when that read returns, which may be after the job has ended. So
 * after CUZK_OK every partition's release is called exactly once, at the
 * latest when the job ends or its read in progress returns (cuzk_engine_destroy
 * returns after every release), never concurrently for one partition; a host
 * reuses its arrays after the release callback, not after the job's end. When
 * the call fails, no release is called and the host keeps its arrays. The
 * callback is called directly on the thread named above (an engine thread,
 * possibly under the engine's internal lock; not deferred like the timeline
 * callback): it must return quickly and must not call a function that takes
 * an engine or job handle.
 *
 * BLS12-381 bellperson keys only: a snarkjs key is CUZK_ERR_INVALID_ARGUMENT,
 * a BN254 key CUZK_ERR_UNSUPPORTED (submit it with cuzk_engine_submit).
 * Checks before queueing: struct sizes, kinds, forms, counts and NULL arrays
 * as cuzk_engine_submit; for ABC partitions that are converted also every
 * value (< r) and inputs[0] = ONE. The values of the other partitions are
 * checked when they are read: a value >= r (or inputs[0] != ONE) then fails
 * the job with CUZK_ERR_NON_CANONICAL (CUZK_ERR_INVALID_ARGUMENT), naming the
 * partition's array and index.
 * Errors: as cuzk_engine_submit, plus CUZK_ERR_INVALID_ARGUMENT (unknown
 * form, non-zero reserved). */
CUZK_API cuzk_status cuzk_engine_submit_borrowed(cuzk_job** out, cuzk_engine* engine, uint32_t key_id,
                                                 const cuzk_borrowed_partition* parts, size_t num_parts,
                                                 const cuzk_job_options* opt);

/* Query densities of a bellperson key, as bellperson's DensityTracker keeps
 * them: bit i of a bitmap is bit (i mod 8) of byte i / 8 (least significant
 * bit first; the byte image of a bitvec Lsb0 BitVec on a little-endian
 * host). a_aux: aux j occurs with a non-zero coefficient in A; b_input:
 * input i (0 = ONE) occurs in B; b_aux: aux j occurs in B. A bitmap of n bits
 * is ceil(n / 8) bytes, borrowed for the call; bits past n in its last byte
 * are ignored. They must describe the key's circuit exactly: wrong densities
 * give proofs that do not verify (caught by self_verify). */
typedef struct cuzk_query_density {
    uint32_t struct_size;      /* sizeof(cuzk_query_density) */
    uint32_t reserved;         /* 0 */
    const uint8_t* a_aux;      /* a_aux_bits bits */
    size_t a_aux_bits;         /* = the key's num_aux */
    const uint8_t* b_input;    /* b_input_bits bits */
    size_t b_input_bits;       /* = the key's num_inputs (including ONE) */
    const uint8_t* b_aux;      /* b_aux_bits bits */
    size_t b_aux_bits;         /* = the key's num_aux */
} cuzk_query_density;

/* Sets struct_size and clears the rest. Errors: CUZK_ERR_NULL. */
CUZK_API cuzk_status cuzk_query_density_init(cuzk_query_density* out);

/* Registers a bellperson key without its PCE (e.g. from
 * cuzk_key_load_params) with the query densities of its circuit; its jobs
 * take CUZK_PARTITION_ABC partitions only (copied or borrowed). Otherwise as
 * cuzk_engine_add_key (references, name, partition_bytes).
 * Errors: CUZK_ERR_NULL, CUZK_ERR_INVALID_HANDLE, CUZK_ERR_STRUCT_SIZE,
 * CUZK_ERR_INVALID_ARGUMENT (a verifying key only, a snarkjs key of either
 * curve, a bitmap length that is not the key's count: the message names
 * it), and the errors of cuzk_engine_add_key. */
CUZK_API cuzk_status cuzk_engine_add_key_density(uint32_t* out, cuzk_engine* engine, const cuzk_key* key,
                                                 const cuzk_query_density* density, const char* name,
                                                 uint64_t partition_bytes);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CUZK_H */
