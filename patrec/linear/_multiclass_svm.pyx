# The multiclass (Crammer-Singer) SVM trained by stochastic subgradient descent.
#
# Who does what
# -------------
# `multiclass_svm.py` validates the parameters and the data and binds the row
# storage (see `patrec/_training.pxd`), the codes, V, U, (t, H) and the sample
# weights once, in an `EpochState` (`patrec/_epoch_state.pyx`); through it the
# epoch driver of `patrec/_training.py` draws each epoch's order and calls
# `crammer_singer_epoch` with the state once per epoch, then
# `crammer_singer_objective` records the objective.  The loops
# release the GIL and allocate nothing; the next row of the order is prefetched while
# one row is processed.  When the history is recorded, every update is logged
# (`log_correction`).
#
# Sample weights: row i's update direction is multiplied by its weight s_i (the
# caller rescales the weights to mean 1 over the rows visited), which is SGD on the
# objective whose hinge terms are weighted by s_i.
#
# The step size eta_t = 1 / (lambda t) makes the course's update collapse to a sum:
# shrinking every w_r by (1 - lambda eta_t) = (1 - 1/t) and adding eta_t g_t gives
#     W_{t+1} = V_t / (lambda t),   V_t = g_1 + ... + g_t,
# where g_t adds x_t to the row of the true class and subtracts it from the row of the
# loss-augmented winner (g_t = 0 when the hinge is inactive).  So the loop keeps only
# V (sparse updates, no O(k d) shrink per step) and the step count t.
#
# Averaged iterate over the steps t0 .. T:
#     sum_{t=t0..T} W_{t+1} = (H_T V_T - U_T) / lambda,
# with H_t = 1/t0 + ... + 1/t and U_T = sum_{t=t0..T} H_{t-1} g_t, so U also changes
# only where g_t does.  The caller starts the mean by zeroing U and H.
# The state's counter[0] holds t and counter[1] holds H_t between epochs.
# A score that is not finite (features so large that V . x overflows float64) stops
# the epoch at once; it returns -1 and the caller raises a ValueError.

from patrec._epoch_state cimport EpochState
from patrec._typedefs cimport floating, intp_t
from patrec._training cimport (get_row, visit_row, prefetch_label, class_scores,
                               class_axpy, all_finite, weighted_step, log_correction)


def crammer_singer_epoch(EpochState state, const intp_t[::1] order, double lam,
                         bint averaged):
    """One SGD epoch on the Crammer-Singer objective; return the number of updates
    (-1 when a score overflowed).

    At step t the current weights are W_t = V / (lambda (t - 1)) (zero at t = 1).
    The loss-augmented winner is r* = argmax_{r != y} w_r . x; when
    1 + w_{r*} . x - w_y . x > 0 the hinge is active and V_y += x, V_{r*} -= x.
    Column r of ``Vt`` and ``Ut`` (the state's W and U, shape (n_features + 1,
    n_classes)) belongs to class r.  With sample weights in the state the update is
    s_i x instead of x.  Each update is logged as (position, t, r*, 0).
    """
    if state.single:
        return _crammer_singer_epoch(state.values32, state, order, lam, averaged)
    return _crammer_singer_epoch(state.values64, state, order, lam, averaged)


