# The array loops built on the distance kernels of _distances.pxd (where the kernels
# and their design live).  The loops take typed memoryviews already validated in Python
# (patrec/neighbors/search/metrics.py): C-contiguous, same dtype, matching feature counts,
# a known metric kind and p >= 1.  They release the GIL, so callers may run row
# ranges in threads, and look for Ctrl-C every few milliseconds (_signals.pxd).

from libc.math cimport INFINITY

from patrec._signals cimport SignalWatch, raise_interrupt, stop_after
from patrec._typedefs cimport floating, intp_t

# Whether the squared euclidean distance runs the SSE2 kernel (setup.py's
# PATREC_NO_SIMD switch turns it off): both give the same results, bit for bit.
SIMD = PATREC_SQDIST_SIMD == 1


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
                    sqeuclidean_rdist_4(&X[i, 0], &Y[j, 0], n_features, block)
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


# The metric kinds by name, for the Python side (patrec/neighbors/search/metrics.py).
KINDS = {
    "sqeuclidean": SQEUCLIDEAN,
    "cityblock": CITYBLOCK,
    "chebyshev": CHEBYSHEV,
    "minkowski": MINKOWSKI,
}
