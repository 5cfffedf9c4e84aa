# The median cut of the k-d builders: Floyd and Rivest's selection on one feature.
#
# Both k-d trees (the branch-and-bound tree's and, through the same builder, the
# condensing store's) cut a node at the median of its widest feature
# (_bnb_build.pyx).  The tree moves the rows themselves (it keeps its samples in tree
# order); with `move_rows` false only an index array `order` over rows that stay put
# would move, row i of the node being rows[order[i]].  Inline, so each call site,
# whose `move_rows` is a constant, compiles to its own branch-free loop.
#
# Where the time goes (1 000 000 rows): the selection's partitions, done a block of
# rows at a time (_partition) so that no branch waits on a comparison of the data,
# and, once rows are 128 bytes or more, the memory traffic of the levels whose nodes
# do not fit in the cache: each pass over a node reads every row's cache line, so
# the selection hands its caller (`settled`) what it learnt about the rows equal to
# the median, sparing the caller a pass of its own.

from libc.math cimport exp, log, sqrt

from patrec._typedefs cimport floating, intp_t

cdef enum:
    SAMPLED_RANGE = 600  # above this many rows, the pivot is selected in a window first
    BLOCK = 16  # rows whose comparisons are noted before any is moved (_partition)


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


cdef inline intp_t _partition(floating* rows, intp_t* order, intp_t left,
                              intp_t right, intp_t chosen, intp_t dim,
                              intp_t n_features, bint move_rows,
                              floating* extremes) noexcept nogil:
    """Partition rows left .. right around the value v of feature ``dim`` of row
    ``chosen``: return j, the row then holding v, with no row before it above v and
    none after it below v.  With ``extremes`` (else NULL), the smallest and the largest
    value of the rows go to extremes[0] and extremes[1].

    Hoare's partition (a row equal to v is moved from either side, so equal values
    spread evenly), its scans done a block at a time (Edelkamp and Weiss's
    BlockQuicksort): the positions of up to BLOCK rows to move are noted, the
    comparison's result added to a count rather than branched on, then moved in
    pairs.  The scans do not branch on the data, whose order no branch predictor
    can guess; a range too small for two blocks is scanned row by row."""
    cdef unsigned char ahead[BLOCK]  # (positions from i up, then from k down)
    cdef unsigned char behind[BLOCK]
    cdef intp_t i = left + 1, k = right, t, q, n_ahead = 0, n_behind = 0
    cdef intp_t first_ahead = 0, first_behind = 0, pairs
    cdef floating pivot = _key(rows, order, chosen, dim, n_features, move_rows)
    cdef floating key, smallest = pivot, largest = pivot
    cdef bint extreme = extremes != NULL
    swap_rows(rows, order, left, chosen, n_features, move_rows)  # (v waits at left)
    # rows left+1 .. i-1 are at most v, rows k+1 .. right at least v; every row
    # outside i .. k has been looked at (for the extremes)
    while k - i + 1 >= 2 * BLOCK:
        if n_ahead == 0:
            first_ahead = 0
            for t in range(BLOCK):
                key = _key(rows, order, i + t, dim, n_features, move_rows)
                if extreme:
                    smallest = min(smallest, key)
                    largest = max(largest, key)
                ahead[n_ahead] = <unsigned char> t
                n_ahead += key >= pivot
        if n_behind == 0:
            first_behind = 0
            for t in range(BLOCK):
                key = _key(rows, order, k - t, dim, n_features, move_rows)
                if extreme:
                    smallest = min(smallest, key)
                    largest = max(largest, key)
                behind[n_behind] = <unsigned char> t
                n_behind += key <= pivot
        pairs = min(n_ahead, n_behind)
        for q in range(pairs):
            swap_rows(rows, order, i + ahead[first_ahead + q],
                      k - behind[first_behind + q], n_features, move_rows)
        n_ahead -= pairs
        n_behind -= pairs
        first_ahead += pairs
        first_behind += pairs
        if n_ahead == 0:
            i += BLOCK
        if n_behind == 0:
            k -= BLOCK
    # the rest (under two blocks, one of them perhaps half done) row by row
    if extreme:
        for t in range(i, k + 1):
            key = _key(rows, order, t, dim, n_features, move_rows)
            smallest = min(smallest, key)
            largest = max(largest, key)
        extremes[0], extremes[1] = smallest, largest
    while True:
        while i <= k and _key(rows, order, i, dim, n_features, move_rows) < pivot:
            i += 1
        while i <= k and _key(rows, order, k, dim, n_features, move_rows) > pivot:
            k -= 1
        if i >= k:
            break
        swap_rows(rows, order, i, k, n_features, move_rows)
        i += 1
        k -= 1
    # rows left+1 .. k are at most v (k is i-1, or i holding v), the others at least
    swap_rows(rows, order, left, k, n_features, move_rows)
    return k


