# The k best candidates of one query, kept in a bounded max-heap (or a sorted list).
#
# Shared by the brute-force search (_brute.pyx) and the branch-and-bound tree
# (_bnb_tree.pyx), so that both order neighbours by exactly the same rule:
#
#     candidate (d, i) is better than (d', i')  <=>  d < d'  or  (d == d' and i < i')
#
# that is, by reduced distance and, for equal distances, by the lower training index.
# The heap holds the k best candidates seen so far in two parallel arrays (reduced
# distance, training index); slot 0 is the worst of them, the current k-th best.
# Before any push every slot holds (+inf, NO_INDEX), so the first k candidates always
# enter.  heap_push is O(log k); heap_sort turns the heap into the ascending list of
# neighbours in O(k log k); heap_make + heap_sort sort any candidate list.
#
# For small k a sorted list is cheaper (Knuth's "straight insertion"): the same slots
# in descending order, slot 0 still the worst, so everything reading slot 0 works on
# both.  list_push moves a candidate in from slot 0 past the worse ones, O(k) but
# usually a few steps (late candidates are rarely much better than the k-th best);
# the list needs no sorting at the end, only reading backwards (list_copy_ascending).
# Everything is inline, `noexcept nogil` and allocation free.

from patrec._typedefs cimport floating, intp_t

cdef extern from "Python.h":
    # The index of an empty slot: after every training index, so a real candidate
    # at distance +inf still wins over it.
    const intp_t NO_INDEX "PY_SSIZE_T_MAX"


cdef inline bint heap_better(floating d, intp_t i, floating d2, intp_t i2) noexcept nogil:
    """Is (d, i) before (d2, i2) in the neighbour order?"""
    return d < d2 or (d == d2 and i < i2)


cdef inline void heap_init(floating* dist, intp_t* idx, intp_t size) noexcept nogil:
    cdef intp_t j
    for j in range(size):
        dist[j] = <floating> (1.0 / 0.0)
        idx[j] = NO_INDEX


cdef inline void _sift_down(floating* dist, intp_t* idx, intp_t start,
                            intp_t size) noexcept nogil:
    """Move the candidate at ``start`` down until both its children are better."""
    cdef intp_t parent = start, child, right
    cdef floating d = dist[start]
    cdef intp_t i = idx[start]
    while True:
        child = 2 * parent + 1
        if child >= size:
            break
        right = child + 1
        if right < size and heap_better(dist[child], idx[child], dist[right], idx[right]):
            child = right  # the worse of the two children
        if heap_better(dist[child], idx[child], d, i):
            break
        dist[parent] = dist[child]
        idx[parent] = idx[child]
        parent = child
    dist[parent] = d
    idx[parent] = i


cdef inline bint heap_push(floating* dist, intp_t* idx, intp_t size, floating d,
                           intp_t i) noexcept nogil:
    """Offer candidate (d, i); return True when it entered the heap."""
    if not heap_better(d, i, dist[0], idx[0]):
        return False
    # (d, i) replaces the worst candidate at the root and sinks to its place.
    dist[0] = d
    idx[0] = i
    _sift_down(dist, idx, 0, size)
    return True


cdef inline void heap_sort(floating* dist, intp_t* idx, intp_t size) noexcept nogil:
    """Sort a heap in place into ascending neighbour order (best first)."""
    cdef intp_t end, i_tmp
    cdef floating d_tmp
    end = size - 1
    while end > 0:
        d_tmp = dist[0]
        dist[0] = dist[end]
        dist[end] = d_tmp
        i_tmp = idx[0]
        idx[0] = idx[end]
        idx[end] = i_tmp
        _sift_down(dist, idx, 0, end)
        end -= 1


cdef inline void heap_make(floating* dist, intp_t* idx, intp_t size) noexcept nogil:
    """Arrange any array of candidates into a heap (worst first), in O(size)."""
    cdef intp_t start = size // 2 - 1
    while start >= 0:
        _sift_down(dist, idx, start, size)
        start -= 1


cdef inline bint list_push(floating* dist, intp_t* idx, intp_t size, floating d,
                           intp_t i) noexcept nogil:
    """Offer candidate (d, i) to a descending list; return True when it entered."""
    cdef intp_t j = 0
    if not heap_better(d, i, dist[0], idx[0]):
        return False
    # the worst candidate at slot 0 leaves; the worse ones move one slot left
    while j + 1 < size and heap_better(d, i, dist[j + 1], idx[j + 1]):
        dist[j] = dist[j + 1]
        idx[j] = idx[j + 1]
        j += 1
    dist[j] = d
    idx[j] = i
    return True


cdef inline void list_copy_ascending(const floating* dist, const intp_t* idx,
                                     intp_t size, floating* out_dist,
                                     intp_t* out_idx) noexcept nogil:
    """Write a descending list to ``out_*`` in ascending neighbour order."""
    cdef intp_t j
    for j in range(size):
        out_dist[j] = dist[size - 1 - j]
        out_idx[j] = idx[size - 1 - j]
