# The median cut of the k-d builders: Hoare's quickselect on one feature.
#
# Both k-d trees (the branch-and-bound tree's, _bnb_build.pyx, and the condensing
# store's, editing/_condense.pyx) cut a node at the median of its widest feature.
# The branch-and-bound tree moves the rows themselves (the tree keeps its samples in
# tree order); the store only permutes an index array over rows that stay put.  One
# kernel serves both: with `move_rows` the rows move with `order`, without it row i
# of the node is rows[order[i]] and only `order` moves.  Inline, so each call site,
# whose `move_rows` is a constant, compiles to its own branch-free loop.

from patrec._typedefs cimport floating, intp_t


cdef inline floating _key(const floating* rows, const intp_t* order, intp_t i,
                          intp_t dim, intp_t n_features, bint move_rows) noexcept nogil:
    if move_rows:
        return rows[i * n_features + dim]
    return rows[order[i] * n_features + dim]


cdef inline void _swap(floating* rows, intp_t* order, intp_t a, intp_t b,
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
    would hold sorted, no row before it a larger one, none after it a smaller one
    (Hoare's quickselect, pivot the median of three).  Without ``move_rows``,
    ``rows`` is only read."""
    cdef intp_t i, j, mid
    cdef floating pivot, a, b, c
    hi -= 1
    while hi > lo:
        mid = lo + (hi - lo) // 2
        a = _key(rows, order, lo, dim, n_features, move_rows)
        b = _key(rows, order, mid, dim, n_features, move_rows)
        c = _key(rows, order, hi, dim, n_features, move_rows)
        pivot = max(min(a, b), min(max(a, b), c))  # the median of the three
        i, j = lo, hi
        while i <= j:
            while _key(rows, order, i, dim, n_features, move_rows) < pivot:
                i += 1
            while _key(rows, order, j, dim, n_features, move_rows) > pivot:
                j -= 1
            if i <= j:
                _swap(rows, order, i, j, n_features, move_rows)
                i += 1
                j -= 1
        # now rows lo..j are <= pivot, rows i..hi are >= pivot, rows j+1..i-1 == pivot
        if nth <= j:
            hi = j
        elif nth >= i:
            lo = i
        else:
            return
