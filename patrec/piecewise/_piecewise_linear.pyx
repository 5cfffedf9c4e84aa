# The training loop of the piecewise-linear machine: one epoch per call.
#
# Who does what
# -------------
# `piecewise_linear.py` validates the parameters and the data, builds the starting
# weights (k-means subclass means or zeros) and binds them, the data in row storage
# (see `patrec/_training.pxd`) and the codes once, in an `EpochState`
# (`patrec/_epoch_state.pyx`); the epoch driver of `patrec/_training.py` draws the
# visiting order of each epoch and decides when to stop.  `piecewise_linear_epoch`
# below makes one pass over the rows of the state with the GIL released; it
# allocates nothing (the state holds the scratch array for the scores and, when the
# history is recorded, the log of the corrections).
#
# Layout: the augmented weight vectors alpha of all subclasses are the columns of
# Wt, shape (n_features + 1, n_subclasses), grouped by class: the subclasses of class
# c are the columns first[c] .. first[c + 1] - 1.  This is the layout of the linear
# machine's loop (one column per class there), so the scoring and update kernels of
# `patrec/_training.pxd` serve both, and with one subclass per class the two loops
# perform the very same floating-point operations.
#
# A score that is not finite (features so large that alpha . y overflows float64)
# stops the epoch at once with the result -1; the caller raises a ValueError.
#
# Averaging follows `patrec/linear/_perceptron.pyx`: Ut accumulates every update
# times the number of steps taken before it, and the caller subtracts Ut / steps.

from patrec._epoch_state cimport EpochState
from patrec._typedefs cimport floating, intp_t
from patrec._training cimport (visit_row, prefetch_label, class_scores, class_move,
                               all_finite, log_correction)


def piecewise_linear_epoch(EpochState state, const intp_t[::1] order,
                           const intp_t[::1] first, double rate, double margin,
                           bint averaged):
    """One epoch of the subclass error-correction rule; return the number of
    corrections (-1 when a score overflowed).

    For row y (augmented) of class j: m is the best subclass of class j and n the
    best subclass of any other class (the first one on ties).  The row is a mistake
    when alpha_m . y - alpha_n . y <= margin (ties count as mistakes); then
    alpha_m += rate * y and alpha_n -= rate * y.  The state's W, ``Wt``, holds the
    alpha as its columns, its U the averaging sums; ``counter[0]`` counts the
    steps, for the averaging.  A correction is logged as (position, t, m, n).
    """
    if state.single:
        return _piecewise_linear_epoch(state.values32, state, order, first, rate,
                                       margin, averaged)
    return _piecewise_linear_epoch(state.values64, state, order, first, rate, margin,
                                   averaged)


cdef intp_t _piecewise_linear_epoch(const floating[::1] values, EpochState state,
                                    const intp_t[::1] order, const intp_t[::1] first,
                                    double rate, double margin, bint averaged):
    """`piecewise_linear_epoch` on rows of one precision."""
    cdef const intp_t[::1] columns = state.columns, row_starts = state.row_starts
    cdef const intp_t[::1] codes = state.codes
    cdef intp_t n_features = state.n_features
    cdef double[:, ::1] Wt = state.W, Ut = state.U
    cdef double[::1] scores = state.scores, counter = state.counter
    cdef intp_t[:, ::1] log = state.log
    cdef intp_t[::1] n_logged = state.n_logged
    cdef intp_t n_subclasses = Wt.shape[1]
    cdef intp_t p, i, j, s, own, rival, nnz, corrections = 0
    cdef const floating* row_values
    cdef const intp_t* row_columns
    with nogil:
        for p in range(order.shape[0]):
            i = order[p]
            nnz = visit_row(values, columns, row_starts, n_features, order, p,
                            &row_values, &row_columns)
            prefetch_label(codes, order, p)
            class_scores(&Wt[0, 0], n_subclasses, row_values, row_columns, nnz,
                         n_features, &scores[0])
            if not all_finite(&scores[0], n_subclasses):
                corrections = -1
                break
            j = codes[i]
            own = first[j]  # the best subclass of the sample's own class j
            for s in range(first[j] + 1, first[j + 1]):
                if scores[s] > scores[own]:
                    own = s
            rival = -1  # the best subclass of the other classes, left and right of j's
            for s in range(first[j]):
                if rival < 0 or scores[s] > scores[rival]:
                    rival = s
            for s in range(first[j + 1], n_subclasses):
                if rival < 0 or scores[s] > scores[rival]:
                    rival = s
            if scores[own] - scores[rival] <= margin:
                corrections += 1
                log_correction(log, n_logged, p, counter[0], own, rival)
                class_move(Wt, Ut, own, rate, counter[0], averaged, row_values,
                           row_columns, nnz, n_features)
                class_move(Wt, Ut, rival, -rate, counter[0], averaged, row_values,
                           row_columns, nnz, n_features)
            counter[0] += 1.0
    return corrections
