# The data term of softmax regression and its gradient in one pass over the rows.
#
# Who does what
# -------------
# `softmax.py` validates the data and the parameters; its `SoftmaxObjective` calls
# `softmax_data_term` once per L-BFGS evaluation for a dense C-contiguous X (sparse X
# keeps the numpy path there), then divides by the total weight and adds the penalty.
#
# The pass
# --------
# Both matrix products of an evaluation read X: the scores Z = X W^T + b and the
# gradient G = R^T X of the residuals R = P - Y.  Done one after the other over the
# whole of X, they stream X from memory twice.  Here the rows are taken in blocks
# small enough to stay in cache (32 KiB of X; blocks of 64 and 128 KiB measured a
# third slower on the digits' 64 features): for each block a GEMM gives its
# scores, loops over its rows turn them into the rows' losses and residuals in place
# (largest score subtracted before exponentiating, as in the numpy version; the
# exponentials of the whole block in one SIMD loop, _exp_simd.h; the unweighted
# loss takes one log per 64 rows, of the product of their sums), and a
# second GEMM adds the block's share R_b^T X_b to G while X_b is still in cache.
# So X is read from memory once an evaluation, and the k x n score matrix is never
# stored.
#
# Precision: float64 X uses dgemm; float32 X uses sgemm with the weights rounded to
# float32 (the products stay in the precision of X, as in the numpy version), while
# the exponentials, the loss and the intercept gradient are summed in float64.
# The loops release the GIL and allocate nothing (the caller hands in the block
# buffer).

from libc.math cimport log
from scipy.linalg.cython_blas cimport dgemm, sgemm

from patrec._typedefs cimport float32_t, floating, intp_t

cdef extern from "_exp_simd.h" nogil:
    void exp_array "patrec_exp_array"(double* x, Py_ssize_t n)

cdef inline void _gemm(char trans_a, char trans_b, int m, int n, int k,
                       const floating* a, const floating* b, floating beta,
                       floating* c) noexcept nogil:
    """C = op(A) op(B) + beta C in column-major terms (scipy's BLAS), C m x n and
    the three arrays contiguous: each leading dimension follows from the shapes."""
    cdef floating alpha = 1.0
    cdef int lda = k if trans_a == b"T" else m
    cdef int ldb = n if trans_b == b"T" else k
    if floating is float32_t:
        sgemm(&trans_a, &trans_b, &m, &n, &k, &alpha, <float*> a, &lda, <float*> b,
              &ldb, &beta, c, &m)
    else:
        dgemm(&trans_a, &trans_b, &m, &n, &k, &alpha, <double*> a, &lda,
              <double*> b, &ldb, &beta, c, &m)


def softmax_data_term(const floating[:, ::1] X, const intp_t[::1] codes,
                      const double[::1] sample_weight, const floating[:, ::1] coef,
                      const double[::1] intercept, floating[:, ::1] grad_coef,
                      double[::1] grad_intercept, floating[:, ::1] block,
                      double[::1] work):
    """sum_i s_i [log sum_r exp(g_r(x_i)) - g_{y_i}(x_i)], and its gradient.

    g_r(x) = coef[r] . x + intercept[r].  ``grad_coef`` (k x d) receives
    sum_i s_i (P(r | x_i) - [y_i = r]) x_i and ``grad_intercept`` (k) the same sum
    without x_i.  s_i = ``sample_weight[i]``, or 1 when it is empty.  ``block``
    (shape (rows per block, k)) and ``work`` (rows per block times k) are scratch
    space; the number of rows of ``block`` sets the block size.
    """
    cdef intp_t n_samples = X.shape[0], n_features = X.shape[1]
    cdef intp_t n_classes = coef.shape[0], rows = block.shape[0]
    cdef bint weighted = sample_weight.shape[0] != 0
    cdef intp_t start, stop, i, r, y
    cdef floating* z
    cdef double* e
    cdef double top, total, weight, share, residual, loss = 0.0
    # the unweighted loss adds log(total) per row: the product of up to 64 totals
    # (each in [1, k]) and one log of it, the rounding of the product staying far
    # below the sum's
    cdef double totals = 1.0
    cdef int pending = 0
    cdef floating beta
    cdef char no = b'N', yes = b'T'  # transpose the operand or not
    if work.shape[0] < rows * n_classes:
        raise ValueError("work must hold a block's rows times the classes")
    for r in range(n_classes):
        grad_intercept[r] = 0.0
    if n_samples == 0:
        grad_coef[:, :] = 0
        return 0.0
    with nogil:
        start = 0
        while start < n_samples:
            stop = min(start + rows, n_samples)
            # Z_b = X_b coef^T: in column-major terms, coef^T is d x k and X_b^T is
            # d x (stop - start), so Z_b^T (k x rows, the row-major Z_b) = coef X_b^T
            _gemm(yes, no, <int> n_classes, <int> (stop - start),
                  <int> n_features, &coef[0, 0], &X[start, 0], <floating> 0.0,
                  &block[0, 0])
            # the scores less each row's largest, then their exponentials at once
            for i in range(start, stop):
                z = &block[i - start, 0]
                e = &work[(i - start) * n_classes]
                top = z[0] + intercept[0]
                for r in range(1, n_classes):
                    top = max(top, z[r] + intercept[r])
                for r in range(n_classes):
                    e[r] = z[r] + intercept[r] - top
                weight = sample_weight[i] if weighted else 1.0
                loss -= weight * e[codes[i]]
            exp_array(&work[0], (stop - start) * n_classes)
            for i in range(start, stop):
                z = &block[i - start, 0]
                e = &work[(i - start) * n_classes]
                y = codes[i]
                weight = sample_weight[i] if weighted else 1.0
                total = 0.0
                for r in range(n_classes):
                    total += e[r]
                if weighted:
                    loss += weight * log(total)
                else:
                    totals *= total
                    pending += 1
                    if pending == 64 or totals > 1e250:
                        loss += log(totals)
                        totals, pending = 1.0, 0
                share = weight / total
                for r in range(n_classes):
                    residual = e[r] * share  # s_i (P(r | x_i) - [y_i = r])
                    if r == y:
                        residual -= weight
                    grad_intercept[r] += residual
                    z[r] = <floating> residual
            # grad_coef += R_b^T X_b: column-major, grad_coef^T (d x k) += X_b^T R_b
            beta = 0.0 if start == 0 else 1.0
            _gemm(no, yes, <int> n_features, <int> n_classes, <int> (stop - start),
                  &X[start, 0], &block[0, 0], beta, &grad_coef[0, 0])
            start = stop
    return loss + log(totals)


def exp_in_place(double[::1] x):
    """x[i] = e^x[i] by the pass's own exponential (_exp_simd.h); for the tests,
    which compare it with libm's."""
    if x.shape[0]:
        exp_array(&x[0], x.shape[0])
