// cuzk — host fast paths for field<P> on x86-64: Montgomery multiply and
// square, modular add, subtract and negate for 4- and 6-limb moduli, written
// as GCC extended inline assembly.
//
// Requirement: BMI2 (mulx) and ADX (adcx/adox), i.e. Intel Broadwell / AMD
// Zen or newer. The assembly needs no -m flags; the build does not check the
// CPU, so on an older processor these instructions fault (SIGILL). Define
// CUZK_PORTABLE_FIELD to compile the portable C++ code instead.
//
// field.hpp includes this header only when compiling host code for x86-64
// (never in the device pass of nvcc). Results are bit-identical to the
// portable code: every routine returns the fully reduced value (< p).
//
// Preconditions shared by all routines (checked by `supported<P>`): N is 4
// or 6 and p < 2^(64N−1), so a + b < 2p and every Montgomery intermediate fit
// in N limbs plus one spare word; inputs are < p.
//
// Register budget: every asm block needs at most 13 general registers, so it
// still allocates when the frame pointer is reserved (-O0, sanitizers).
// Constants are read from a hidden-visibility struct so that even -fPIC code
// addresses them RIP-relative, without a register.
#pragma once

#if defined(__CUDA_ARCH__) || !defined(__x86_64__)
#error "cuzk/detail/ff_x86_64.hpp is for x86-64 host code only"
#endif

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/bigint.hpp"

