/* The squared euclidean distance of _distances.pxd (sqeuclidean_rdist) with SSE2.
 *
 * The scalar kernel keeps four partial sums: s_j adds (a_i - b_i)^2 for the i = j
 * (mod 4) of the complete groups of four, in order; the features left over go into
 * s_0; the result is (s_0 + s_1) + (s_2 + s_3).  Here the four sums live in the
 * lanes of SSE registers (four float32 lanes, or two registers of two float64), so
 * each lane performs exactly the scalar kernel's operations, in the same order: the
 * results are equal bit for bit, four (or two) features per instruction.
 *
 * SSE2 is part of every x86-64 processor: gcc and clang say so with __SSE2__, MSVC
 * (which never defines it) with _M_X64 / _M_AMD64.  Elsewhere, or when the build
 * defines PATREC_NO_SIMD (setup.py), the scalar loop is used.
 */
#ifndef PATREC_SQDIST_SIMD_H
#define PATREC_SQDIST_SIMD_H

#include <stddef.h>

#if !defined(PATREC_NO_SIMD) && \
    (defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64))
#include <emmintrin.h>
#define PATREC_SQDIST_SIMD 1
#else
#define PATREC_SQDIST_SIMD 0
#endif

/* The scalar kernel from feature i on: the groups of four up to `stop`, then the
 * features left over into s[0] (one definition for float and double). */
#define PATREC_SQDIST_SCALAR(T, a, b, i, stop, n, s)                           \
    for (; i < stop; i += 4) {                                                  \
        T d0 = a[i] - b[i], d1 = a[i + 1] - b[i + 1];                           \
        T d2 = a[i + 2] - b[i + 2], d3 = a[i + 3] - b[i + 3];                   \
        s[0] += d0 * d0;                                                        \
        s[1] += d1 * d1;                                                        \
        s[2] += d2 * d2;                                                        \
        s[3] += d3 * d3;                                                        \
    }                                                                           \
    for (; i < n; i++) {                                                        \
        T d = a[i] - b[i];                                                      \
        s[0] += d * d;                                                          \
    }

static inline float patrec_sqdist_f32(const float *a, const float *b, ptrdiff_t n)
{
    ptrdiff_t i = 0, stop = n - n % 4;
    float s[4] = {0, 0, 0, 0};
#if PATREC_SQDIST_SIMD
    if (stop) {
        __m128 diff = _mm_sub_ps(_mm_loadu_ps(a), _mm_loadu_ps(b));
        __m128 sums = _mm_mul_ps(diff, diff);  /* 0 + x == x for a square x */
        for (i = 4; i < stop; i += 4) {
            diff = _mm_sub_ps(_mm_loadu_ps(a + i), _mm_loadu_ps(b + i));
            sums = _mm_add_ps(sums, _mm_mul_ps(diff, diff));
        }
        _mm_storeu_ps(s, sums);
    }
#endif
    PATREC_SQDIST_SCALAR(float, a, b, i, stop, n, s)
    return (s[0] + s[1]) + (s[2] + s[3]);
}

static inline double patrec_sqdist_f64(const double *a, const double *b, ptrdiff_t n)
{
    ptrdiff_t i = 0, stop = n - n % 4;
    double s[4] = {0, 0, 0, 0};
#if PATREC_SQDIST_SIMD
    if (stop) {
        __m128d diff01 = _mm_sub_pd(_mm_loadu_pd(a), _mm_loadu_pd(b));
        __m128d diff23 = _mm_sub_pd(_mm_loadu_pd(a + 2), _mm_loadu_pd(b + 2));
        __m128d sums01 = _mm_mul_pd(diff01, diff01);
        __m128d sums23 = _mm_mul_pd(diff23, diff23);
        for (i = 4; i < stop; i += 4) {
            diff01 = _mm_sub_pd(_mm_loadu_pd(a + i), _mm_loadu_pd(b + i));
            diff23 = _mm_sub_pd(_mm_loadu_pd(a + i + 2), _mm_loadu_pd(b + i + 2));
            sums01 = _mm_add_pd(sums01, _mm_mul_pd(diff01, diff01));
            sums23 = _mm_add_pd(sums23, _mm_mul_pd(diff23, diff23));
        }
        _mm_storeu_pd(s, sums01);
        _mm_storeu_pd(s + 2, sums23);
    }
#endif
    PATREC_SQDIST_SCALAR(double, a, b, i, stop, n, s)
    return (s[0] + s[1]) + (s[2] + s[3]);
}

#endif
