# The perceptron loops: one pass (epoch) over the training rows per call.
#
# Who does what
# -------------
# `perceptron.py` and `linear_machine.py` validate every parameter and the data and
# put the data in row storage (see `patrec/_training.pxd`); the epoch driver of
# `patrec/_training.py` draws the visiting order of each epoch, calls one of the two
# epoch functions below through them and decides when to stop.
# The epoch functions touch only the rows and weights they are given and release the
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

from patrec._typedefs cimport floating, intp_t
from patrec._training cimport (visit_row, prefetch_label, augmented_dot,
                               augmented_axpy, class_scores, class_move, all_finite,
                               weighted_step, log_correction)


def binary_perceptron_epoch(const floating[::1] values, const intp_t[::1] columns,
                            const intp_t[::1] row_starts, intp_t n_features,
                            const intp_t[::1] codes, const intp_t[::1] order,
                            double[::1] w, double[::1] u, double[::1] counter,
                            double rate, double margin, bint averaged,
                            const double[::1] sample_weight, intp_t[:, ::1] log,
                            intp_t[::1] n_logged):
    """One epoch of the binary perceptron; return the number of mistakes (-1 when a
    score overflowed).

    A row x with label y = +1 (code 1) or -1 (code 0) is a mistake when
    y (w . x + b) <= margin; then w += rate * y * (x, 1) (times the row's weight
    when ``sample_weight`` is not empty).  ``counter[0]`` is the step counter c of
    the averaging, carried over from epoch to epoch.  A mistake is logged as
    (position, t, 0, 0).
    """
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
            sign = 1.0 if codes[i] == 1 else -1.0
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


def linear_machine_epoch(const floating[::1] values, const intp_t[::1] columns,
                         const intp_t[::1] row_starts, intp_t n_features,
                         const intp_t[::1] codes, const intp_t[::1] order,
                         double[:, ::1] Wt, double[:, ::1] Ut, double[::1] scores,
                         double[::1] counter, double rate, double margin,
                         bint update_all, bint averaged,
                         const double[::1] sample_weight, intp_t[:, ::1] log,
                         intp_t[::1] n_logged):
    """One epoch of the multiclass perceptron (linear machine); return the mistakes
    (-1 when a score overflowed).

    Column r of ``Wt`` (shape (n_features + 1, n_classes)) is the augmented weight
    vector of class r; ``Ut`` holds the averaging sums in the same layout.

    Row x of class y is a mistake when some other class r scores within ``margin``
    of the truth: w_y . x - w_r . x <= margin (ties count as mistakes).  Then
    w_y += rate * x and either the best-scoring wrong class loses rate * x
    (``update_all`` false) or each of the |E| offending classes loses
    rate * x / |E| (``update_all`` true); with ``sample_weight`` not empty, rate is
    multiplied by the row's weight.  ``scores`` is scratch space of length
    n_classes.  Each corrected wrong class r is logged as (position, t, r, |E|),
    |E| = 1 for the "winner" update.
    """
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
