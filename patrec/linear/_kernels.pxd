# Row kernels shared by the training loops of patrec.linear.
#
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

from patrec._typedefs cimport floating, intp_t


cdef inline intp_t get_row(const floating[::1] values, const intp_t[::1] columns,
                           const intp_t[::1] row_starts, intp_t n_features, intp_t i,
                           const floating** row_values,
                           const intp_t** row_columns) noexcept nogil:
    """Point at row i; return its number of stored entries."""
    cdef intp_t start
    if row_starts.shape[0] == 0:  # dense: every column stored, columns implicit
        row_values[0] = &values[0] + i * n_features
        row_columns[0] = NULL
        return n_features
    start = row_starts[i]
    row_values[0] = &values[0] + start
    row_columns[0] = &columns[0] + start
    return row_starts[i + 1] - start


cdef inline double augmented_dot(const double* w, const floating* row_values,
                                 const intp_t* row_columns, intp_t nnz,
                                 intp_t n_features) noexcept nogil:
    """w . (x, 1): the score of an augmented weight vector on one row."""
    cdef double total = w[n_features]
    cdef intp_t j
    if row_columns == NULL:
        for j in range(nnz):
            total += w[j] * row_values[j]
    else:
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
