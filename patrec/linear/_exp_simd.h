/* e^x of a whole array, for the softmax pass of _softmax.pyx: four or two values per
 * SIMD instruction, where libm's exp is one call per value.
 *
 *   x = k ln 2 + r,  k = round(x / ln 2),  |r| <= ln(2) / 2
 *   e^x = 2^k e^r,   e^r by its Taylor polynomial of degree 13 (the truncation
 *                    error is below 2^-56 relative)
 *
 * The polynomial is 1 + (r + r^2 Q(r)), Q of degree 11 evaluated by Estrin's scheme:
 * six pairs c_j + c_j+1 r, pairs of those with r^2, then with r^4 (c_j = 1/j!).  Its
 * longest chain of dependent operations is six multiply-adds deep where Horner's
 * rule is thirteen, so a processor overlaps many values' polynomials (with Horner's
 * rule the loop waited on the latency of its multiplications and took 35% longer);
 * adding 1 and r last keeps the result within one unit in the last place.
 *
 * k is rounded by adding 1.5 * 2^52 (the sum's bits then hold k in their low part),
 * ln 2 is split in two (Cody and Waite: k * LN2_HI is exact for |k| < 2^11), and
 * 2^k is written into the exponent bits.  The result is within a few units in the
 * last place of libm's exp.  Arguments below -708 give 0 (e^x is then below the
 * smallest normal double, which the exponent bits cannot hold); those above 709 are
 * taken as 709 (e^709 is about 8e307).  NaN is not expected (the softmax arguments
 * are finite scores less their row's largest).
 *
 * The AVX2 loop, the SSE2 loop and the scalar one perform the same operations in
 * the same order (no fused multiply-add), so their results are equal bit for bit
 * (max/min and the final choice agree for every number).  The AVX2 loop is compiled
 * with gcc's and clang's target attribute and runs only where the processor has
 * AVX2.  SSE2 is part of every x86-64 processor: gcc and clang say so with __SSE2__,
 * MSVC with _M_X64 / _M_AMD64.  Elsewhere, or with PATREC_NO_SIMD, the scalar loop
 * is used.
 */
#ifndef PATREC_EXP_SIMD_H
#define PATREC_EXP_SIMD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if !defined(PATREC_NO_SIMD) && \
    (defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64))
#include <emmintrin.h>
#define PATREC_EXP_SIMD 1
#else
#define PATREC_EXP_SIMD 0
#endif

#if PATREC_EXP_SIMD && defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define PATREC_EXP_AVX2 1
#else
#define PATREC_EXP_AVX2 0
#endif

#define PATREC_EXP_LOW (-708.0)
#define PATREC_EXP_HIGH 709.0
#define PATREC_EXP_SHIFTER 6755399441055744.0 /* 1.5 * 2^52 */
#define PATREC_EXP_LOG2E 1.4426950408889634
#define PATREC_EXP_LN2_HI 6.93147180369123816490e-01
#define PATREC_EXP_LN2_LO 1.90821492927058770002e-10

/* c_j = 1/j! for j = 0 .. 13 */
static const double patrec_exp_c[14] = {
    1.0,           1.0,          0.5,           1.0 / 6.0,       1.0 / 24.0,
    1.0 / 120.0,   1.0 / 720.0,  1.0 / 5040.0,  1.0 / 40320.0,   1.0 / 362880.0,
    1.0 / 3628800.0, 1.0 / 39916800.0, 1.0 / 479001600.0, 1.0 / 6227020800.0};

/* The operations of one value, written once for the three widths: V is the vector
 * type, ADD/SUB/MUL its arithmetic and SET a constant in every lane.  `v` holds x
 * clamped to [LOW, HIGH]; `t` and `p` receive v / ln 2 + SHIFTER and e^r. */
#define PATREC_EXP_STEPS(V, ADD, SUB, MUL, SET, v, t, p)                           \
    do {                                                                           \
        V k_, r_, r2_, r4_, a_[6], b0_, b1_, b2_, q_;                              \
        int i_;                                                                    \
        t = ADD(MUL(v, SET(PATREC_EXP_LOG2E)), SET(PATREC_EXP_SHIFTER));           \
        k_ = SUB(t, SET(PATREC_EXP_SHIFTER));                                      \
        r_ = SUB(SUB(v, MUL(k_, SET(PATREC_EXP_LN2_HI))),                          \
                 MUL(k_, SET(PATREC_EXP_LN2_LO)));                                 \
        for (i_ = 0; i_ < 6; i_++) {                                               \
            a_[i_] = ADD(SET(patrec_exp_c[2 * i_ + 2]),                            \
                         MUL(SET(patrec_exp_c[2 * i_ + 3]), r_));                  \
        }                                                                          \
        r2_ = MUL(r_, r_);                                                         \
        r4_ = MUL(r2_, r2_);                                                       \
        b0_ = ADD(a_[0], MUL(a_[1], r2_));                                         \
        b1_ = ADD(a_[2], MUL(a_[3], r2_));                                         \
        b2_ = ADD(a_[4], MUL(a_[5], r2_));                                         \
        q_ = ADD(b0_, MUL(ADD(b1_, MUL(b2_, r4_)), r4_));                          \
        p = ADD(SET(1.0), ADD(r_, MUL(r2_, q_)));                                  \
    } while (0)

