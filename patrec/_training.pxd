# The C side of what the training loops of two chapters share (patrec/_training.py is
# the Python side): row storage, the scoring and update kernels, the correction log.
# `patrec.linear` (perceptron, linear machine, multiclass SVM) and `patrec.piecewise`
# (the piecewise-linear machine) cimport them from here, so neither chapter reaches
# into the other's private modules.
#
# Row storage
# -----------
# A training set reaches the loops as "row storage": three arrays `values`,
# `columns`, `row_starts` in CSR layout.  A dense C-contiguous matrix is passed as its
# flattened values with *empty* `columns` and `row_starts`; then row i is the slice
# values[i * n_features : (i + 1) * n_features] and the column of entry j is j.
# `get_row` hides the difference, so each loop is written once and serves dense
# float32 / float64 matrices and scipy.sparse CSR matrices alike.
#
# The data keep their own precision (`floating`); weights and their running sums are
# always float64, so float32 input is never copied and long sums do not lose digits.
# Each weight vector is augmented: entry n_features holds the bias, whose feature is
# the constant 1.
#
# Sample weights
# --------------
# An epoch loop takes `sample_weight`, empty when the caller gave none: then every
# step is the plain learning rate, computed exactly as without weights.  Otherwise a
# correction on row i is `sample_weight[i]` times as long (`weighted_step`).
#
# The correction log
# ------------------
# When the training history is recorded, an epoch loop writes one row of four
# integers per corrected weight vector into `log` (see `log_correction`); an empty
# `log` records nothing.  Both checks sit on the correction branch only, so a loop
# that records nothing and has no weights runs the very instructions it ran before.

from libc.math cimport isfinite

from patrec._sums cimport dot
from patrec._typedefs cimport floating, intp_t

