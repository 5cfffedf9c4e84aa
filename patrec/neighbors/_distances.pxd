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
# All kernels are `noexcept nogil` and allocate nothing.

from patrec._typedefs cimport floating, intp_t

cdef enum MetricKind:
    SQEUCLIDEAN = 0
    CITYBLOCK = 1
    CHEBYSHEV = 2
    MINKOWSKI = 3

cdef floating sqeuclidean_rdist(const floating* a, const floating* b,
                                intp_t n_features) noexcept nogil

cdef floating cityblock_dist(const floating* a, const floating* b,
                             intp_t n_features) noexcept nogil

cdef floating chebyshev_dist(const floating* a, const floating* b,
                             intp_t n_features) noexcept nogil

cdef floating minkowski_rdist(const floating* a, const floating* b,
                              intp_t n_features, double p) noexcept nogil

cdef floating rdist(MetricKind kind, double p, const floating* a, const floating* b,
                    intp_t n_features) noexcept nogil

cdef double rdist_to_dist(MetricKind kind, double p, double r) noexcept nogil

cdef double dist_to_rdist(MetricKind kind, double p, double d) noexcept nogil
