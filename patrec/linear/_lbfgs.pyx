# The two-loop recursion of L-BFGS: the search direction -H g, where H approximates
# the inverse Hessian from the m newest correction pairs (s_i, y_i) (the steps taken
# and the changes of the gradient they made), in O(m n) time and without forming H.
# Nocedal and Wright, *Numerical Optimization*, 2nd ed., Algorithm 7.4; the initial
# matrix is gamma I with gamma = s^T y / y^T y of the newest pair (their eq. 7.20).
#
# `_optimize.py` keeps the pairs in a ring of m rows and drives the iterations; this
# loop is compiled because it is 4 m small vector operations an iteration, which as
# numpy calls would cost more than the objective of a small problem.

from scipy.linalg.cython_blas cimport daxpy, ddot

from patrec._typedefs cimport intp_t


def lbfgs_direction(const double[::1] gradient, const double[:, ::1] steps,
                    const double[:, ::1] changes, const double[::1] rho,
                    intp_t newest, intp_t count, double[::1] alpha,
                    double[::1] direction):
    """direction = -H gradient from the ``count`` newest pairs.

    Pair j (j = 0 the newest) is row (newest - j) mod m of ``steps`` (s) and
    ``changes`` (y), with rho = 1 / (s^T y) at the same index.  ``alpha`` (length m)
    is scratch space.  Without pairs the direction is -gradient.
    """
    cdef int n = <int> gradient.shape[0], one = 1
    cdef intp_t m = steps.shape[0], j, i
    cdef double a, b, gamma
    for i in range(n):
        direction[i] = -gradient[i]
    if count == 0 or n == 0:
        return
    with nogil:
        for j in range(count):
            i = (newest - j + m) % m  # (j < m: C's % of a number >= 0)
            a = rho[i] * ddot(&n, <double*> &steps[i, 0], &one, &direction[0], &one)
            alpha[i] = a
            a = -a
            daxpy(&n, &a, <double*> &changes[i, 0], &one, &direction[0], &one)
        gamma = (ddot(&n, <double*> &steps[newest, 0], &one,
                      <double*> &changes[newest, 0], &one)
                 / ddot(&n, <double*> &changes[newest, 0], &one,
                        <double*> &changes[newest, 0], &one))
        for i in range(n):
            direction[i] *= gamma
        for j in range(count - 1, -1, -1):
            i = (newest - j + m) % m
            b = alpha[i] - rho[i] * ddot(&n, <double*> &changes[i, 0], &one,
                                         &direction[0], &one)
            daxpy(&n, &b, <double*> &steps[i, 0], &one, &direction[0], &one)