# Prefetching: the rows are visited in a shuffled order, so each one is a cache miss
# unless it is asked for well before it is used.  `visit_row` asks for the row
# PREFETCH_DISTANCE steps ahead.  GCC treats a function whose only effect is
# __builtin_prefetch as pure and deletes a call to it whose result is unused: that
# is what happened to `prefetch_row` once `get_row` grew too large for it to be
# inlined early (commit a476eae), and the loops lost their prefetching (the linear
# machine ran 1.8 times slower).  `patrec_prefetch_span` therefore holds an empty
# volatile asm statement, which no compiler may remove, so that no function calling
# it counts as pure.
cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define PATREC_PREFETCH(address) __builtin_prefetch(address)
    #define PATREC_ALWAYS_INLINE inline __attribute__((always_inline))
    #define PATREC_KEEP() __asm__ __volatile__("")
    #elif defined(_MSC_VER)
    #define PATREC_PREFETCH(address) ((void)0)
    #define PATREC_ALWAYS_INLINE __forceinline
    #define PATREC_KEEP() ((void)0)
    #else
    #define PATREC_PREFETCH(address) ((void)0)
    #define PATREC_ALWAYS_INLINE inline
    #define PATREC_KEEP() ((void)0)
    #endif
    /* Ask for every 64-byte cache line of the bytes [start, start + size). */
    static PATREC_ALWAYS_INLINE void patrec_prefetch_span(const void* start,
                                                          Py_ssize_t size) {
        const char* line = (const char*) ((size_t) start & ~(size_t) 63);
        const char* end = (const char*) start + size;
        for (; line < end; line += 64) {
            PATREC_PREFETCH(line);
        }
        PATREC_KEEP();
    }
    """
    void PATREC_PREFETCH(const void* address) noexcept nogil
    void patrec_prefetch_span(const void* start, intp_t size) noexcept nogil


# How many steps ahead `visit_row` prefetches a row: far enough for the row to
# arrive from memory while the rows in between are scored.
cdef enum:
    PREFETCH_DISTANCE = 4


cdef inline intp_t get_row(const floating[::1] values, const intp_t[::1] columns,
                           const intp_t[::1] row_starts, intp_t n_features, intp_t i,
                           const floating** row_values,
                           const intp_t** row_columns) noexcept nogil:
    """Point at row i; return its number of stored entries.

    A sparse row without stored entries gets two NULL pointers and 0 (every loop
    reads ``nnz`` entries, so none): a matrix with no stored entries at all has
    empty ``values`` and ``columns``, where even ``&values[0]`` is out of bounds.
    """
    cdef intp_t start
    if row_starts.shape[0] == 0:  # dense: every column stored, columns implicit
        row_values[0] = &values[0] + i * n_features
        row_columns[0] = NULL
        return n_features
    start = row_starts[i]
    if row_starts[i + 1] == start:
        row_values[0] = NULL
        row_columns[0] = NULL
        return 0
    row_values[0] = &values[0] + start
    row_columns[0] = &columns[0] + start
    return row_starts[i + 1] - start


cdef inline void prefetch_row(const floating[::1] values, const intp_t[::1] columns,
                              const intp_t[::1] row_starts, intp_t n_features,
                              intp_t i) noexcept nogil:
    """Ask the CPU to start loading row i (one to be visited soon), one 64-byte
    cache line at a time, while the current row is being scored."""
    cdef const floating* row_values
    cdef const intp_t* row_columns
    cdef intp_t nnz = get_row(values, columns, row_starts, n_features, i,
                              &row_values, &row_columns)
    patrec_prefetch_span(row_values, nnz * <intp_t> sizeof(floating))
    if row_columns != NULL:
        patrec_prefetch_span(row_columns, nnz * <intp_t> sizeof(intp_t))


cdef inline intp_t visit_row(const floating[::1] values, const intp_t[::1] columns,
                             const intp_t[::1] row_starts, intp_t n_features,
                             const intp_t[::1] order, intp_t p,
                             const floating** row_values,
                             const intp_t** row_columns) noexcept nogil:
    """Step p of an epoch: point at row order[p] (as `get_row` does, returning its
    number of stored entries) and prefetch row order[p + PREFETCH_DISTANCE]."""
    if p + PREFETCH_DISTANCE < order.shape[0]:
        prefetch_row(values, columns, row_starts, n_features,
                     order[p + PREFETCH_DISTANCE])
    return get_row(values, columns, row_starts, n_features, order[p], row_values,
                   row_columns)


cdef inline void prefetch_label(const intp_t[::1] codes, const intp_t[::1] order,
                                intp_t p) noexcept nogil:
    """Ask for the label of row order[p + PREFETCH_DISTANCE] (the labels, like the
    rows, are read in a shuffled order)."""
    if p + PREFETCH_DISTANCE < order.shape[0]:
        patrec_prefetch_span(&codes[order[p + PREFETCH_DISTANCE]], sizeof(intp_t))


cdef inline double augmented_dot(const double* w, const floating* row_values,
                                 const intp_t* row_columns, intp_t nnz,
                                 intp_t n_features) noexcept nogil:
    """w . (x, 1): the score of an augmented weight vector on one row."""
    cdef double total = w[n_features]
    cdef intp_t j
    if row_columns == NULL:
        return total + dot(w, row_values, nnz)
    for j in range(nnz):
        total += w[row_columns[j]] * row_values[j]
    return total


cdef inline void augmented_axpy(double step, const floating* row_values,
                                const intp_t* row_columns, intp_t nnz,
                                intp_t n_features, double* w) noexcept nogil:
    """w += step * (x, 1): move an augmented weight vector along one row."""
    cdef intp_t j
    w[n_features] += step
    if row_columns == NULL:
        for j in range(nnz):
            w[j] += step * row_values[j]
    else:
        for j in range(nnz):
            w[row_columns[j]] += step * row_values[j]


# The multiclass loops keep the k augmented weight vectors as the columns of a
# (n_features + 1) x k matrix Wt, C-ordered: the k weights of feature j are adjacent.
# Scoring a row then streams through Wt once, adding x_j times a contiguous run of k
# weights to the k scores, which the compiler turns into vector instructions.

cdef inline void class_scores(const double* Wt, intp_t n_classes,
                              const floating* row_values, const intp_t* row_columns,
                              intp_t nnz, intp_t n_features,
                              double* scores) noexcept nogil:
    """scores[r] = w_r . (x, 1) for every class r.

    Four stored entries are folded in per sweep over the k scores, so the scores are
    loaded and stored a quarter as often.
    """
    cdef intp_t j = 0, r
    cdef const double* w0 = Wt + n_features * n_classes  # the biases
    cdef const double* w1
    cdef const double* w2
    cdef const double* w3
    cdef double x0, x1, x2, x3
    for r in range(n_classes):
        scores[r] = w0[r]
    while j + 4 <= nnz:
        if row_columns == NULL:
            w0 = Wt + j * n_classes
            w1 = w0 + n_classes
            w2 = w1 + n_classes
            w3 = w2 + n_classes
        else:
            w0 = Wt + row_columns[j] * n_classes
            w1 = Wt + row_columns[j + 1] * n_classes
            w2 = Wt + row_columns[j + 2] * n_classes
            w3 = Wt + row_columns[j + 3] * n_classes
        x0 = row_values[j]
        x1 = row_values[j + 1]
        x2 = row_values[j + 2]
        x3 = row_values[j + 3]
        for r in range(n_classes):
            scores[r] += (w0[r] * x0 + w1[r] * x1) + (w2[r] * x2 + w3[r] * x3)
        j += 4
    while j < nnz:
        w0 = Wt + (j if row_columns == NULL else row_columns[j]) * n_classes
        x0 = row_values[j]
        for r in range(n_classes):
            scores[r] += w0[r] * x0
        j += 1


cdef inline void class_axpy(double step, const floating* row_values,
                            const intp_t* row_columns, intp_t nnz, intp_t n_features,
                            double* Wt, intp_t n_classes, intp_t r) noexcept nogil:
    """w_r += step * (x, 1): move the weight vector of class r along one row."""
    cdef intp_t j, column
    Wt[n_features * n_classes + r] += step
    for j in range(nnz):
        column = j if row_columns == NULL else row_columns[j]
        Wt[column * n_classes + r] += step * row_values[j]


cdef inline void class_move(double[:, ::1] Wt, double[:, ::1] Ut, intp_t r,
                            double step, double count, bint averaged,
                            const floating* row_values, const intp_t* row_columns,
                            intp_t nnz, intp_t n_features) noexcept nogil:
    """w_r += step * (x, 1), and with averaging the running sum u_r += count * step * x.

    ``Wt`` and ``Ut`` hold the weights class-minor (see `class_axpy`); the averaged
    weights are recovered from them at the end of training.
    """
    class_axpy(step, row_values, row_columns, nnz, n_features, &Wt[0, 0],
               Wt.shape[1], r)
    if averaged:
        class_axpy(step * count, row_values, row_columns, nnz, n_features, &Ut[0, 0],
                   Ut.shape[1], r)


cdef inline bint all_finite(const double* scores, intp_t n) noexcept nogil:
    """Are scores[0 .. n - 1] all finite?  (An overflow of w . x gives inf or NaN.)"""
    cdef intp_t r
    for r in range(n):
        if not isfinite(scores[r]):
            return False
    return True


cdef inline double weighted_step(double rate, const double[::1] sample_weight,
                                 intp_t i) noexcept nogil:
    """The step of a correction on row i: ``rate``, times the row's weight if any."""
    if sample_weight.shape[0] == 0:
        return rate
    return rate * sample_weight[i]


cdef inline void log_correction(intp_t[:, ::1] log, intp_t[::1] n_logged,
                                intp_t position, double steps_before, intp_t a,
                                intp_t b) noexcept nogil:
    """Append (position in the epoch's order, step number t, a, b) to the log.

    t = steps_before + 1 counts the rows visited so far in the run, this one
    included; ``a`` and ``b`` say which weight vectors the correction moved (their
    meaning is the loop's, see each loop's docstring).  Nothing happens when ``log``
    is empty (the history is not recorded); the caller sizes a non-empty log for the
    most rows an epoch can write.
    """
    cdef intp_t row
    if log.shape[0] == 0:
        return
    row = n_logged[0]
    log[row, 0] = position
    log[row, 1] = <intp_t> steps_before + 1
    log[row, 2] = a
    log[row, 3] = b
    n_logged[0] = row + 1
