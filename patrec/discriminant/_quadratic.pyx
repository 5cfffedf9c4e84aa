# Squared Mahalanobis distances to every class, the inner loop of QDA.
#
# Design
# ------
# For class i with mean m_i and covariance Sigma_i = L_i L_i^T (Cholesky, L_i lower),
#
#     (x - m_i)^T Sigma_i^{-1} (x - m_i) = || L_i^{-1} (x - m_i) ||^2 .
#
# The caller passes the inverse factors L_i^{-1} (lower triangular, computed once at
# fit time).  Samples are processed in blocks of `block` rows.  For each block and each
# class the centred block is copied into one work buffer and a single BLAS level-3
# triangular multiply (dtrmm / strmm) overwrites it with Z = L_i^{-1} (X_block - m_i)^T;
# the squared distances are the column sums of squares of Z.
#
# Why a multiply by the inverse factor and not a triangular solve (dtrsm) with L_i:
# the arithmetic is the same (d^2 per sample and class), but for the small triangles of
# this problem (d ~ 10 .. 100) OpenBLAS's trmm runs about three times faster than its
# trsm, and the triangular inverse is as accurate as the solve for the well-conditioned
# factors QDA accepts (it refuses near-singular covariances at fit time).
#
# Layout: X is C-contiguous (n, d), so a block of rows read in column-major (BLAS)
# order is the d x nb matrix (X_block)^T with leading dimension d; no transpose is
# needed.  A C-contiguous lower-triangular matrix read in column-major order is its
# transpose (upper), so BLAS is called with uplo='U', transa='T'.  Every call touches
# contiguous memory.
#
# The caller (patrec.discriminant.quadratic.QDA) has validated the values: X, means
# and factors share one dtype (float32 -> strmm, float64 -> dtrmm), are C-contiguous
# and finite.  The shapes are checked here once per call, before any loop runs, since
# the loops are compiled without bounds checks.
# The buffer is allocated once per call; the loops run without the GIL and allocate
# nothing per sample.  The sums of squares are accumulated in double precision.
# Every few milliseconds of work the loop looks for Ctrl-C (patrec/_signals.pxd).

from libc.stdlib cimport malloc, free
from scipy.linalg.cython_blas cimport dtrmm, strmm

from patrec._signals cimport SignalWatch, raise_interrupt, stop_after
from patrec._sums cimport sum_of_squares
from patrec._typedefs cimport floating, intp_t, float64_t


cdef inline void _triangular_multiply(int d, int nb, floating *factor,
                                      floating *block) noexcept nogil:
    """Overwrite the d x nb column-major `block` with T block.

    `factor` is a C-contiguous lower-triangular d x d matrix T (BLAS sees T^T).
    """
    cdef char side = b'L'
    cdef char uplo = b'U'
    cdef char transa = b'T'
    cdef char diag = b'N'
    cdef float one_f = 1.0
    cdef double one_d = 1.0
    if floating is float:
        strmm(&side, &uplo, &transa, &diag, &d, &nb, &one_f, factor, &d, block, &d)
    else:
        dtrmm(&side, &uplo, &transa, &diag, &d, &nb, &one_d, factor, &d, block, &d)


def mahalanobis_squared(const floating[:, ::1] X,
                        const floating[:, ::1] means,
                        const floating[:, :, ::1] inverse_factors,
                        float64_t[:, ::1] out,
                        intp_t block=256):
    """Fill ``out[s, i]`` with ``||L_i^{-1} (X[s] - means[i])||^2``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float32 or float64, C-contiguous
    means : ndarray of shape (n_classes, n_features), same dtype as X
    inverse_factors : ndarray of shape (n_classes, n_features, n_features), same dtype
        The inverses L_i^{-1} of the lower Cholesky factors (the upper triangle is
        never read).
    out : ndarray of shape (n_samples, n_classes), float64
    block : int, default=256
        Samples per triangular multiply.
    """
    cdef intp_t n_samples = X.shape[0]
    cdef intp_t n_classes = means.shape[0]
    cdef int d = <int> X.shape[1]
    cdef intp_t start, stop, s, i, j, nb
    cdef floating *buffer
    cdef floating *column
    cdef const floating *row
    cdef const floating *mean
    cdef SignalWatch watch
    cdef bint stopped = False
    watch.work = 0
    if (means.shape[1] != X.shape[1]
            or inverse_factors.shape[0] != n_classes
            or inverse_factors.shape[1] != X.shape[1]
            or inverse_factors.shape[2] != X.shape[1]
            or out.shape[0] != n_samples or out.shape[1] != n_classes):
        raise ValueError(
            "mahalanobis_squared: X (n, d), means (c, d), inverse_factors (c, d, d) "
            "and out (n, c) have inconsistent shapes.")
    if block < 1:
        raise ValueError(f"block must be at least 1, got {block}.")
    if n_samples == 0:
        return
    if block > n_samples:
        block = n_samples
    buffer = <floating *> malloc(block * d * sizeof(floating))
    if buffer == NULL:
        raise MemoryError()
    try:
        with nogil:
            start = 0
            while start < n_samples:
                stop = min(start + block, n_samples)
                nb = stop - start
                for i in range(n_classes):
                    # centre the block: column s of the buffer is X[start + s] - m_i
                    mean = &means[i, 0]
                    for s in range(nb):
                        row = &X[start + s, 0]
                        column = buffer + s * d
                        for j in range(d):
                            column[j] = row[j] - mean[j]
                    _triangular_multiply(d, <int> nb,
                                         <floating *> &inverse_factors[i, 0, 0], buffer)
                    for s in range(nb):
                        out[start + s, i] = sum_of_squares(buffer + s * d, d)
                start = stop
                if stop_after(&watch, nb * n_classes * d * d):
                    stopped = True
                    break
    finally:
        free(buffer)
    if stopped:
        raise_interrupt()