cdef inline intp_t _draw(unsigned long long* state, intp_t size) noexcept nogil:
    """A pseudo-random number in 0 .. size-1 (size < 2**32; xorshift64*)."""
    cdef unsigned long long x = state[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    state[0] = x
    return <intp_t> ((((x * 2685821657736338717ULL) >> 32) * <unsigned long long> size)
                     >> 32)


cdef inline intp_t _median_of_three(const floating* rows, const intp_t* order,
                                    intp_t a, intp_t b, intp_t c, intp_t dim,
                                    intp_t n_features, bint move_rows) noexcept nogil:
    """Of rows a, b and c, the one whose value of feature ``dim`` is the median of
    the three."""
    cdef floating x = _key(rows, order, a, dim, n_features, move_rows)
    cdef floating y = _key(rows, order, b, dim, n_features, move_rows)
    cdef floating z = _key(rows, order, c, dim, n_features, move_rows)
    if (x <= y) == (y <= z):
        return b
    if (y <= x) == (x <= z):
        return a
    return c


cdef inline void select_nth(floating* rows, intp_t* order, intp_t lo, intp_t hi,
                            intp_t nth, intp_t dim, intp_t n_features,
                            bint move_rows, floating* extremes=NULL,
                            intp_t* settled=NULL) noexcept nogil:
    """Reorder rows lo .. hi-1 so that row nth holds the value of feature ``dim`` it
    would hold sorted, no row before it a larger one, none after it a smaller one.
    Without ``move_rows``, ``rows`` is only read.

    With ``extremes`` and ``settled`` (else NULL), what the partitions learnt on
    the way, so that a caller looking for the rows equal to v = the value at nth
    need not read them all again: extremes[0] and extremes[1] receive the
    smallest and the largest value of the rows; rows lo .. settled[0]-1 are below
    v, the largest of them extremes[2] (when there are any), and rows
    settled[1]+1 .. hi-1 are above v, the smallest of them extremes[3].

    Floyd and Rivest's SELECT: on a range of more than SAMPLED_RANGE rows, the
    pivot is first selected among a small window of rows around ``nth`` (of about
    n^(2/3) rows, placed so that it most likely brackets the answer), so the one
    partition of the whole range that follows leaves little around ``nth``: about
    1.5 n comparisons for a median, where a median-of-three quickselect averages
    2.75 n.  On a smaller range the pivot is the median of three rows drawn
    pseudo-randomly (seeded by ``lo``, so a build is repeatable): a fixed choice
    such as the first, middle and last row can be fooled by the order earlier
    partitions leave.  Any order of the rows gives the right answer; the window
    only makes it fast on rows in no particular order.

    Each partition leaves the rows on one side of its pivot's value p behind for
    good: those before it (at most p, at most v), or those after it (at least p,
    at least v).  The values p left behind below only grow, and the rows left
    behind below a p < v are all below v; the last such p is their largest.
    Likewise above."""
    cdef intp_t j, left = lo, right = hi - 1, size, rank, start, stop, pivot
    cdef unsigned long long state = <unsigned long long> (lo * 2 + 1) * 0x9E3779B97F4A7C15ULL
    cdef double log_size, part, spread
    cdef floating p, value
    # rows lo .. under_end-1 are at most under (the last p left behind below),
    # rows lo .. below_end-1 at most below < under (the one before it that was
    # smaller); likewise above, mirrored
    cdef intp_t under_end = lo, below_end = lo, over_start = hi - 1
    cdef intp_t above_start = hi - 1
    cdef floating under = 0, below = 0, over = 0, above = 0
    if extremes != NULL and hi - lo == 1:
        extremes[0] = extremes[1] = _key(rows, order, lo, dim, n_features, move_rows)
    while right > left:
        size = right - left + 1
        if size > SAMPLED_RANGE:
            rank = nth - left + 1
            log_size = log(<double> size)
            part = 0.5 * exp(2.0 * log_size / 3.0)
            spread = 0.5 * sqrt(log_size * part * (size - part) / size)
            if rank < size // 2:
                spread = -spread
            start = max(left, <intp_t> (nth - rank * part / size + spread))
            stop = min(right, <intp_t> (nth + (size - rank) * part / size + spread))
            select_nth(rows, order, start, stop + 1, nth, dim, n_features, move_rows)
            pivot = nth
        else:
            # (the median of three rows drawn pseudo-randomly: see above)
            pivot = _median_of_three(rows, order, left + _draw(&state, size),
                                     left + _draw(&state, size),
                                     left + _draw(&state, size), dim, n_features,
                                     move_rows)
        # (the first partition covers all the rows: it measures their extremes)
        j = _partition(rows, order, left, right, pivot, dim, n_features, move_rows,
                       extremes if left == lo and right == hi - 1 else NULL)
        p = _key(rows, order, j, dim, n_features, move_rows)
        # the pivot's value is at j, every row before it no larger, none after smaller
        if j <= nth:
            left = j + 1
            if under_end > lo and p > under:
                below_end, below = under_end, under
            under_end, under = left, p
        if nth <= j:
            right = j - 1
            if over_start < hi - 1 and p < over:
                above_start, above = over_start, over
            over_start, over = right, p
    if settled == NULL:
        return
    value = _key(rows, order, nth, dim, n_features, move_rows)
    if under_end > lo and under < value:
        below_end, below = under_end, under
    if over_start < hi - 1 and over > value:
        above_start, above = over_start, over
    settled[0], settled[1] = below_end, above_start
    extremes[2], extremes[3] = below, above
