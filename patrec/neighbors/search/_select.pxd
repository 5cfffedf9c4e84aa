# The median cut of the k-d builders: Floyd and Rivest's selection on one feature.
#
# Both k-d trees (the branch-and-bound tree's and, through the same builder, the
# condensing store's) cut a node at the median of its widest feature
# (_bnb_build.pyx).  The tree moves the rows themselves (it keeps its samples in tree
# order); with `move_rows` false only an index array `order` over rows that stay put
# would move, row i of the node being rows[order[i]].  Inline, so each call site,
# whose `move_rows` is a constant, compiles to its own branch-free loop.

from libc.math cimport exp, log, sqrt

from patrec._typedefs cimport floating, intp_t

cdef enum:
    SAMPLED_RANGE = 600  # from this size on, the pivot is selected in a window first


cdef inline floating _key(const floating* rows, const intp_t* order, intp_t i,
                          intp_t dim, intp_t n_features, bint move_rows) noexcept nogil:
    if move_rows:
        return rows[i * n_features + dim]
    return rows[order[i] * n_features + dim]


cdef inline void swap_rows(floating* rows, intp_t* order, intp_t a, intp_t b,
                           intp_t n_features, bint move_rows) noexcept nogil:
    cdef intp_t j, t
    cdef floating v
    if move_rows:
        for j in range(n_features):
            v = rows[a * n_features + j]
            rows[a * n_features + j] = rows[b * n_features + j]
            rows[b * n_features + j] = v
    t = order[a]
    order[a] = order[b]
    order[b] = t


cdef inline void select_nth(floating* rows, intp_t* order, intp_t lo, intp_t hi,
                            intp_t nth, intp_t dim, intp_t n_features,
                            bint move_rows) noexcept nogil:
    """Reorder rows lo .. hi-1 so that row nth holds the value of feature ``dim`` it
    would hold sorted, no row before it a larger one, none after it a smaller one.
    Without ``move_rows``, ``rows`` is only read.

    Floyd and Rivest's SELECT: on a range of more than SAMPLED_RANGE rows, the
    pivot is first selected among a small window of rows around ``nth`` (of about
    n^(2/3) rows, placed so that it most likely brackets the answer), so the one
    partition of the whole range that follows leaves little around ``nth``: about
    1.5 n comparisons for a median, where a median-of-three quickselect averages
    2.75 n.  Any order of the rows gives the right answer; the window only makes it
    fast on rows in no particular order."""
    cdef intp_t i, j, left = lo, right = hi - 1, size, rank, start, stop
    cdef double log_size, part, spread
    cdef floating pivot
    while right > left:
        if right - left > SAMPLED_RANGE:
            size = right - left + 1
            rank = nth - left + 1
            log_size = log(<double> size)
            part = 0.5 * exp(2.0 * log_size / 3.0)
            spread = 0.5 * sqrt(log_size * part * (size - part) / size)
            if rank < size // 2:
                spread = -spread
            start = max(left, <intp_t> (nth - rank * part / size + spread))
            stop = min(right, <intp_t> (nth + (size - rank) * part / size + spread))
            select_nth(rows, order, start, stop + 1, nth, dim, n_features, move_rows)
        # partition left .. right around the value now at nth
        pivot = _key(rows, order, nth, dim, n_features, move_rows)
        swap_rows(rows, order, left, nth, n_features, move_rows)
        if _key(rows, order, right, dim, n_features, move_rows) > pivot:
            swap_rows(rows, order, right, left, n_features, move_rows)
        i, j = left, right
        while i < j:
            swap_rows(rows, order, i, j, n_features, move_rows)
            i += 1
            j -= 1
            while _key(rows, order, i, dim, n_features, move_rows) < pivot:
                i += 1
            while _key(rows, order, j, dim, n_features, move_rows) > pivot:
                j -= 1
        if _key(rows, order, left, dim, n_features, move_rows) == pivot:
            swap_rows(rows, order, left, j, n_features, move_rows)
        else:
            j += 1
            swap_rows(rows, order, j, right, n_features, move_rows)
        # the pivot's value is at j, every row before it no larger, none after smaller
        if j <= nth:
            left = j + 1
        if nth <= j:
            right = j - 1
