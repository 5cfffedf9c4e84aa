# The perceptron loops: one pass (epoch) over the training rows per call.
#
# Who does what
# -------------
# `perceptron.py` and `linear_machine.py` validate every parameter and the data and
# bind the data (in row storage, see `patrec/_training.pxd`), the codes, the weights
# and the sample weights once, in an `EpochState` (`patrec/_epoch_state.pyx`); the
# epoch driver of `patrec/_training.py` draws the visiting order of each epoch, calls
# one of the two epoch functions below through them with the state, the order and
# the rule's scalars, and decides when to stop.  Each epoch function picks the
# state's precision (float32 or float64 rows) and runs its loop on the state's
# arrays, unpacked into locals first.
# The epoch functions touch only the rows and weights of the state and release the
# GIL for the whole pass; they allocate nothing.  When the history is recorded they
# write each correction to the log they are handed (`log_correction`).
# While one row is processed the next row of the order is prefetched, which
# hides most of the cost of visiting the rows in a shuffled order.
#
# A score that is not finite (features so large that w . x overflows float64) makes
# the comparisons meaningless: the epoch stops at once and returns -1, and the
# caller raises a ValueError.
#
# Averaging (Daume's trick): besides the weights w the loop keeps u, the sum of every
# update multiplied by c, the number of steps taken before it.  After T steps the
# mean of the weight vectors w_1 .. w_T held after each step is w - u / T, computed
# once at the end, so an averaged epoch costs the same O(nnz) per mistake as a plain
# one.

from libc.math cimport isfinite

from patrec._epoch_state cimport EpochState
from patrec._typedefs cimport floating, intp_t
from patrec._training cimport (visit_row, prefetch_label, augmented_dot,
                               augmented_axpy, class_scores, class_move, all_finite,
                               weighted_step, log_correction)


def binary_perceptron_epoch(EpochState state, const intp_t[::1] order, intp_t s,
                            intp_t positive, double rate, double margin,
                            bint averaged):
    """One epoch of binary perceptron ``s`` (row s of the state's W); return the
    number of mistakes (-1 when a score overflowed).

    A row x with label y = +1 (code ``positive``) or -1 (any other code) is a
    mistake when y (w . x + b) <= margin; then w += rate * y * (x, 1) (times the
    row's weight when the state has sample weights).  ``counter[s]`` is the step
    counter c of the averaging, carried over from epoch to epoch; row s of U the
    averaging sum.  A mistake is logged as (position, t, 0, 0).
    """
    if state.single:
        return _binary_perceptron_epoch(state.values32, state, order, s, positive,
                                        rate, margin, averaged)
    return _binary_perceptron_epoch(state.values64, state, order, s, positive, rate,
                                    margin, averaged)


cdef intp_t _binary_perceptron_epoch(const floating[::1] values, EpochState state,
                                     const intp_t[::1] order, intp_t s,
                                     intp_t positive, double rate, double margin,
                                     bint averaged):
    """`binary_perceptron_epoch` on rows of one precision."""
    cdef const intp_t[::1] columns = state.columns, row_starts = state.row_starts
    cdef const intp_t[::1] codes = state.codes
    cdef intp_t n_features = state.n_features
    cdef double[::1] w = state.W[s], u = state.U[s], counter = state.counter[s:s + 1]
    cdef const double[::1] sample_weight = state.sample_weight
    cdef intp_t[:, ::1] log = state.log
    cdef intp_t[::1] n_logged = state.n_logged
    cdef intp_t p, i, nnz, mistakes = 0
    cdef const floating* row_values
    cdef const intp_t* row_columns
    cdef double sign, step, score
    with nogil:
        for p in range(order.shape[0]):
            i = order[p]
            nnz = visit_row(values, columns, row_starts, n_features, order, p,
                            &row_values, &row_columns)
            prefetch_label(codes, order, p)
            sign = 1.0 if codes[i] == positive else -1.0
            score = augmented_dot(&w[0], row_values, row_columns, nnz, n_features)
            if not isfinite(score):
                mistakes = -1
                break
            if sign * score <= margin:
                mistakes += 1
                step = weighted_step(rate, sample_weight, i) * sign
                log_correction(log, n_logged, p, counter[0], 0, 0)
                augmented_axpy(step, row_values, row_columns, nnz, n_features, &w[0])
                if averaged:
                    augmented_axpy(step * counter[0], row_values, row_columns, nnz,
                                   n_features, &u[0])
            counter[0] += 1.0
    return mistakes


