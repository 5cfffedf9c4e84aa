/* The squared euclidean distance of _distances.pxd (sqeuclidean_rdist) with SSE2.
 *
 * The scalar kernel keeps four partial sums: s_j adds (a_i - b_i)^2 for the i = j
 * (mod 4) of the complete groups of four, in order; the features left over go into
 * s_0; the result is (s_0 + s_1) + (s_2 + s_3).  Here the four sums live in the
 * lanes of SSE registers (four float32 lanes, or two registers of two float64), so
 * each lane performs exactly the scalar kernel's operations, in the same order: the
 * results are equal bit for bit, four (or two) features per instruction.
 *
 * SSE2 is part of every x86-64 processor; elsewhere the scalar loop is used.
 */
#ifndef PATREC_SQDIST_SIMD_H
#define PATREC_SQDIST_SIMD_H

#include <stddef.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define PATREC_SQDIST_SIMD 1
#else
#define PATREC_SQDIST_SIMD 0
#endif

static inline float patrec_sqdist_f32(const float *a, const float *b, ptrdiff_t n)
{
    ptrdiff_t i = 0, stop = n - n % 4;
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0, d;
#if PATREC_SQDIST_SIMD
    if (stop) {
        __m128 diff = _mm_sub_ps(_mm_loadu_ps(a), _mm_loadu_ps(b));
        __m128 sums = _mm_mul_ps(diff, diff);  /* 0 + x == x for a square x */
        float lanes[4];
        for (i = 4; i < stop; i += 4) {
            diff = _mm_sub_ps(_mm_loadu_ps(a + i), _mm_loadu_ps(b + i));
            sums = _mm_add_ps(sums, _mm_mul_ps(diff, diff));
        }
        _mm_storeu_ps(lanes, sums);
        s0 = lanes[0];
        s1 = lanes[1];
        s2 = lanes[2];
        s3 = lanes[3];
    }
#else
    for (; i < stop; i += 4) {
        d = a[i] - b[i];         s0 += d * d;
        d = a[i + 1] - b[i + 1]; s1 += d * d;
        d = a[i + 2] - b[i + 2]; s2 += d * d;
        d = a[i + 3] - b[i + 3]; s3 += d * d;
    }
#endif
    for (i = stop; i < n; i++) {
        d = a[i] - b[i];
        s0 += d * d;
    }
    return (s0 + s1) + (s2 + s3);
}

static inline double patrec_sqdist_f64(const double *a, const double *b, ptrdiff_t n)
{
    ptrdiff_t i = 0, stop = n - n % 4;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0, d;
#if PATREC_SQDIST_SIMD
    if (stop) {
        __m128d diff01 = _mm_sub_pd(_mm_loadu_pd(a), _mm_loadu_pd(b));
        __m128d diff23 = _mm_sub_pd(_mm_loadu_pd(a + 2), _mm_loadu_pd(b + 2));
        __m128d sums01 = _mm_mul_pd(diff01, diff01);
        __m128d sums23 = _mm_mul_pd(diff23, diff23);
        double lanes[4];
        for (i = 4; i < stop; i += 4) {
            diff01 = _mm_sub_pd(_mm_loadu_pd(a + i), _mm_loadu_pd(b + i));
            diff23 = _mm_sub_pd(_mm_loadu_pd(a + i + 2), _mm_loadu_pd(b + i + 2));
            sums01 = _mm_add_pd(sums01, _mm_mul_pd(diff01, diff01));
            sums23 = _mm_add_pd(sums23, _mm_mul_pd(diff23, diff23));
        }
        _mm_storeu_pd(lanes, sums01);
        _mm_storeu_pd(lanes + 2, sums23);
        s0 = lanes[0];
        s1 = lanes[1];
        s2 = lanes[2];
        s3 = lanes[3];
    }
#else
    for (; i < stop; i += 4) {
        d = a[i] - b[i];         s0 += d * d;
        d = a[i + 1] - b[i + 1]; s1 += d * d;
        d = a[i + 2] - b[i + 2]; s2 += d * d;
        d = a[i + 3] - b[i + 3]; s3 += d * d;
    }
#endif
    for (i = stop; i < n; i++) {
        d = a[i] - b[i];
        s0 += d * d;
    }
    return (s0 + s1) + (s2 + s3);
}

#endif
