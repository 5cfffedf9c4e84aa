/* The squared euclidean distance of _distances.pxd (sqeuclidean_rdist) with SSE2.
 *
 * The scalar kernel keeps four partial sums: s_j adds (a_i - b_i)^2 for the i = j
 * (mod 4) of the complete groups of four, in order; the features left over go into
 * s_0; the result is (s_0 + s_1) + (s_2 + s_3).  Here the four sums live in the
 * lanes of SSE registers (four float32 lanes, or two registers of two float64), so
 * each lane performs exactly the scalar kernel's operations, in the same order: the
 * results are equal bit for bit, four (or two) features per instruction.  In two
 * dimensions, where a row is too short for that, patrec_sqdist2_rows_* measures
 * several rows per instruction instead, each lane again the scalar kernel's
 * operations on one row.
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

/* Fewer than four features: s[1], s[2] and s[3] stay 0 and s[0] is the result, so
 * it is returned without the additions of zeros (0 + x == x for a square x): the
 * same value, two additions fewer in 2 and 3 dimensions. */
#define PATREC_SQDIST_SHORT(T, a, b, n)                                        \
    if (n < 4) {                                                                \
        T total = 0, d;                                                         \
        ptrdiff_t j;                                                            \
        if (n > 0) {                                                            \
            d = a[0] - b[0];                                                    \
            total = d * d;                                                      \
        }                                                                       \
        for (j = 1; j < n; j++) {                                               \
            d = a[j] - b[j];                                                    \
            total += d * d;                                                     \
        }                                                                       \
        return total;                                                           \
    }

static inline float patrec_sqdist_f32(const float *a, const float *b, ptrdiff_t n)
{
    ptrdiff_t i = 0, stop = n - n % 4;
    float s[4] = {0, 0, 0, 0};
    PATREC_SQDIST_SHORT(float, a, b, n)
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
    PATREC_SQDIST_SHORT(double, a, b, n)
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

/* The squared distances from x to m consecutive rows of two features (row-major),
 * into out[0 .. m-1]: the values of patrec_sqdist_*(x, row, 2), d0 * d0 + d1 * d1,
 * for two float64 rows or four float32 rows per instruction (the squares of a
 * block of rows, their first and second features gathered into two registers,
 * added lane by lane). */
static inline void patrec_sqdist2_rows_f32(const float *x, const float *rows,
                                           ptrdiff_t m, float *out)
{
    ptrdiff_t t = 0;
#if PATREC_SQDIST_SIMD
    __m128 q = _mm_setr_ps(x[0], x[1], x[0], x[1]);
    for (; t + 4 <= m; t += 4) {
        __m128 d01 = _mm_sub_ps(q, _mm_loadu_ps(rows + 2 * t));
        __m128 d23 = _mm_sub_ps(q, _mm_loadu_ps(rows + 2 * t + 4));
        d01 = _mm_mul_ps(d01, d01);
        d23 = _mm_mul_ps(d23, d23);
        _mm_storeu_ps(out + t,
                      _mm_add_ps(_mm_shuffle_ps(d01, d23, _MM_SHUFFLE(2, 0, 2, 0)),
                                 _mm_shuffle_ps(d01, d23, _MM_SHUFFLE(3, 1, 3, 1))));
    }
#endif
    for (; t < m; t++)
        out[t] = patrec_sqdist_f32(x, rows + 2 * t, 2);
}

static inline void patrec_sqdist2_rows_f64(const double *x, const double *rows,
                                           ptrdiff_t m, double *out)
{
    ptrdiff_t t = 0;
#if PATREC_SQDIST_SIMD
    __m128d q = _mm_loadu_pd(x);
    for (; t + 2 <= m; t += 2) {
        __m128d d0 = _mm_sub_pd(q, _mm_loadu_pd(rows + 2 * t));
        __m128d d1 = _mm_sub_pd(q, _mm_loadu_pd(rows + 2 * t + 2));
        d0 = _mm_mul_pd(d0, d0);
        d1 = _mm_mul_pd(d1, d1);
        _mm_storeu_pd(out + t, _mm_add_pd(_mm_unpacklo_pd(d0, d1),
                                          _mm_unpackhi_pd(d0, d1)));
    }
#endif
    for (; t < m; t++)
        out[t] = patrec_sqdist_f64(x, rows + 2 * t, 2);
}

#endif
