/* e^x of a whole array, for the softmax pass of _softmax.pyx: two values per SSE2
 * instruction, where libm's exp is one call per value.
 *
 *   x = k ln 2 + r,  k = round(x / ln 2),  |r| <= ln(2) / 2
 *   e^x = 2^k e^r,   e^r by its Taylor polynomial of degree 13 (Horner's rule; the
 *                    truncation error is below 2^-56 relative)
 *
 * k is rounded by adding 1.5 * 2^52 (the sum's bits then hold k in their low part),
 * ln 2 is split in two (Cody and Waite: k * LN2_HI is exact for |k| < 2^11), and
 * 2^k is written into the exponent bits.  The result is within a few units in the
 * last place of libm's exp.  Arguments below -708 give 0 (e^x is then below the
 * smallest normal double, which the exponent bits cannot hold); those above 709 are
 * taken as 709 (e^709 is about 8e307).  NaN is not expected (the softmax arguments
 * are finite scores less their row's largest).
 *
 * The SSE2 loop and the scalar one perform the same operations in the same order,
 * so their results are equal bit for bit (max/min and the final choice agree for
 * every number).  SSE2 is part of every x86-64 processor: gcc and clang say so with
 * __SSE2__, MSVC with _M_X64 / _M_AMD64.  Elsewhere, or with PATREC_NO_SIMD, the
 * scalar loop is used.
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

#define PATREC_EXP_LOW (-708.0)
#define PATREC_EXP_HIGH 709.0
#define PATREC_EXP_SHIFTER 6755399441055744.0 /* 1.5 * 2^52 */
#define PATREC_EXP_LOG2E 1.4426950408889634
#define PATREC_EXP_LN2_HI 6.93147180369123816490e-01
#define PATREC_EXP_LN2_LO 1.90821492927058770002e-10
#define PATREC_EXP_DEGREE 13

/* 1/j! for j = 13 down to 0 */
static const double patrec_exp_taylor[PATREC_EXP_DEGREE + 1] = {
    1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0,
    1.0 / 362880.0,     1.0 / 40320.0,     1.0 / 5040.0,     1.0 / 720.0,
    1.0 / 120.0,        1.0 / 24.0,        1.0 / 6.0,        0.5,
    1.0,                1.0};

static inline double patrec_exp_one(double x)
{
    double v = x < PATREC_EXP_LOW ? PATREC_EXP_LOW : x;
    double t, k, r, p, scale, shifter = PATREC_EXP_SHIFTER;
    uint64_t t_bits, shifter_bits, scale_bits;
    int j;
    v = v > PATREC_EXP_HIGH ? PATREC_EXP_HIGH : v;
    t = v * PATREC_EXP_LOG2E + PATREC_EXP_SHIFTER;
    k = t - PATREC_EXP_SHIFTER;
    r = (v - k * PATREC_EXP_LN2_HI) - k * PATREC_EXP_LN2_LO;
    p = patrec_exp_taylor[0];
    for (j = 1; j <= PATREC_EXP_DEGREE; j++) {
        p = p * r + patrec_exp_taylor[j];
    }
    memcpy(&t_bits, &t, sizeof t_bits);
    memcpy(&shifter_bits, &shifter, sizeof shifter_bits);
    scale_bits = (t_bits - shifter_bits + 1023u) << 52;
    memcpy(&scale, &scale_bits, sizeof scale);
    return x < PATREC_EXP_LOW ? 0.0 : p * scale;
}

/* x[i] = e^x[i] for i < n, in place. */
static inline void patrec_exp_array(double *x, ptrdiff_t n)
{
    ptrdiff_t i = 0;
#if PATREC_EXP_SIMD
    const __m128d low = _mm_set1_pd(PATREC_EXP_LOW);
    const __m128d high = _mm_set1_pd(PATREC_EXP_HIGH);
    const __m128d shifter = _mm_set1_pd(PATREC_EXP_SHIFTER);
    const __m128i bias = _mm_sub_epi64(_mm_set1_epi64x(1023),
                                       _mm_castpd_si128(shifter));
    for (; i + 2 <= n; i += 2) {
        __m128d x2 = _mm_loadu_pd(x + i);
        __m128d v = _mm_min_pd(_mm_max_pd(x2, low), high);
        __m128d t = _mm_add_pd(_mm_mul_pd(v, _mm_set1_pd(PATREC_EXP_LOG2E)), shifter);
        __m128d k = _mm_sub_pd(t, shifter);
        __m128d r = _mm_sub_pd(
            _mm_sub_pd(v, _mm_mul_pd(k, _mm_set1_pd(PATREC_EXP_LN2_HI))),
            _mm_mul_pd(k, _mm_set1_pd(PATREC_EXP_LN2_LO)));
        __m128d p = _mm_set1_pd(patrec_exp_taylor[0]);
        __m128i scale;
        int j;
        for (j = 1; j <= PATREC_EXP_DEGREE; j++) {
            p = _mm_add_pd(_mm_mul_pd(p, r), _mm_set1_pd(patrec_exp_taylor[j]));
        }
        scale = _mm_slli_epi64(_mm_add_epi64(_mm_castpd_si128(t), bias), 52);
        p = _mm_mul_pd(p, _mm_castsi128_pd(scale));
        _mm_storeu_pd(x + i, _mm_and_pd(p, _mm_cmpge_pd(x2, low)));
    }
#endif
    for (; i < n; i++) {
        x[i] = patrec_exp_one(x[i]);
    }
}

#endif /* PATREC_EXP_SIMD_H */
