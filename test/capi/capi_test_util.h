/* Shared helpers of the C ABI tests (C99). */
#ifndef CUZK_CAPI_TEST_UTIL_H
#define CUZK_CAPI_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk.h"

static int g_checks = 0;
/* The named case running (CASE): a failure names it. */
static const char* g_case = "(setup)";
#define CASE(name) (g_case = (name))

#define CHECK(cond)                                                                   \
    do {                                                                              \
        ++g_checks;                                                                   \
        if (!(cond)) {                                                                \
            fprintf(stderr, "case \"%s\": %s:%d: CHECK failed: %s\n", g_case, __FILE__, __LINE__, #cond); \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

/* Expects status `want` from `expr`; prints the status name and `msg_fn`'s
 * text for `h` on mismatch. */
#define CHECK_STATUS(want, expr, last_error_fn, h)                                                          \
    do {                                                                                                    \
        cuzk_status st_ = (expr);                                                                           \
        ++g_checks;                                                                                         \
        if (st_ != (want)) {                                                                                \
            char m_[1024];                                                                                  \
            last_error_fn(m_, sizeof m_, h);                                                                \
            fprintf(stderr, "case \"%s\": %s:%d: %s returned %d (%s), expected %d (%s); last error: %s\n", \
                    g_case, __FILE__, __LINE__, #expr, (int)st_, cuzk_status_name(st_), (int)(want), cuzk_status_name(want), \
                    m_);                                                                                    \
            exit(1);                                                                                        \
        }                                                                                                   \
    } while (0)

/* For functions that report into an err buffer. */
#define CHECK_CREATE(want, expr_with_err)                                                                   \
    do {                                                                                                    \
        char err[1024] = "(none)";                                                                          \
        cuzk_status st_ = (expr_with_err);                                                                  \
        ++g_checks;                                                                                         \
        if (st_ != (want)) {                                                                                \
            fprintf(stderr, "case \"%s\": %s:%d: %s returned %d (%s), expected %d (%s); err: %s\n", g_case,  \
                    __FILE__, __LINE__,                                                                     \
                    #expr_with_err, (int)st_, cuzk_status_name(st_), (int)(want), cuzk_status_name(want), \
                    err);                                                                                   \
            exit(1);                                                                                        \
        }                                                                                                   \
    } while (0)

/* A scalar from a small integer. */
static inline void sc(uint8_t out[32], long long v)
{
    if (cuzk_scalar_from_i64(out, (int64_t)v) != CUZK_OK) {
        fprintf(stderr, "cuzk_scalar_from_i64 failed\n");
        exit(1);
    }
}

static inline cuzk_term term(uint32_t var, long long coeff)
{
    cuzk_term t;
    t.var = var;
    sc(t.coeff, coeff);
    return t;
}

/* Text of a handle's last error, in a static buffer. */
#define LAST_ERROR(fn, h) (fn(g_msg, sizeof g_msg, h), g_msg)
static char g_msg[2048];

/* The small test circuit, recorded through the recorder calls:
 *   aux x, y, t, s (x and y allocated first), then input z:
 *   c0: x · y = t
 *   c1: t · ONE = z − 3·ONE
 *   c2: (x + y) · (2·ONE) = s
 * so z = x·y + 3 is public. Witness: inputs [1, z], aux [x, y, t, s]. */
static inline cuzk_pce* record_small_circuit(void)
{
    cuzk_recorder* rec = NULL;
    cuzk_pce* pce = NULL;
    uint32_t x, z, ni = 0, na = 0;
    uint64_t nc = 0;
    cuzk_term a[2], b[1], c[2];
    CHECK_CREATE(CUZK_OK, cuzk_recorder_create(&rec, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_recorder_alloc_aux(&x, rec, 4), cuzk_recorder_last_error, rec);
    CHECK(x == (CUZK_VAR_AUX | 0u));
    CHECK_STATUS(CUZK_OK, cuzk_recorder_alloc_inputs(&z, rec, 1), cuzk_recorder_last_error, rec);
    CHECK(z == 1u);
    {
        const uint32_t y = x + 1, t = x + 2, s = x + 3;
        a[0] = term(x, 1);
        b[0] = term(y, 1);
        c[0] = term(t, 1);
        CHECK_STATUS(CUZK_OK, cuzk_recorder_enforce(rec, a, 1, b, 1, c, 1), cuzk_recorder_last_error, rec);
        a[0] = term(t, 1);
        b[0] = term(CUZK_VAR_ONE, 1);
        c[0] = term(z, 1);
        c[1] = term(CUZK_VAR_ONE, -3);
        CHECK_STATUS(CUZK_OK, cuzk_recorder_enforce(rec, a, 1, b, 1, c, 2), cuzk_recorder_last_error, rec);
        a[0] = term(x, 1);
        a[1] = term(y, 1);
        b[0] = term(CUZK_VAR_ONE, 2);
        c[0] = term(s, 1);
        CHECK_STATUS(CUZK_OK, cuzk_recorder_enforce(rec, a, 2, b, 1, c, 1), cuzk_recorder_last_error, rec);
    }
    CHECK_STATUS(CUZK_OK, cuzk_recorder_counts(&ni, &na, &nc, rec), cuzk_recorder_last_error, rec);
    CHECK(ni == 2 && na == 4 && nc == 3);
    CHECK_STATUS(CUZK_OK, cuzk_recorder_finish(&pce, rec), cuzk_recorder_last_error, rec);
    /* The recorder is as new afterwards. */
    CHECK_STATUS(CUZK_OK, cuzk_recorder_counts(&ni, &na, &nc, rec), cuzk_recorder_last_error, rec);
    CHECK(ni == 1 && na == 0 && nc == 0);
    cuzk_recorder_destroy(rec);
    return pce;
}

/* The small circuit's witness for x, y: inputs (2 scalars), aux (4 scalars). */
static inline void small_witness(uint8_t inputs[64], uint8_t aux[128], long long x, long long y)
{
    sc(inputs, 1);
    sc(inputs + 32, x * y + 3);
    sc(aux, x);
    sc(aux + 32, y);
    sc(aux + 64, x * y);
    sc(aux + 96, 2 * (x + y));
}

/* The whole file at `path` (malloc'ed; *len its size); CHECK-fails when it
 * cannot be read or is empty. */
static inline uint8_t* read_file(const char* path, size_t* len)
{
    FILE* f = fopen(path, "rb");
    uint8_t* b;
    long n;
    CHECK(f != NULL);
    CHECK(fseek(f, 0, SEEK_END) == 0);
    n = ftell(f);
    CHECK(n > 0);
    rewind(f);
    b = (uint8_t*)malloc((size_t)n);
    CHECK(b != NULL && fread(b, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

#endif
