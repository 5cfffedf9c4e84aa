# Distance kernels shared by every compiled module that measures distances
# (minimum-distance classifier, brute-force search, branch-and-bound tree).
#
# Each kernel works on two rows given as pointers and returns the *reduced* distance,
# a monotone function of the true distance that needs no root:
#
#   metric kind     reduced distance r          true distance
#   SQEUCLIDEAN     sum (a_i - b_i)^2           sqrt(r)   (euclidean)
#   CITYBLOCK       sum |a_i - b_i|             r
#   CHEBYSHEV       max |a_i - b_i|             r
#   MINKOWSKI       (sum |a_i - b_i|^p)^(1/p)   r         (the largest difference is
#                                                         factored out when the plain
#                                                         sum over- or underflows)
#
# Comparisons are made on reduced distances; roots are taken once, at the end.
# The quadratic-form (Mahalanobis) metric needs no kernel of its own: with
# VI = L L^T (Cholesky), (a - b)^T VI (a - b) = |L^T a - L^T b|^2, so it is the
# euclidean metric on data mapped once by L^T (done in Python, see metrics.py).
#
# All kernels are `inline`, `noexcept nogil` and allocate nothing: defined here, in
# the .pxd (the squared distance in the C header next to it), every module that
# cimports them gets its own copy the compiler can inline into its loops (a function
# pointer across modules could not be inlined).

from libc.float cimport DBL_MAX, DBL_MIN
from libc.math cimport fabs, pow, sqrt

from patrec._typedefs cimport floating, intp_t

cdef enum MetricKind:
    SQEUCLIDEAN = 0
    CITYBLOCK = 1
    CHEBYSHEV = 2
    MINKOWSKI = 3

# The sums below keep four partial sums: independent additions that the CPU can
# overlap, about three times faster than one running total.  The squared euclidean
# one is written in C (_sqdist_simd.h, next to this file), its four sums the lanes of
# SSE registers: the same additions in the same order, so the same results, four
# features per instruction (the compiler did not find that form on its own).

cdef extern from "_sqdist_simd.h" nogil:
    const int PATREC_SQDIST_SIMD  # 1 with SSE2, 0 for the scalar loop
    float patrec_sqdist_f32(const float* a, const float* b, intp_t n)
    double patrec_sqdist_f64(const double* a, const double* b, intp_t n)
    void patrec_sqdist2_rows_f32(const float* x, const float* rows, intp_t m,
                                 float* out)
    void patrec_sqdist2_rows_f64(const double* x, const double* rows, intp_t m,
                                 double* out)


cdef inline floating sqeuclidean_rdist(const floating* a, const floating* b,
                                       intp_t n_features) noexcept nogil:
    if floating is float:
        return patrec_sqdist_f32(a, b, n_features)
    else:
        return patrec_sqdist_f64(a, b, n_features)


cdef inline void sqeuclidean_rdist_rows2(const floating* x, const floating* rows,
                                         intp_t m, floating* out) noexcept nogil:
    # sqeuclidean_rdist from x to each of m consecutive rows of two features
    if floating is float:
        patrec_sqdist2_rows_f32(x, rows, m, out)
    else:
        patrec_sqdist2_rows_f64(x, rows, m, out)


cdef inline floating cityblock_dist(const floating* a, const floating* b,
                                    intp_t n_features) noexcept nogil:
    cdef floating s0 = 0, s1 = 0, s2 = 0, s3 = 0
    cdef intp_t i = 0, stop = n_features - n_features % 4
    while i < stop:
        s0 += fabs(a[i] - b[i])
        s1 += fabs(a[i + 1] - b[i + 1])
        s2 += fabs(a[i + 2] - b[i + 2])
        s3 += fabs(a[i + 3] - b[i + 3])
        i += 4
    while i < n_features:
        s0 += fabs(a[i] - b[i])
        i += 1
    return (s0 + s1) + (s2 + s3)


cdef inline floating chebyshev_dist(const floating* a, const floating* b,
                                    intp_t n_features) noexcept nogil:
    cdef floating largest = 0, diff
    cdef intp_t i
    for i in range(n_features):
        diff = fabs(a[i] - b[i])
        if diff > largest:
            largest = diff
    return largest


cdef inline floating minkowski_rdist(const floating* a, const floating* b,
                                     intp_t n_features, double p) noexcept nogil:
    # The true distance (sum |a_i - b_i|^p)^(1/p).  When the plain sum over- or
    # underflows (large p, very large or very small data), it is recomputed as
    # m * (sum (|a_i - b_i| / m)^p)^(1/p) with m the largest difference: every term
    # then lies in [0, 1].  Equal sums give equal distances, so exact ties stay ties.
    cdef double largest = 0, total = 0, diff
    cdef intp_t i
    for i in range(n_features):
        diff = fabs(<double> a[i] - <double> b[i])
        total += pow(diff, p)
        if diff > largest:
            largest = diff
    if total >= DBL_MIN and total <= DBL_MAX:
        return <floating> pow(total, 1.0 / p)
    if largest == 0:
        return 0
    total = 0
    for i in range(n_features):
        total += pow(fabs(<double> a[i] - <double> b[i]) / largest, p)
    return <floating> (largest * pow(total, 1.0 / p))


cdef inline floating rdist(MetricKind kind, double p, const floating* a, const floating* b,
                           intp_t n_features) noexcept nogil:
    if kind == SQEUCLIDEAN:
        return sqeuclidean_rdist(a, b, n_features)
    if kind == CITYBLOCK:
        return cityblock_dist(a, b, n_features)
    if kind == CHEBYSHEV:
        return chebyshev_dist(a, b, n_features)
    return minkowski_rdist(a, b, n_features, p)


cdef inline double rdist_to_dist(MetricKind kind, double p, double r) noexcept nogil:
    if kind == SQEUCLIDEAN:
        return sqrt(r)
    return r


cdef inline void sqeuclidean_rdist_4(const floating* x, const floating* y, intp_t n_features,
                                     floating* out) noexcept nogil:
    # Squared distances from x to the four consecutive rows y[0..3]: x[i] is loaded
    # once for four rows and the four sums are independent chains.
    cdef const floating* y1 = y + n_features
    cdef const floating* y2 = y1 + n_features
    cdef const floating* y3 = y2 + n_features
    cdef floating s0 = 0, s1 = 0, s2 = 0, s3 = 0, v, d
    cdef intp_t i
    for i in range(n_features):
        v = x[i]
        d = v - y[i]
        s0 += d * d
        d = v - y1[i]
        s1 += d * d
        d = v - y2[i]
        s2 += d * d
        d = v - y3[i]
        s3 += d * d
    out[0] = s0
    out[1] = s1
    out[2] = s2
    out[3] = s3
