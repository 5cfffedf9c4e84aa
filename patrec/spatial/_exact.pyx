# SciPy's cKDTree distances, operation for operation (patrec/spatial/_kdtree.py).
#
# Design
# ------
# patrec.spatial answers as scipy.spatial.cKDTree does, and a neighbour is in or out
# of an answer by a comparison of cKDTree's own numbers: its "reduced" distance
# (the p-th power of the distance, for p = 1 and inf the distance) computed exactly
# as its C++ core computes it (scipy/spatial/ckdtree/src/distance.h), against a
# bound computed as it computes it.  The search itself is patrec's tree; what it
# returns is a superset of the answer (its radius is widened by a rounding margin,
# see _kdtree.py), and the loops here measure each candidate pair the way cKDTree
# does:
#
#   p = 2, plain     four partial sums of (u_i - v_i)^2 over the groups of four
#                    features, added as ((a0 + a1) + a2) + a3, then the features
#                    left over one by one (sqeuclidean_distance_double)
#   p = 2, periodic  one running sum of w_i^2, w_i = wrap(u_i - v_i) (below)
#   p = 1            one running sum of |w_i|
#   p = inf          the running maximum of |w_i|
#   other p          one running sum of pow(|w_i|, p)
#
# where u is the tree's point, v the query (or the other tree's point), and w_i is
# u_i - v_i, or in a periodic dimension of box L (half H) that difference moved by
# one period when it exceeds half of it: d + L if d < -H, d - L if d > H.  pow is
# the C library's, as in cKDTree.  cKDTree stops a sum early once it exceeds the
# bound; a sum of non-negative terms only grows, so the decision is the same
# whether it stops or not, and these loops finish every sum.
#
# The loops allocate nothing and run without the GIL; Python validates shapes,
# dtypes and indices first (_kdtree.py).

from libc.math cimport fabs, pow

from patrec._signals cimport SignalWatch, raise_interrupt, stop_after
from patrec._typedefs cimport intp_t

cdef enum:
    # the distance's kind, as cKDTree chooses its kernel from p
    P2 = 0
    P1 = 1
    PINF = 2
    PGENERAL = 3

KIND_P2 = P2
KIND_P1 = P1
KIND_PINF = PINF
KIND_PGENERAL = PGENERAL


cdef inline double _wrap(double d, double half, double full) noexcept nogil:
    """cKDTree's BoxDist1D::wrap_distance: d moved by one period past half a box
    (full <= 0, a dimension that is not periodic: d itself)."""
    if d < -half:
        return full + d
    if d > half:
        return d - full
    return d


cdef inline double _sq_plain(const double* u, const double* v, intp_t m) noexcept nogil:
    """cKDTree's sqeuclidean_distance_double."""
    cdef double a0 = 0, a1 = 0, a2 = 0, a3 = 0, s, d0, d1, d2, d3
    cdef intp_t i = 0
    while i + 4 <= m:
        d0 = u[i] - v[i]
        d1 = u[i + 1] - v[i + 1]
        d2 = u[i + 2] - v[i + 2]
        d3 = u[i + 3] - v[i + 3]
        a0 += d0 * d0
        a1 += d1 * d1
        a2 += d2 * d2
        a3 += d3 * d3
        i += 4
    s = a0 + a1 + a2 + a3
    while i < m:
        d0 = u[i] - v[i]
        s += d0 * d0
        i += 1
    return s


cdef inline double _rdist(const double* u, const double* v, intp_t m, int kind,
                          double p, const double* box) noexcept nogil:
    """cKDTree's reduced distance between the tree's point u and the point v
    (``box``: the full box sizes then the half ones, NULL when not periodic)."""
    cdef intp_t i
    cdef double s = 0, w
    if box == NULL and kind == P2:
        return _sq_plain(u, v, m)
    for i in range(m):
        w = u[i] - v[i]
        if box != NULL:
            w = _wrap(w, box[m + i], box[i])
        w = fabs(w)
        if kind == P2:
            s += w * w
        elif kind == P1:
            s += w
        elif kind == PINF:
            if w > s:  # (fmax: no NaN reaches here)
                s = w
        else:
            s += pow(w, p)
    return s


def pair_rdist(int kind, double p, const double[:, ::1] tree_points,
               const double[:, ::1] points, const intp_t[::1] tree_rows,
               const intp_t[::1] rows, const double[::1] box, double[::1] out):
    """out[i] = the reduced distance between tree_points[tree_rows[i]] and
    points[rows[i]], as cKDTree computes it (``box``: empty, or the 2 m values
    full sizes then halves of a periodic box)."""
    cdef intp_t i, m = tree_points.shape[1]
    cdef intp_t n_pairs = out.shape[0]
    cdef const double* periodic = NULL
    cdef SignalWatch watch
    cdef bint stopped = False
    if box.shape[0] == 2 * m and m > 0:
        periodic = &box[0]
    watch.work = 0
    if m == 0:
        out[:] = 0
        return
    with nogil:
        for i in range(n_pairs):
            out[i] = _rdist(&tree_points[tree_rows[i], 0], &points[rows[i], 0], m,
                            kind, p, periodic)
            if stop_after(&watch, m):
                stopped = True
                break
    if stopped:
        raise_interrupt()


def rank_candidates(int kind, double p, const double[:, ::1] tree_points,
                    const double[:, ::1] points, intp_t[:, ::1] index,
                    double[:, ::1] reduced, const double[::1] box):
    """Measure each row's candidates (row i of ``points`` against the tree points
    ``index[i, :]``) as cKDTree does, into ``reduced``, and sort every row by
    (reduced distance, index), in place.

    The candidates come in the order of patrec's own distances, which differ from
    cKDTree's by rounding at most: an insertion sort is then a pass and a few
    swaps."""
    cdef intp_t i, j, t, m = tree_points.shape[1], k = index.shape[1]
    cdef intp_t moving_index
    cdef double moving
    cdef const double* periodic = NULL
    cdef SignalWatch watch
    cdef bint stopped = False
    if box.shape[0] == 2 * m and m > 0:
        periodic = &box[0]
    watch.work = 0
    with nogil:
        for i in range(index.shape[0]):
            for j in range(k):
                if m == 0:
                    reduced[i, j] = 0
                else:
                    reduced[i, j] = _rdist(&tree_points[index[i, j], 0],
                                           &points[i, 0], m, kind, p, periodic)
            for j in range(1, k):
                moving = reduced[i, j]
                moving_index = index[i, j]
                t = j
                while t > 0 and (reduced[i, t - 1] > moving or (
                        reduced[i, t - 1] == moving and index[i, t - 1] > moving_index)):
                    reduced[i, t] = reduced[i, t - 1]
                    index[i, t] = index[i, t - 1]
                    t -= 1
                reduced[i, t] = moving
                index[i, t] = moving_index
            if stop_after(&watch, (m + 1) * k):
                stopped = True
                break
    if stopped:
        raise_interrupt()


def power(const double[::1] x, double p, double[::1] out):
    """out[i] = pow(x[i], p), the C library's pow (as cKDTree raises a radius to
    the power p, and takes the p-th root of a distance)."""
    cdef intp_t i
    with nogil:
        for i in range(x.shape[0]):
            out[i] = pow(x[i], p)