namespace cuzk::x86 {

template <class P>
inline constexpr bool supported =
    (P::limbs == 4 || P::limbs == 6) && P::modulus.l[P::limbs - 1] < (uint64_t{1} << 63) - 1;

// Constants read by the assembly as memory operands.
template <class P>
struct __attribute__((visibility("hidden"))) consts {
    static constexpr size_t N = P::limbs;
    static constexpr bigint<N> p = P::modulus;
    // 2^(64N) − p: adding it subtracts p, with the carry out meaning "no borrow".
    static constexpr bigint<N> np = [] {
        bigint<N> r = bigint<N>::zero();
        r.sub_assign(P::modulus);
        return r;
    }();
    static constexpr uint64_t inv = P::inv;   // −p⁻¹ mod 2^64
};

// ---- assembly building blocks --------------------------------------------------
// Operand names used by the macros: %[lo] %[hi] scratch, rdx implicit in mulx,
// %[ap] %[bp] pointers to the inputs, %[p0].. %[p5] limbs of p, %[inv], and
// the accumulator registers named by the caller (t0.. t6).
#define CUZK_X86_S(x) #x
#define CUZK_X86_R(x) "%[" CUZK_X86_S(x) "]"

// (hi:lo) = rdx·SRC;  TL += lo on the OF chain;  TH += hi on the CF chain.
// The two chains never touch each other's flag, so consecutive columns
// overlap: a row of N columns is N mulx plus 2N one-cycle adds. The adds
// (like adc, sbb and cmov) issue on two ports only, which bounds the routines
// below: on the Ice Lake Xeon this was tuned on, a column costs about 1.5
// cycles in practice (1 in theory), the 6-limb multiply about 110 cycles.
#define CUZK_X86_MAC(SRC, TL, TH)                            \
    "mulxq " SRC ", %[lo], %[hi]\n\t"                        \
    "adoxq %[lo], " CUZK_X86_R(TL) "\n\t"                    \
    "adcxq %[hi], " CUZK_X86_R(TH) "\n\t"

// ---- Montgomery multiplication --------------------------------------------------
// CIOS (operand scanning, the reduction interleaved per word of b). With the
// accumulator t (N words, t < 2p) and a spare top word T_N = 0, step i:
//   t += a·b[i]            N mulx; the top word absorbs both chains' carries
//   m  = t[0]·inv mod 2^64  (so that t + m·p ≡ 0 mod 2^64)
//   t += m·p; t >>= 64      N mulx; the low word becomes exactly 0
// Bound: t_new = (t + a·b[i] + m·p)/2^64 < (2p + 2·(2^64−1)·p)/2^64 < 2p, so
// t stays below 2p < 2^(64N) and T_N never carries out. The shift by one
// word is free: the register holding the zeroed low word becomes the spare
// top word of the next step (the macros take the registers in rotated order).
// Cost: 2N² mulx + 4N² adcx/adox + N imul; a final conditional subtraction
// (N sub/sbb + N cmov) gives the canonical result < p.
//
// First step: t = a·b[0] needs a single carry chain (plain add/adc).
#define CUZK_X86_MUL_FIRST4(A, B, C, D, E)                   \
    "movq 0(%[bp]), %%rdx\n\t"                               \
    "mulxq 0(%[ap]), " CUZK_X86_R(A) ", " CUZK_X86_R(B) "\n\t" \
    "mulxq 8(%[ap]), %[lo], " CUZK_X86_R(C) "\n\t"           \
    "addq %[lo], " CUZK_X86_R(B) "\n\t"                      \
    "mulxq 16(%[ap]), %[lo], " CUZK_X86_R(D) "\n\t"          \
    "adcq %[lo], " CUZK_X86_R(C) "\n\t"                      \
    "mulxq 24(%[ap]), %[lo], " CUZK_X86_R(E) "\n\t"          \
    "adcq %[lo], " CUZK_X86_R(D) "\n\t"                      \
    "adcq $0, " CUZK_X86_R(E) "\n\t"

// t += a·b[I] with t = (A..D) and E == 0 on entry.
#define CUZK_X86_MUL_ROW4(I, A, B, C, D, E)                  \
    "movq 8*" CUZK_X86_S(I) "(%[bp]), %%rdx\n\t"             \
    "xorl %k[lo], %k[lo]\n\t" /* clears CF and OF */         \
    CUZK_X86_MAC("0(%[ap])", A, B)                           \
    CUZK_X86_MAC("8(%[ap])", B, C)                           \
    CUZK_X86_MAC("16(%[ap])", C, D)                          \
    CUZK_X86_MAC("24(%[ap])", D, E)                          \
    "movl $0, %k[lo]\n\t" /* mov keeps the flags */          \
    "adoxq %[lo], " CUZK_X86_R(E) "\n\t"

// t = (t + m·p)/2^64 with t = (A..E); leaves A == 0.
#define CUZK_X86_RED4(A, B, C, D, E)                         \
    "movq %[inv], %%rdx\n\t" /* off the critical path */   \
    "imulq " CUZK_X86_R(A) ", %%rdx\n\t"                     \
    "xorl %k[lo], %k[lo]\n\t"                                \
    CUZK_X86_MAC("%[p0]", A, B)                              \
    CUZK_X86_MAC("%[p1]", B, C)                              \
    CUZK_X86_MAC("%[p2]", C, D)                              \
    CUZK_X86_MAC("%[p3]", D, E)                              \
    "adoxq " CUZK_X86_R(A) ", " CUZK_X86_R(E) "\n\t"

#define CUZK_X86_MUL_FIRST6(A, B, C, D, E, F, G)             \
    "movq 0(%[bp]), %%rdx\n\t"                               \
    "mulxq 0(%[ap]), " CUZK_X86_R(A) ", " CUZK_X86_R(B) "\n\t" \
    "mulxq 8(%[ap]), %[lo], " CUZK_X86_R(C) "\n\t"           \
    "addq %[lo], " CUZK_X86_R(B) "\n\t"                      \
    "mulxq 16(%[ap]), %[lo], " CUZK_X86_R(D) "\n\t"          \
    "adcq %[lo], " CUZK_X86_R(C) "\n\t"                      \
    "mulxq 24(%[ap]), %[lo], " CUZK_X86_R(E) "\n\t"          \
    "adcq %[lo], " CUZK_X86_R(D) "\n\t"                      \
    "mulxq 32(%[ap]), %[lo], " CUZK_X86_R(F) "\n\t"          \
    "adcq %[lo], " CUZK_X86_R(E) "\n\t"                      \
    "mulxq 40(%[ap]), %[lo], " CUZK_X86_R(G) "\n\t"          \
    "adcq %[lo], " CUZK_X86_R(F) "\n\t"                      \
    "adcq $0, " CUZK_X86_R(G) "\n\t"

#define CUZK_X86_MUL_ROW6(I, A, B, C, D, E, F, G)            \
    "movq 8*" CUZK_X86_S(I) "(%[bp]), %%rdx\n\t"             \
    "xorl %k[lo], %k[lo]\n\t"                                \
    CUZK_X86_MAC("0(%[ap])", A, B)                           \
    CUZK_X86_MAC("8(%[ap])", B, C)                           \
    CUZK_X86_MAC("16(%[ap])", C, D)                          \
    CUZK_X86_MAC("24(%[ap])", D, E)                          \
    CUZK_X86_MAC("32(%[ap])", E, F)                          \
    CUZK_X86_MAC("40(%[ap])", F, G)                          \
    "movl $0, %k[lo]\n\t"                                    \
    "adoxq %[lo], " CUZK_X86_R(G) "\n\t"

#define CUZK_X86_RED6(A, B, C, D, E, F, G)                   \
    "movq %[inv], %%rdx\n\t" /* off the critical path */   \
    "imulq " CUZK_X86_R(A) ", %%rdx\n\t"                     \
    "xorl %k[lo], %k[lo]\n\t"                                \
    CUZK_X86_MAC("%[p0]", A, B)                              \
    CUZK_X86_MAC("%[p1]", B, C)                              \
    CUZK_X86_MAC("%[p2]", C, D)                              \
    CUZK_X86_MAC("%[p3]", D, E)                              \
    CUZK_X86_MAC("%[p4]", E, F)                              \
    CUZK_X86_MAC("%[p5]", F, G)                              \
    "adoxq " CUZK_X86_R(A) ", " CUZK_X86_R(G) "\n\t"

// Conditional subtraction of p: copy (X..) into the scratch registers (Y..),
// subtract p from the copy, and keep the copy when no borrow occurred.
#define CUZK_X86_CSUB4(X0, X1, X2, X3, Y0, Y1, Y2, Y3)        \
    "movq " CUZK_X86_R(X0) ", " CUZK_X86_R(Y0) "\n\t"         \
    "movq " CUZK_X86_R(X1) ", " CUZK_X86_R(Y1) "\n\t"         \
    "movq " CUZK_X86_R(X2) ", " CUZK_X86_R(Y2) "\n\t"         \
    "movq " CUZK_X86_R(X3) ", " CUZK_X86_R(Y3) "\n\t"         \
    "subq %[p0], " CUZK_X86_R(Y0) "\n\t"                      \
    "sbbq %[p1], " CUZK_X86_R(Y1) "\n\t"                      \
    "sbbq %[p2], " CUZK_X86_R(Y2) "\n\t"                      \
    "sbbq %[p3], " CUZK_X86_R(Y3) "\n\t"                      \
    "cmovaeq " CUZK_X86_R(Y0) ", " CUZK_X86_R(X0) "\n\t"      \
    "cmovaeq " CUZK_X86_R(Y1) ", " CUZK_X86_R(X1) "\n\t"      \
    "cmovaeq " CUZK_X86_R(Y2) ", " CUZK_X86_R(X2) "\n\t"      \
    "cmovaeq " CUZK_X86_R(Y3) ", " CUZK_X86_R(X3) "\n\t"

#define CUZK_X86_CSUB6(X0, X1, X2, X3, X4, X5, Y0, Y1, Y2, Y3, Y4, Y5) \
    "movq " CUZK_X86_R(X0) ", " CUZK_X86_R(Y0) "\n\t"         \
    "movq " CUZK_X86_R(X1) ", " CUZK_X86_R(Y1) "\n\t"         \
    "movq " CUZK_X86_R(X2) ", " CUZK_X86_R(Y2) "\n\t"         \
    "movq " CUZK_X86_R(X3) ", " CUZK_X86_R(Y3) "\n\t"         \
    "movq " CUZK_X86_R(X4) ", " CUZK_X86_R(Y4) "\n\t"         \
    "movq " CUZK_X86_R(X5) ", " CUZK_X86_R(Y5) "\n\t"         \
    "subq %[p0], " CUZK_X86_R(Y0) "\n\t"                      \
    "sbbq %[p1], " CUZK_X86_R(Y1) "\n\t"                      \
    "sbbq %[p2], " CUZK_X86_R(Y2) "\n\t"                      \
    "sbbq %[p3], " CUZK_X86_R(Y3) "\n\t"                      \
    "sbbq %[p4], " CUZK_X86_R(Y4) "\n\t"                      \
    "sbbq %[p5], " CUZK_X86_R(Y5) "\n\t"                      \
    "cmovaeq " CUZK_X86_R(Y0) ", " CUZK_X86_R(X0) "\n\t"      \
    "cmovaeq " CUZK_X86_R(Y1) ", " CUZK_X86_R(X1) "\n\t"      \
    "cmovaeq " CUZK_X86_R(Y2) ", " CUZK_X86_R(X2) "\n\t"      \
    "cmovaeq " CUZK_X86_R(Y3) ", " CUZK_X86_R(X3) "\n\t"      \
    "cmovaeq " CUZK_X86_R(Y4) ", " CUZK_X86_R(X4) "\n\t"      \
    "cmovaeq " CUZK_X86_R(Y5) ", " CUZK_X86_R(X5) "\n\t"

// Memory-operand views telling the compiler which words the asm reads.
template <size_t N>
using limbs_in = const uint64_t (*)[N];

#define CUZK_X86_P4(C)                                                           \
    [p0] "m"(C::p.l[0]), [p1] "m"(C::p.l[1]), [p2] "m"(C::p.l[2]), [p3] "m"(C::p.l[3])
#define CUZK_X86_P6(C) CUZK_X86_P4(C), [p4] "m"(C::p.l[4]), [p5] "m"(C::p.l[5])

template <class P>
inline void mont_mul4(uint64_t* r, const uint64_t* a, const uint64_t* b)
{
    using C = consts<P>;
    uint64_t t0, t1, t2, t3, t4, lo, hi, dx;
    asm(CUZK_X86_MUL_FIRST4(t0, t1, t2, t3, t4)
        CUZK_X86_RED4(t0, t1, t2, t3, t4)
        CUZK_X86_MUL_ROW4(1, t1, t2, t3, t4, t0)
        CUZK_X86_RED4(t1, t2, t3, t4, t0)
        CUZK_X86_MUL_ROW4(2, t2, t3, t4, t0, t1)
        CUZK_X86_RED4(t2, t3, t4, t0, t1)
        CUZK_X86_MUL_ROW4(3, t3, t4, t0, t1, t2)
        CUZK_X86_RED4(t3, t4, t0, t1, t2)
        // result (t4, t0, t1, t2) < 2p; t3 is free
        CUZK_X86_CSUB4(t4, t0, t1, t2, lo, hi, dx, t3)
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
          [lo] "=&r"(lo), [hi] "=&r"(hi), [dx] "=&d"(dx)
        : [ap] "r"(a), [bp] "r"(b), "m"(*limbs_in<4>(a)), "m"(*limbs_in<4>(b)),
          [inv] "m"(C::inv), CUZK_X86_P4(C)
        : "cc");
    r[0] = t4;
    r[1] = t0;
    r[2] = t1;
    r[3] = t2;
}

template <class P>
inline void mont_mul6(uint64_t* r, const uint64_t* a, const uint64_t* b)
{
    using C = consts<P>;
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, dx;
    const uint64_t* ap = a;   // clobbered by the final subtraction
    const uint64_t* bp = b;
    asm(CUZK_X86_MUL_FIRST6(t0, t1, t2, t3, t4, t5, t6)
        CUZK_X86_RED6(t0, t1, t2, t3, t4, t5, t6)
        CUZK_X86_MUL_ROW6(1, t1, t2, t3, t4, t5, t6, t0)
        CUZK_X86_RED6(t1, t2, t3, t4, t5, t6, t0)
        CUZK_X86_MUL_ROW6(2, t2, t3, t4, t5, t6, t0, t1)
        CUZK_X86_RED6(t2, t3, t4, t5, t6, t0, t1)
        CUZK_X86_MUL_ROW6(3, t3, t4, t5, t6, t0, t1, t2)
        CUZK_X86_RED6(t3, t4, t5, t6, t0, t1, t2)
        CUZK_X86_MUL_ROW6(4, t4, t5, t6, t0, t1, t2, t3)
        CUZK_X86_RED6(t4, t5, t6, t0, t1, t2, t3)
        CUZK_X86_MUL_ROW6(5, t5, t6, t0, t1, t2, t3, t4)
        CUZK_X86_RED6(t5, t6, t0, t1, t2, t3, t4)
        // result (t6, t0, t1, t2, t3, t4) < 2p; t5 and the pointers are free
        CUZK_X86_CSUB6(t6, t0, t1, t2, t3, t4, lo, hi, dx, ap, bp, t5)
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
          [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [dx] "=&d"(dx),
          [ap] "+r"(ap), [bp] "+r"(bp)
        : "m"(*limbs_in<6>(a)), "m"(*limbs_in<6>(b)), [inv] "m"(C::inv), CUZK_X86_P6(C)
        : "cc");
    r[0] = t6;
    r[1] = t0;
    r[2] = t1;
    r[3] = t2;
    r[4] = t3;
    r[5] = t4;
}

// ---- addition, subtraction, negation ------------------------------------------------
// Only adcx (CF) and adox (OF) leave the other flag alone; plain add/adc/sbb
// also write OF, so the two interleaved chains below use adcx/adox only.
//
// a + b: an adcx chain for s = a + b, interleaved with an adox chain for
// s + (2^(64N) − p) = s − p mod 2^(64N). The final OF is set exactly when
// s >= p, and then the second sum is the result. No carry leaves s since
// a + b < 2p < 2^(64N). Cost: 3N adds/moves + N cmov, latency ≈ N + 3 cycles.
//
// a − b = a + ¬b + 1 (mod 2^(64N)): an adcx chain started with CF = 1, whose
// final CF is 1 exactly when a >= b (no borrow). Interleaved, an adox chain
// forms d + p; with CF = 0 (a < b) it is the result.
#define CUZK_X86_ADD_COL(OFF, J)                                      \
    "adcxq " CUZK_X86_S(OFF) "(%[bp]), %[s" CUZK_X86_S(J) "]\n\t"    \
    "movq %[s" CUZK_X86_S(J) "], %[d" CUZK_X86_S(J) "]\n\t"          \
    "adoxq %[n" CUZK_X86_S(J) "], %[d" CUZK_X86_S(J) "]\n\t"
#define CUZK_X86_SUB_COL(OFF, J)                                      \
    "movq " CUZK_X86_S(OFF) "(%[bp]), %[d" CUZK_X86_S(J) "]\n\t"     \
    "notq %[d" CUZK_X86_S(J) "]\n\t" /* not keeps the flags */      \
    "adcxq %[d" CUZK_X86_S(J) "], %[s" CUZK_X86_S(J) "]\n\t"         \
    "movq %[s" CUZK_X86_S(J) "], %[d" CUZK_X86_S(J) "]\n\t"          \
    "adoxq %[n" CUZK_X86_S(J) "], %[d" CUZK_X86_S(J) "]\n\t"
#define CUZK_X86_SEL(CC, J) "cmov" CC "q %[d" CUZK_X86_S(J) "], %[s" CUZK_X86_S(J) "]\n\t"

// START sets the flags: "" for add (CF = 0), "stc" for subtract (CF = 1).
#define CUZK_X86_ADDSUB4(COL, START, CC)                                                 \
    "xorl %k[d0], %k[d0]\n\t" /* CF = OF = 0 */                                          \
    START                                                                                \
    COL(0, 0) COL(8, 1) COL(16, 2) COL(24, 3)                                            \
    CUZK_X86_SEL(CC, 0) CUZK_X86_SEL(CC, 1) CUZK_X86_SEL(CC, 2) CUZK_X86_SEL(CC, 3)
#define CUZK_X86_ADDSUB6(COL, START, CC)                                                 \
    "xorl %k[d0], %k[d0]\n\t"                                                            \
    START                                                                                \
    COL(0, 0) COL(8, 1) COL(16, 2) COL(24, 3) COL(32, 4) COL(40, 5)                      \
    CUZK_X86_SEL(CC, 0) CUZK_X86_SEL(CC, 1) CUZK_X86_SEL(CC, 2) CUZK_X86_SEL(CC, 3)      \
    CUZK_X86_SEL(CC, 4) CUZK_X86_SEL(CC, 5)

#define CUZK_X86_N4(V) [n0] "m"(V.l[0]), [n1] "m"(V.l[1]), [n2] "m"(V.l[2]), [n3] "m"(V.l[3])
#define CUZK_X86_N6(V) CUZK_X86_N4(V), [n4] "m"(V.l[4]), [n5] "m"(V.l[5])

// The 6-limb add/subtract uses 12 output registers plus the pointer b, 13 of
// the 14 left when the frame pointer is reserved. Telling the compiler which
// words of b the asm reads ("m"(*b)) can cost a 14th register for the
// operand's address: ThreadSanitizer at -O1 does not reuse b's register
// for it ("impossible constraints"). Sanitizer builds therefore declare the
// read with a "memory" clobber, which needs no register.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define CUZK_X86_B6_IN(B)
#define CUZK_X86_B6_CLOBBER "cc", "memory"
#else
#define CUZK_X86_B6_IN(B) "m"(*limbs_in<6>(B)),
#define CUZK_X86_B6_CLOBBER "cc"
#endif

// kind 0: a + b; kind 1: a − b.
template <class P, int kind>
inline void addsub(uint64_t* r, const uint64_t* a, const uint64_t* b)
{
    using C = consts<P>;
    constexpr size_t N = P::limbs;
    if constexpr (N == 4) {
        uint64_t s0 = a[0], s1 = a[1], s2 = a[2], s3 = a[3], d0, d1, d2, d3;
        if constexpr (kind == 0)
            asm(CUZK_X86_ADDSUB4(CUZK_X86_ADD_COL, "", "o")
                : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3),
                  [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3)
                : [bp] "r"(b), "m"(*limbs_in<4>(b)), CUZK_X86_N4(C::np)
                : "cc");
        else
            asm(CUZK_X86_ADDSUB4(CUZK_X86_SUB_COL, "stc\n\t", "nc")
                : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3),
                  [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3)
                : [bp] "r"(b), "m"(*limbs_in<4>(b)), CUZK_X86_N4(C::p)
                : "cc");
        r[0] = s0;
        r[1] = s1;
        r[2] = s2;
        r[3] = s3;
    } else {
        uint64_t s0 = a[0], s1 = a[1], s2 = a[2], s3 = a[3], s4 = a[4], s5 = a[5];
        uint64_t d0, d1, d2, d3, d4, d5;
        if constexpr (kind == 0)
            asm(CUZK_X86_ADDSUB6(CUZK_X86_ADD_COL, "", "o")
                : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [s4] "+r"(s4),
                  [s5] "+r"(s5), [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3),
                  [d4] "=&r"(d4), [d5] "=&r"(d5)
                : [bp] "r"(b), CUZK_X86_B6_IN(b) CUZK_X86_N6(C::np)
                : CUZK_X86_B6_CLOBBER);
        else
            asm(CUZK_X86_ADDSUB6(CUZK_X86_SUB_COL, "stc\n\t", "nc")
                : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [s4] "+r"(s4),
                  [s5] "+r"(s5), [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3),
                  [d4] "=&r"(d4), [d5] "=&r"(d5)
                : [bp] "r"(b), CUZK_X86_B6_IN(b) CUZK_X86_N6(C::p)
                : CUZK_X86_B6_CLOBBER);
        r[0] = s0;
        r[1] = s1;
        r[2] = s2;
        r[3] = s3;
        r[4] = s4;
        r[5] = s5;
    }
}