#define PATREC_ADD1(a, b) ((a) + (b))
#define PATREC_SUB1(a, b) ((a) - (b))
#define PATREC_MUL1(a, b) ((a) * (b))
#define PATREC_SET1(a) (a)

static inline double patrec_exp_one(double x)
{
    double v = x < PATREC_EXP_LOW ? PATREC_EXP_LOW : x;
    double t, p, scale, shifter = PATREC_EXP_SHIFTER;
    uint64_t t_bits, shifter_bits, scale_bits;
    v = v > PATREC_EXP_HIGH ? PATREC_EXP_HIGH : v;
    PATREC_EXP_STEPS(double, PATREC_ADD1, PATREC_SUB1, PATREC_MUL1, PATREC_SET1, v, t,
                     p);
    memcpy(&t_bits, &t, sizeof t_bits);
    memcpy(&shifter_bits, &shifter, sizeof shifter_bits);
    scale_bits = (t_bits - shifter_bits + 1023u) << 52;
    memcpy(&scale, &scale_bits, sizeof scale);
    return x < PATREC_EXP_LOW ? 0.0 : p * scale;
}

#if PATREC_EXP_AVX2
/* e^x in place for the first n - n % 8 values, eight at a time; returns how many */
__attribute__((target("avx2"))) static ptrdiff_t patrec_exp_avx2(double *x,
                                                                 ptrdiff_t n)
{
    const __m256d low = _mm256_set1_pd(PATREC_EXP_LOW);
    const __m256d high = _mm256_set1_pd(PATREC_EXP_HIGH);
    const __m256i bias = _mm256_sub_epi64(
        _mm256_set1_epi64x(1023), _mm256_castpd_si256(_mm256_set1_pd(PATREC_EXP_SHIFTER)));
    ptrdiff_t i;
    int h;
    for (i = 0; i + 8 <= n; i += 8) {
        for (h = 0; h < 8; h += 4) {
            __m256d x4 = _mm256_loadu_pd(x + i + h);
            __m256d v = _mm256_min_pd(_mm256_max_pd(x4, low), high);
            __m256d t, p;
            __m256i scale;
            PATREC_EXP_STEPS(__m256d, _mm256_add_pd, _mm256_sub_pd, _mm256_mul_pd,
                             _mm256_set1_pd, v, t, p);
            scale = _mm256_slli_epi64(_mm256_add_epi64(_mm256_castpd_si256(t), bias),
                                      52);
            p = _mm256_mul_pd(p, _mm256_castsi256_pd(scale));
            _mm256_storeu_pd(x + i + h,
                             _mm256_and_pd(p, _mm256_cmp_pd(x4, low, _CMP_GE_OQ)));
        }
    }
    return i;
}

/* 1 when the processor runs AVX2 code (asked once) */
static inline int patrec_exp_has_avx2(void)
{
    static int known = -1;
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return known;
}
#endif

/* x[i] = e^x[i] for i < n, in place. */
static inline void patrec_exp_array(double *x, ptrdiff_t n)
{
    ptrdiff_t i = 0;
#if PATREC_EXP_AVX2
    if (patrec_exp_has_avx2()) {
        i = patrec_exp_avx2(x, n);
    }
#endif
#if PATREC_EXP_SIMD
    {
        const __m128d low = _mm_set1_pd(PATREC_EXP_LOW);
        const __m128d high = _mm_set1_pd(PATREC_EXP_HIGH);
        const __m128i bias = _mm_sub_epi64(
            _mm_set1_epi64x(1023), _mm_castpd_si128(_mm_set1_pd(PATREC_EXP_SHIFTER)));
        for (; i + 2 <= n; i += 2) {
            __m128d x2 = _mm_loadu_pd(x + i);
            __m128d v = _mm_min_pd(_mm_max_pd(x2, low), high);
            __m128d t, p;
            __m128i scale;
            PATREC_EXP_STEPS(__m128d, _mm_add_pd, _mm_sub_pd, _mm_mul_pd, _mm_set1_pd,
                             v, t, p);
            scale = _mm_slli_epi64(_mm_add_epi64(_mm_castpd_si128(t), bias), 52);
            p = _mm_mul_pd(p, _mm_castsi128_pd(scale));
            _mm_storeu_pd(x + i, _mm_and_pd(p, _mm_cmpge_pd(x2, low)));
        }
    }
#endif
    for (; i < n; i++) {
        x[i] = patrec_exp_one(x[i]);
    }
}

#endif /* PATREC_EXP_SIMD_H */
