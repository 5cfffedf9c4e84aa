# Distance kernels (see _distances.pxd for the design) and the array loops built on
# them.  The loops take typed memoryviews already validated in Python
# (patrec/neighbors/metrics.py): C-contiguous, same dtype, matching feature counts,
# a known metric kind and p >= 1.  They release the GIL, so callers may run row
# ranges in threads, and look for Ctrl-C every few milliseconds (_signals.pxd).

from libc.float cimport DBL_MAX, DBL_MIN
from libc.math cimport INFINITY, fabs, pow, sqrt

from patrec._signals cimport SignalWatch, raise_interrupt, stop_after
from patrec._typedefs cimport floating, intp_t


# The two sums below keep four partial sums: independent additions that the CPU can
# overlap, about three times faster than one running total.

cdef inline floating sqeuclidean_rdist(const floating* a, const floating* b,
                                       intp_t n_features) noexcept nogil:
    cdef floating s0 = 0, s1 = 0, s2 = 0, s3 = 0, d0, d1, d2, d3
    cdef intp_t i = 0, stop = n_features - n_features % 4
    while i < stop:
        d0 = a[i] - b[i]
        d1 = a[i + 1] - b[i + 1]
        d2 = a[i + 2] - b[i + 2]
        d3 = a[i + 3] - b[i + 3]
        s0 += d0 * d0
        s1 += d1 * d1
        s2 += d2 * d2
        s3 += d3 * d3
        i += 4
    while i < n_features:
        d0 = a[i] - b[i]
        s0 += d0 * d0
        i += 1
    return (s0 + s1) + (s2 + s3)


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


cdef floating rdist(MetricKind kind, double p, const floating* a, const floating* b,
                    intp_t n_features) noexcept nogil:
    if kind == SQEUCLIDEAN:
        return sqeuclidean_rdist(a, b, n_features)
    if kind == CITYBLOCK:
        return cityblock_dist(a, b, n_features)
    if kind == CHEBYSHEV:
        return chebyshev_dist(a, b, n_features)
    return minkowski_rdist(a, b, n_features, p)


cdef double rdist_to_dist(MetricKind kind, double p, double r) noexcept nogil:
    if kind == SQEUCLIDEAN:
        return sqrt(r)
    return r


cdef double dist_to_rdist(MetricKind kind, double p, double d) noexcept nogil:
    if kind == SQEUCLIDEAN:
        return d * d
    return d


cdef bint _rdist_rows(MetricKind kind, double p, const floating[:, ::1] X,
                      const floating[:, ::1] Y, floating[:, ::1] out) noexcept nogil:
    """Fill the rows; False when Ctrl-C stopped it part way."""
    cdef intp_t i, j, n_features = X.shape[1]
    cdef SignalWatch watch
    watch.work = 0
    for i in range(X.shape[0]):
        for j in range(Y.shape[0]):
            out[i, j] = rdist(kind, p, &X[i, 0], &Y[j, 0], n_features)
        if stop_after(&watch, Y.shape[0] * n_features):
            return False
    return True


def pairwise_rdist(int kind, double p, const floating[:, ::1] X,
                   const floating[:, ::1] Y, floating[:, ::1] out):
    """Fill ``out[i, j]`` with the reduced distance between ``X[i]`` and ``Y[j]``."""
    cdef bint done
    with nogil:
        done = _rdist_rows(<MetricKind> kind, p, X, Y, out)
    if not done:
        raise_interrupt()


cdef inline void _sqeuclidean_4(const floating* x, const floating* y, intp_t n_features,
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


def group_min_rdist(int kind, double p, const floating[:, ::1] X,
                    const floating[:, ::1] Y, const intp_t[::1] group_of,
                    floating[:, ::1] out, intp_t[::1] nearest):
    """Per group, the smallest reduced distance from each row of ``X`` to its rows of ``Y``.

    ``group_of[j]`` is the group (column of ``out``) of ``Y[j]``; every group has at
    least one row.  Fills ``out[i, g]`` and ``nearest[i]``, the group of the smallest
    value in row i (the lowest such group on ties).
    """
    cdef intp_t i, j, t, g, best_group, n_features = X.shape[1], n_rows = Y.shape[0]
    cdef intp_t n_groups = out.shape[1]
    cdef floating value, best
    cdef floating block[4]
    cdef MetricKind metric = <MetricKind> kind
    cdef SignalWatch watch
    cdef bint stopped = False
    watch.work = 0
    with nogil:
        for i in range(X.shape[0]):
            for g in range(n_groups):
                out[i, g] = INFINITY
            j = 0
            if metric == SQEUCLIDEAN:
                while j + 4 <= n_rows:
                    _sqeuclidean_4(&X[i, 0], &Y[j, 0], n_features, block)
                    for t in range(4):
                        g = group_of[j + t]
                        if block[t] < out[i, g]:
                            out[i, g] = block[t]
                    j += 4
            while j < n_rows:
                value = rdist(metric, p, &X[i, 0], &Y[j, 0], n_features)
                g = group_of[j]
                if value < out[i, g]:
                    out[i, g] = value
                j += 1
            best_group = 0
            best = out[i, 0]
            for g in range(1, n_groups):
                if out[i, g] < best:
                    best = out[i, g]
                    best_group = g
            nearest[i] = best_group
            if stop_after(&watch, n_rows * n_features):
                stopped = True
                break
    if stopped:
        raise_interrupt()


def rdist_to_dist_inplace(int kind, double p, floating[:, ::1] values):
    """Turn reduced distances into true distances, in place."""
    cdef intp_t i, j
    cdef MetricKind metric = <MetricKind> kind
    if metric != SQEUCLIDEAN:
        return
    with nogil:
        for i in range(values.shape[0]):
            for j in range(values.shape[1]):
                values[i, j] = <floating> rdist_to_dist(metric, p, values[i, j])


# The metric kinds by name, for the Python side (patrec/neighbors/metrics.py).
KINDS = {
    "sqeuclidean": SQEUCLIDEAN,
    "cityblock": CITYBLOCK,
    "chebyshev": CHEBYSHEV,
    "minkowski": MINKOWSKI,
}