template <class P>
inline void mont_mul(uint64_t* r, const uint64_t* a, const uint64_t* b)
{
    if constexpr (P::limbs == 4) mont_mul4<P>(r, a, b);
    else mont_mul6<P>(r, a, b);
}

// ---- Montgomery squaring (6 limbs) ------------------------------------------------
// The multiply's CIOS loop with row i adding only what squaring needs at
// global word positions >= 2i:
//   a_i² at word 2i,   and   2·a_i·a_j at word i + j for j > i.
// Every product a_k·a_l (k <= l) then lands in row k, so the word that row i
// reduces (global position i) is complete when row i reaches it, and the rows
// add up to a² exactly; the reduction steps are the multiply's.
// The doubled tail 2·Σ_{j>i} a_j·2^(64j) is read from a stack table: its word
// i + 1 is f_{i+1} = a_{i+1}·2 mod 2^64 and its words j >= i + 2 are the
// limbs d_j of 2a (d_j = f_j + the top bit of a_{j−1}); 2a has no seventh
// limb because a < p < 2^(64·6−1).
// Bound: row i adds at most 2·a_i·a < 2^65·p, so a step maps t to less than
// t/2^64 + 2p + p and the accumulator stays below 3p + 1, which fits six
// words when p < 2^382 (the multiply only needs p < 2^383); each step's sum
// fits the seven words. The final value (a² + M·p)/R is < 2p as for the
// multiply.
// Cost: 21 + 36 mulx (multiply: 72) and 42 + 72 chained additions in place
// of 144, plus 26 setup instructions for the table.
#define CUZK_X86_SQ_F(j) CUZK_X86_S(j) "*8-8(%[sp])"    /* f_j, j = 1..5 */
#define CUZK_X86_SQ_D(j) CUZK_X86_S(j) "*8+24(%[sp])"   /* d_j, j = 2..5 */
#define CUZK_X86_SQ_START(I)                                 \
    "movq 8*" CUZK_X86_S(I) "(%[ap]), %%rdx\n\t"             \
    "xorl %k[lo], %k[lo]\n\t"