cdef intp_t _crammer_singer_epoch(const floating[::1] values, EpochState state,
                                  const intp_t[::1] order, double lam,
                                  bint averaged):
    """`crammer_singer_epoch` on rows of one precision."""
    cdef const intp_t[::1] columns = state.columns, row_starts = state.row_starts
    cdef const intp_t[::1] codes = state.codes
    cdef intp_t n_features = state.n_features
    cdef double[:, ::1] Vt = state.W, Ut = state.U
    cdef double[::1] scores = state.scores, counter = state.counter
    cdef const double[::1] sample_weight = state.sample_weight
    cdef intp_t[:, ::1] log = state.log
    cdef intp_t[::1] n_logged = state.n_logged
    cdef intp_t n_classes = Vt.shape[1]
    cdef intp_t p, i, r, y, nnz, winner, updates = 0
    cdef const floating* row_values
    cdef const intp_t* row_columns
    cdef double scale, step, t = counter[0], harmonic = counter[1]
    with nogil:
        for p in range(order.shape[0]):
            i = order[p]
            nnz = visit_row(values, columns, row_starts, n_features, order, p,
                            &row_values, &row_columns)
            prefetch_label(codes, order, p)
            y = codes[i]
            class_scores(&Vt[0, 0], n_classes, row_values, row_columns, nnz,
                         n_features, &scores[0])
            if not all_finite(&scores[0], n_classes):
                updates = -1
                break
            scale = 1.0 / (lam * t) if t > 0 else 0.0
            winner = -1
            for r in range(n_classes):
                if r != y and (winner < 0 or scores[r] > scores[winner]):
                    winner = r
            if 1.0 + scale * (scores[winner] - scores[y]) > 0.0:
                updates += 1
                step = weighted_step(1.0, sample_weight, i)
                log_correction(log, n_logged, p, t, winner, 0)
                class_axpy(step, row_values, row_columns, nnz, n_features, &Vt[0, 0],
                           n_classes, y)
                class_axpy(-step, row_values, row_columns, nnz, n_features, &Vt[0, 0],
                           n_classes, winner)
                if averaged:
                    class_axpy(harmonic * step, row_values, row_columns, nnz,
                               n_features, &Ut[0, 0], n_classes, y)
                    class_axpy(-harmonic * step, row_values, row_columns, nnz,
                               n_features, &Ut[0, 0], n_classes, winner)
            t += 1.0
            harmonic += 1.0 / t
    counter[0] = t
    counter[1] = harmonic
    return updates


def crammer_singer_objective(EpochState state, const double[:, ::1] Wt, double lam):
    """(1/m) sum_i max_r [delta(r != y_i) + w_r . x_i - w_{y_i} . x_i]
    + (lambda / 2) sum_r ||w_r||^2 over the state's rows and codes, with each w_r
    augmented by its bias (column r of ``Wt``).  With sample weights in the state,
    the hinge terms are weighted by s_i and the mean is taken over sum_i s_i
    instead of m.

    Returns ``(objective, wrong)``, ``wrong`` the number of rows (of positive
    weight) whose own class does not score strictly highest.
    """
    if state.single:
        return _crammer_singer_objective(state.values32, state, Wt, lam)
    return _crammer_singer_objective(state.values64, state, Wt, lam)


cdef tuple _crammer_singer_objective(const floating[::1] values, EpochState state,
                                     const double[:, ::1] Wt, double lam):
    """`crammer_singer_objective` on rows of one precision."""
    cdef const intp_t[::1] columns = state.columns, row_starts = state.row_starts
    cdef const intp_t[::1] codes = state.codes
    cdef intp_t n_features = state.n_features
    cdef double[::1] scores = state.scores
    cdef const double[::1] sample_weight = state.sample_weight
    cdef intp_t n_classes = Wt.shape[1], n_samples = codes.shape[0]
    cdef intp_t i, r, j, y, nnz, wrong = 0
    cdef const floating* row_values
    cdef const intp_t* row_columns
    cdef double loss = 0.0, worst, norm = 0.0, total = n_samples
    cdef bint weighted = sample_weight.shape[0] != 0, beaten
    with nogil:
        for i in range(n_samples):
            y = codes[i]
            nnz = get_row(values, columns, row_starts, n_features, i,
                          &row_values, &row_columns)
            class_scores(&Wt[0, 0], n_classes, row_values, row_columns, nnz,
                         n_features, &scores[0])
            worst = 0.0
            beaten = False
            for r in range(n_classes):
                if r != y and 1.0 + scores[r] - scores[y] > worst:
                    worst = 1.0 + scores[r] - scores[y]
                if r != y and scores[r] >= scores[y]:
                    beaten = True
            if beaten and (not weighted or sample_weight[i] > 0):
                wrong += 1
            loss += sample_weight[i] * worst if weighted else worst
        for j in range(n_features + 1):
            for r in range(n_classes):
                norm += Wt[j, r] * Wt[j, r]
        if weighted:
            total = 0.0
            for i in range(n_samples):
                total += sample_weight[i]
    return loss / total + 0.5 * lam * norm, wrong