def linear_machine_epoch(EpochState state, const intp_t[::1] order, double rate,
                         double margin, bint update_all, bint averaged):
    """One epoch of the multiclass perceptron (linear machine); return the mistakes
    (-1 when a score overflowed).

    Column r of the state's W, ``Wt`` (shape (n_features + 1, n_classes)), is the
    augmented weight vector of class r; its U, ``Ut``, holds the averaging sums in
    the same layout; ``counter[0]`` counts the steps.

    Row x of class y is a mistake when some other class r scores within ``margin``
    of the truth: w_y . x - w_r . x <= margin (ties count as mistakes).  Then
    w_y += rate * x and either the best-scoring wrong class loses rate * x
    (``update_all`` false) or each of the |E| offending classes loses
    rate * x / |E| (``update_all`` true); with ``sample_weight`` not empty, rate is
    multiplied by the row's weight.  Each corrected wrong class r is logged as
    (position, t, r, |E|), |E| = 1 for the "winner" update.
    """
    if state.single:
        return _linear_machine_epoch(state.values32, state, order, rate, margin,
                                     update_all, averaged)
    return _linear_machine_epoch(state.values64, state, order, rate, margin,
                                 update_all, averaged)


cdef intp_t _linear_machine_epoch(const floating[::1] values, EpochState state,
                                  const intp_t[::1] order, double rate, double margin,
                                  bint update_all, bint averaged):
    """`linear_machine_epoch` on rows of one precision."""
    cdef const intp_t[::1] columns = state.columns, row_starts = state.row_starts
    cdef const intp_t[::1] codes = state.codes
    cdef intp_t n_features = state.n_features
    cdef double[:, ::1] Wt = state.W, Ut = state.U
    cdef double[::1] scores = state.scores, counter = state.counter
    cdef const double[::1] sample_weight = state.sample_weight
    cdef intp_t[:, ::1] log = state.log
    cdef intp_t[::1] n_logged = state.n_logged
    cdef intp_t n_classes = Wt.shape[1]
    cdef intp_t p, i, r, y, nnz, winner, n_offending, mistakes = 0
    cdef const floating* row_values
    cdef const intp_t* row_columns
    cdef double truth, step, share
    with nogil:
        for p in range(order.shape[0]):
            i = order[p]
            nnz = visit_row(values, columns, row_starts, n_features, order, p,
                            &row_values, &row_columns)
            prefetch_label(codes, order, p)
            y = codes[i]
            winner = -1
            n_offending = 0
            class_scores(&Wt[0, 0], n_classes, row_values, row_columns, nnz,
                         n_features, &scores[0])
            truth = scores[y]
            if not all_finite(&scores[0], n_classes):
                mistakes = -1
                break
            for r in range(n_classes):
                if r != y and truth - scores[r] <= margin:
                    n_offending += 1
                    if winner < 0 or scores[r] > scores[winner]:
                        winner = r
            if winner >= 0:
                mistakes += 1
                step = weighted_step(rate, sample_weight, i)
                class_move(Wt, Ut, y, step, counter[0], averaged, row_values,
                           row_columns, nnz, n_features)
                if not update_all:
                    class_move(Wt, Ut, winner, -step, counter[0], averaged,
                               row_values, row_columns, nnz, n_features)
                    log_correction(log, n_logged, p, counter[0], winner, 1)
                else:
                    share = -step / n_offending
                    for r in range(n_classes):
                        if r != y and truth - scores[r] <= margin:
                            class_move(Wt, Ut, r, share, counter[0], averaged,
                                       row_values, row_columns, nnz, n_features)
                            log_correction(log, n_logged, p, counter[0], r,
                                           n_offending)
            counter[0] += 1.0
    return mistakes