#define CUZK_X86_SQ_END(G)                                   \
    "movl $0, %k[lo]\n\t"                                    \
    "adoxq %[lo], " CUZK_X86_R(G) "\n\t"

template <class P>
inline void mont_sqr6(uint64_t* r, const uint64_t* a)
{
    static_assert(P::limbs == 6 && P::modulus.l[5] < (uint64_t{1} << 62), "needs p < 2^382");
    using C = consts<P>;
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, dx;
    uint64_t tab[9];   // f_1..f_5, d_2..d_5
    const uint64_t* ap = a;   // both pointers are clobbered by the final subtraction
    uint64_t* sp = tab;
    asm(// table: d = 2a by an adc chain, f_j = d_j with bit 0 cleared
        "movq 0(%[ap]), %[t0]\n\t"
        "movq 8(%[ap]), %[t1]\n\t"
        "movq 16(%[ap]), %[t2]\n\t"
        "movq 24(%[ap]), %[t3]\n\t"
        "movq 32(%[ap]), %[t4]\n\t"
        "movq 40(%[ap]), %[t5]\n\t"
        "addq %[t0], %[t0]\n\t"
        "adcq %[t1], %[t1]\n\t"
        "adcq %[t2], %[t2]\n\t"
        "adcq %[t3], %[t3]\n\t"
        "adcq %[t4], %[t4]\n\t"
        "adcq %[t5], %[t5]\n\t"
        "movq %[t2], " CUZK_X86_SQ_D(2) "\n\t"
        "movq %[t3], " CUZK_X86_SQ_D(3) "\n\t"
        "movq %[t4], " CUZK_X86_SQ_D(4) "\n\t"
        "movq %[t5], " CUZK_X86_SQ_D(5) "\n\t"
        "andq $-2, %[t1]\n\t"
        "andq $-2, %[t2]\n\t"
        "andq $-2, %[t3]\n\t"
        "andq $-2, %[t4]\n\t"
        "andq $-2, %[t5]\n\t"
        "movq %[t1], " CUZK_X86_SQ_F(1) "\n\t"
        "movq %[t2], " CUZK_X86_SQ_F(2) "\n\t"
        "movq %[t3], " CUZK_X86_SQ_F(3) "\n\t"
        "movq %[t4], " CUZK_X86_SQ_F(4) "\n\t"
        "movq %[t5], " CUZK_X86_SQ_F(5) "\n\t"
        // row 0: t = a0² + a0·(2a >> 64)·2^64, one carry chain
        "movq 0(%[ap]), %%rdx\n\t"
        "mulxq %%rdx, %[t0], %[t1]\n\t"
        "mulxq " CUZK_X86_SQ_F(1) ", %[lo], %[t2]\n\t"
        "addq %[lo], %[t1]\n\t"
        "mulxq " CUZK_X86_SQ_D(2) ", %[lo], %[t3]\n\t"
        "adcq %[lo], %[t2]\n\t"
        "mulxq " CUZK_X86_SQ_D(3) ", %[lo], %[t4]\n\t"
        "adcq %[lo], %[t3]\n\t"
        "mulxq " CUZK_X86_SQ_D(4) ", %[lo], %[t5]\n\t"
        "adcq %[lo], %[t4]\n\t"
        "mulxq " CUZK_X86_SQ_D(5) ", %[lo], %[t6]\n\t"
        "adcq %[lo], %[t5]\n\t"
        "adcq $0, %[t6]\n\t"
        CUZK_X86_RED6(t0, t1, t2, t3, t4, t5, t6)
        // row 1, window (t1..t6, t0): a1² at 1, a1·(2a >> 128) from 2
        CUZK_X86_SQ_START(1)
        CUZK_X86_MAC("%%rdx", t2, t3)
        CUZK_X86_MAC(CUZK_X86_SQ_F(2), t3, t4)
        CUZK_X86_MAC(CUZK_X86_SQ_D(3), t4, t5)
        CUZK_X86_MAC(CUZK_X86_SQ_D(4), t5, t6)
        CUZK_X86_MAC(CUZK_X86_SQ_D(5), t6, t0)
        CUZK_X86_SQ_END(t0)
        CUZK_X86_RED6(t1, t2, t3, t4, t5, t6, t0)
        // row 2, window (t2..t6, t0, t1)
        CUZK_X86_SQ_START(2)
        CUZK_X86_MAC("%%rdx", t4, t5)
        CUZK_X86_MAC(CUZK_X86_SQ_F(3), t5, t6)
        CUZK_X86_MAC(CUZK_X86_SQ_D(4), t6, t0)
        CUZK_X86_MAC(CUZK_X86_SQ_D(5), t0, t1)
        CUZK_X86_SQ_END(t1)
        CUZK_X86_RED6(t2, t3, t4, t5, t6, t0, t1)
        // row 3, window (t3..t6, t0, t1, t2)
        CUZK_X86_SQ_START(3)
        CUZK_X86_MAC("%%rdx", t6, t0)
        CUZK_X86_MAC(CUZK_X86_SQ_F(4), t0, t1)
        CUZK_X86_MAC(CUZK_X86_SQ_D(5), t1, t2)
        CUZK_X86_SQ_END(t2)
        CUZK_X86_RED6(t3, t4, t5, t6, t0, t1, t2)
        // row 4, window (t4..t6, t0..t3)
        CUZK_X86_SQ_START(4)
        CUZK_X86_MAC("%%rdx", t1, t2)
        CUZK_X86_MAC(CUZK_X86_SQ_F(5), t2, t3)
        CUZK_X86_SQ_END(t3)
        CUZK_X86_RED6(t4, t5, t6, t0, t1, t2, t3)
        // row 5, window (t5, t6, t0..t4)
        CUZK_X86_SQ_START(5)
        CUZK_X86_MAC("%%rdx", t3, t4)
        CUZK_X86_SQ_END(t4)
        CUZK_X86_RED6(t5, t6, t0, t1, t2, t3, t4)
        // result (t6, t0, t1, t2, t3, t4) < 2p; t5 and the pointers are free
        CUZK_X86_CSUB6(t6, t0, t1, t2, t3, t4, lo, hi, dx, ap, sp, t5)
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
          [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [dx] "=&d"(dx),
          [ap] "+r"(ap), [sp] "+r"(sp), "=m"(tab)
        : "m"(*limbs_in<6>(a)), [inv] "m"(C::inv), CUZK_X86_P6(C)
        : "cc");
    r[0] = t6;
    r[1] = t0;
    r[2] = t1;
    r[3] = t2;
    r[4] = t3;
    r[5] = t4;
}

// The squaring's looser bound (accumulator < 3p + 1) needs p < 2^(64·6−2),
// true for the BLS12-381 base field. For 4 limbs the BLS12-381 scalar field
// does not meet it (3r > 2^256), so Fr squares with mont_mul4.
template <class P>
inline constexpr bool sqr6_ok = P::limbs == 6 && P::modulus.l[5] < (uint64_t{1} << 62);

template <class P>
inline void mont_sqr(uint64_t* r, const uint64_t* a)
{
    if constexpr (sqr6_ok<P>) mont_sqr6<P>(r, a);
    else mont_mul<P>(r, a, a);
}
template <class P>
inline void add(uint64_t* r, const uint64_t* a, const uint64_t* b) { addsub<P, 0>(r, a, b); }
template <class P>
inline void sub(uint64_t* r, const uint64_t* a, const uint64_t* b) { addsub<P, 1>(r, a, b); }

} // namespace cuzk::x86

// The assembly macros are private to this header.
#undef CUZK_X86_ADDSUB4
#undef CUZK_X86_ADDSUB6
#undef CUZK_X86_ADD_COL
#undef CUZK_X86_CSUB4
#undef CUZK_X86_CSUB6
#undef CUZK_X86_MAC
#undef CUZK_X86_MUL_FIRST4
#undef CUZK_X86_MUL_FIRST6
#undef CUZK_X86_MUL_ROW4
#undef CUZK_X86_MUL_ROW6
#undef CUZK_X86_N4
#undef CUZK_X86_N6
#undef CUZK_X86_P4
#undef CUZK_X86_P6
#undef CUZK_X86_R
#undef CUZK_X86_RED4
#undef CUZK_X86_RED6
#undef CUZK_X86_S
#undef CUZK_X86_SEL
#undef CUZK_X86_SQ_D
#undef CUZK_X86_SQ_END
#undef CUZK_X86_SQ_F
#undef CUZK_X86_SQ_START
#undef CUZK_X86_SUB_COL
