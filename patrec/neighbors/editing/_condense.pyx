# Hart's condensing over a growing store (condensing.py holds the algorithm in words
# and drives the passes; _store.py holds the store).
#
# Design
# ------
# Hart's rule asks, for one sample after another, "which stored sample is nearest?"
# while the store grows.  A full distance row per stored sample costs
# O(n_kept * n_samples); here the store lives in a k-d tree whose *shape* is built
# once over all the samples and whose *contents* grow:
#
#   StoreTree      the tree: its shape is the k-d partition of all the samples made
#                  by the branch-and-bound tree's builder (`partition_samples` of
#                  search/tree.py, the median of the widest feature until a node
#                  holds at most `leaf_size` samples): node_start indexes the
#                  permutation `perm`, node_left is the first of two children (-1: a
#                  leaf), parent and leaf_of lead back up.  Its contents: `count`
#                  and the boxes below, and `perm` / `position` as samples move.
#   insert         puts stored samples into the tree: inside its leaf a stored sample
#                  moves to the front (so a leaf scans only stored samples), and every
#                  node on the way to the root counts it and widens its box -- the
#                  bounding box of the node's *stored* samples, not of all its samples.
#   query_batch    nearest stored sample of each sample of a batch (knn_batch: the
#                  k nearest, in the bounded heap of _heap.pxd): depth first,
#                  nearer box first; a node is pruned when the lower bound on the
#                  distance to its box exceeds the best distance found (with a
#                  rounding margin, `grow` and `tiny`, so that a sample at exactly the
#                  best distance is never pruned).  Each sample starts from the best
#                  it already knows (`best`, `best_rank`) and remembers how large the
#                  store was then (`checked`): a sample checked against the current
#                  store is skipped, and one checked earlier prunes almost everything.
#   resolve_batch  the sequential part of Hart's rule within one batch: each sample is
#                  compared with the samples stored earlier in this batch (not yet in
#                  the tree), and moves into the store when its nearest stored sample
#                  has another label.
#
# Nearest means the smallest reduced distance (the shared kernels of _distances.pxd),
# ties to the sample stored first (the lowest rank).  Hence the kept set is exactly
# that of the one-row-per-addition method, whatever the batch size; _store.py runs
# query_batch on ranges of a batch in threads (all kernels release the GIL).
#
# Python validates everything first: C-contiguous prepared data, codes, sample indices
# in range, arrays of matching sizes.
#
# Every loop looks for Ctrl-C every few milliseconds of work (_signals.pxd) and then
# raises KeyboardInterrupt, leaving its arrays part-way: the callers (editing.py) own
# them for one call only and drop them with the exception.

cimport cython
from libc.math cimport INFINITY, pow

from patrec._signals cimport SignalWatch, raise_interrupt, stop_after
from patrec._typedefs cimport floating, intp_t
from patrec.neighbors.search._distances cimport (CHEBYSHEV, CITYBLOCK, MetricKind,
                                                 SQEUCLIDEAN, rdist)
from patrec.neighbors.search._heap cimport heap_init, heap_push, heap_sort

cdef enum:
    STACK_SIZE = 256  # twice the deepest tree (depth <= log2(n) + 1 <= 64)


@cython.auto_pickle(False)  # (a store lives for one call: never pickled)
cdef class StoreTree:
    """The store's k-d tree: its shape over all the samples and its stored contents
    (see the header of this module).  Made by `make_store_tree`; the arrays are the
    store's own, changed in place by `insert`."""

    cdef readonly object data, perm, position, node_start, node_left, parent
    cdef readonly object leaf_of, count, box_low, box_high
    cdef readonly int kind
    cdef readonly double p, grow, tiny


def make_store_tree(*, data, perm, position, node_start, node_left, parent, leaf_of,
                    count, box_low, box_high, int kind, double p, double grow,
                    double tiny):
    """A `StoreTree` holding what it is given (the arrays are not copied)."""
    cdef StoreTree tree = StoreTree.__new__(StoreTree)
    tree.data, tree.perm, tree.position = data, perm, position
    tree.node_start, tree.node_left, tree.parent = node_start, node_left, parent
    tree.leaf_of, tree.count, tree.box_low, tree.box_high = (leaf_of, count, box_low,
                                                             box_high)
    tree.kind, tree.p, tree.grow, tree.tiny = kind, p, grow, tiny
    return tree


def insert(StoreTree tree, const floating[:, ::1] X, const intp_t[::1] samples):
    """Add stored samples to the tree (leaf front, counts and boxes up to the root).
    ``X`` is ``tree.data``: its dtype picks the loop."""
    cdef intp_t[::1] perm = tree.perm
    cdef intp_t[::1] position = tree.position
    cdef const intp_t[::1] node_start = tree.node_start
    cdef const intp_t[::1] parent = tree.parent
    cdef const intp_t[::1] leaf_of = tree.leaf_of
    cdef intp_t[::1] count = tree.count
    cdef floating[:, ::1] box_low = tree.box_low
    cdef floating[:, ::1] box_high = tree.box_high
    cdef intp_t n_features = X.shape[1], s, i, leaf, here, there, other, node, f
    cdef SignalWatch watch
    cdef bint stopped = False
    watch.work = 0
    with nogil:
        for s in range(samples.shape[0]):
            i = samples[s]
            leaf = leaf_of[i]
            here = position[i]
            there = node_start[leaf] + count[leaf]
            other = perm[there]
            perm[there] = i
            perm[here] = other
            position[i] = there
            position[other] = here
            node = leaf
            while node >= 0:
                count[node] += 1
                for f in range(n_features):
                    if X[i, f] < box_low[node, f]:
                        box_low[node, f] = X[i, f]
                    if X[i, f] > box_high[node, f]:
                        box_high[node, f] = X[i, f]
                node = parent[node]
                watch.work += n_features
            if stop_after(&watch, 0):
                stopped = True
                break
    if stopped:
        raise_interrupt()


cdef inline double _box_bound(MetricKind kind, double p, const floating* x,
                              const floating* low, const floating* high,
                              intp_t n_features) noexcept nogil:
    """A lower bound on the reduced distance from x to any point of the box."""
    cdef double gap, total = 0, largest = 0
    cdef intp_t f
    for f in range(n_features):
        if x[f] < low[f]:
            gap = <double> low[f] - <double> x[f]
        elif x[f] > high[f]:
            gap = <double> x[f] - <double> high[f]
        else:
            continue
        if kind == SQEUCLIDEAN:
            total += gap * gap
        elif kind == CITYBLOCK:
            total += gap
        elif gap > largest:
            largest = gap
    if kind == SQEUCLIDEAN or kind == CITYBLOCK:
        return total
    if kind == CHEBYSHEV or largest == 0:
        return largest
    # minkowski, scaled by the largest gap so that no power overflows
    for f in range(n_features):
        if x[f] < low[f]:
            total += pow((<double> low[f] - <double> x[f]) / largest, p)
        elif x[f] > high[f]:
            total += pow((<double> x[f] - <double> high[f]) / largest, p)
    return largest * pow(total, 1.0 / p)


cdef intp_t _search(MetricKind metric, double p, const floating* x,
                    const floating[:, ::1] X, const intp_t[::1] perm,
                    const intp_t[::1] node_start, const intp_t[::1] node_left,
                    const intp_t[::1] count, const floating[:, ::1] box_low,
                    const floating[:, ::1] box_high, const intp_t[::1] rank_of,
                    double grow, double tiny, floating* heap_dist, intp_t* heap_rank,
                    intp_t k) noexcept nogil:
    """Offer every stored sample that could enter the heap of the k best (reduced
    distance, rank) pairs of x; heap_dist[0] is the current k-th best.  Returns the
    number of nodes visited plus distances evaluated (the work, for `stop_after`)."""
    cdef intp_t n_features = X.shape[1], t, node, child, first, top, work = 0
    cdef floating d
    cdef double bound_a, bound_b
    cdef intp_t stack_node[STACK_SIZE]
    cdef double stack_bound[STACK_SIZE]
    stack_node[0] = 0
    stack_bound[0] = _box_bound(metric, p, x, &box_low[0, 0], &box_high[0, 0],
                                n_features)
    top = 1
    while top > 0:
        top -= 1
        node = stack_node[top]
        work += 1 + (count[node] if node_left[node] < 0 else 0)  # a leaf's scan
        # prune: no stored sample of the node can be as near as the k-th best
        if stack_bound[top] > heap_dist[0] * grow + tiny:
            continue
        first = node_left[node]
        if first < 0:  # a leaf: its stored samples come first
            for t in range(node_start[node], node_start[node] + count[node]):
                d = rdist(metric, p, x, &X[perm[t], 0], n_features)
                heap_push(heap_dist, heap_rank, k, d, rank_of[perm[t]])
            continue
        # push the farther child first, so the nearer is searched first
        bound_a = INFINITY
        bound_b = INFINITY
        if count[first] > 0:
            bound_a = _box_bound(metric, p, x, &box_low[first, 0],
                                 &box_high[first, 0], n_features)
        if count[first + 1] > 0:
            bound_b = _box_bound(metric, p, x, &box_low[first + 1, 0],
                                 &box_high[first + 1, 0], n_features)
        child = first
        if bound_b > bound_a:
            child = first + 1
            bound_a, bound_b = bound_b, bound_a
        # now `child` is the farther one, with bound_a; the other has bound_b
        if bound_a != INFINITY:
            stack_node[top] = child
            stack_bound[top] = bound_a
            top += 1
        if bound_b != INFINITY:
            stack_node[top] = 2 * first + 1 - child
            stack_bound[top] = bound_b
            top += 1
    return work


cdef inline intp_t _search_work(intp_t visits, intp_t n_features) noexcept nogil:
    """The work of one `_search` in multiply-adds (as `stop_after` counts them), from
    its nodes visited plus distances evaluated: a visit costs a bound or a distance,
    and some bookkeeping (the stack, the heap) besides."""
    return (visits + 8) * (n_features + 16)


def query_batch(StoreTree tree, const floating[:, ::1] X, const intp_t[::1] samples,
                const intp_t[::1] rank_of, intp_t n_stored, double[::1] best,
                intp_t[::1] best_rank, intp_t[::1] checked):
    """Bring ``best``/``best_rank`` of each sample up to date with the tree's store.

    The tree holds the samples of ranks 0 .. n_stored - 1; ``X`` is ``tree.data``.
    """
    cdef const intp_t[::1] perm = tree.perm
    cdef const intp_t[::1] node_start = tree.node_start
    cdef const intp_t[::1] node_left = tree.node_left
    cdef const intp_t[::1] count = tree.count
    cdef const floating[:, ::1] box_low = tree.box_low
    cdef const floating[:, ::1] box_high = tree.box_high
    cdef MetricKind metric = <MetricKind> tree.kind
    cdef double p = tree.p, grow = tree.grow, tiny = tree.tiny
    cdef intp_t s, i, best_r, work
    cdef floating best_d
    cdef SignalWatch watch
    cdef bint stopped = False
    watch.work = 0
    with nogil:
        for s in range(samples.shape[0]):
            i = samples[s]
            if checked[i] >= n_stored:
                continue
            best_d = <floating> best[i]  # (a value of this dtype, or infinity)
            best_r = best_rank[i]
            work = _search(metric, p, &X[i, 0], X, perm, node_start, node_left, count,
                           box_low, box_high, rank_of, grow, tiny, &best_d, &best_r, 1)
            best[i] = best_d
            best_rank[i] = best_r
            checked[i] = n_stored
            if stop_after(&watch, _search_work(work, X.shape[1])):
                stopped = True
                break
    if stopped:
        raise_interrupt()


def knn_batch(StoreTree tree, const floating[:, ::1] X, const intp_t[::1] samples,
              const intp_t[::1] rank_of, floating[:, ::1] out_dist,
              intp_t[:, ::1] out_rank):
    """The k nearest stored samples (k = out_rank.shape[1]) of each sample, by
    (reduced distance, rank), best first; the store must hold at least k.  ``X`` is
    ``tree.data``."""
    cdef const intp_t[::1] perm = tree.perm
    cdef const intp_t[::1] node_start = tree.node_start
    cdef const intp_t[::1] node_left = tree.node_left
    cdef const intp_t[::1] count = tree.count
    cdef const floating[:, ::1] box_low = tree.box_low
    cdef const floating[:, ::1] box_high = tree.box_high
    cdef MetricKind metric = <MetricKind> tree.kind
    cdef double p = tree.p, grow = tree.grow, tiny = tree.tiny
    cdef intp_t s, k = out_rank.shape[1], work
    cdef SignalWatch watch
    cdef bint stopped = False
    watch.work = 0
    with nogil:
        for s in range(samples.shape[0]):
            heap_init(&out_dist[s, 0], &out_rank[s, 0], k)
            work = _search(metric, p, &X[samples[s], 0], X, perm, node_start,
                           node_left, count, box_low, box_high, rank_of, grow, tiny,
                           &out_dist[s, 0], &out_rank[s, 0], k)
            heap_sort(&out_dist[s, 0], &out_rank[s, 0], k)
            if stop_after(&watch, _search_work(work, X.shape[1])):
                stopped = True
                break
    if stopped:
        raise_interrupt()


def resolve_batch(int kind, double p, const floating[:, ::1] X,
                  const intp_t[::1] codes, const intp_t[::1] samples,
                  double[::1] best, intp_t[::1] best_rank, intp_t[::1] checked,
                  intp_t[::1] store, intp_t[::1] rank_of, intp_t n_stored):
    """Hart's rule over a batch, in order; return the new size of the store.

    ``best``/``best_rank`` of the batch's samples are up to date with the first
    ``n_stored`` stored samples; the samples stored here are compared directly.
    """
    cdef MetricKind metric = <MetricKind> kind
    cdef intp_t n_features = X.shape[1], s, i, r, start = n_stored
    cdef double d
    cdef SignalWatch watch
    cdef bint stopped = False
    watch.work = 0
    with nogil:
        for s in range(samples.shape[0]):
            i = samples[s]
            for r in range(start, n_stored):  # later ranks win only when nearer
                d = rdist(metric, p, &X[i, 0], &X[store[r], 0], n_features)
                if d < best[i]:
                    best[i] = d
                    best_rank[i] = r
            checked[i] = n_stored
            if codes[store[best_rank[i]]] != codes[i]:
                store[n_stored] = i
                rank_of[i] = n_stored
                n_stored += 1
            if stop_after(&watch, (n_stored - start + 1) * n_features):
                stopped = True
                break
    if stopped:
        raise_interrupt()
    return n_stored


def catch_up_batch(int kind, double p, const floating[:, ::1] X,
                   const floating[:, ::1] stored_rows, const intp_t[::1] samples,
                   intp_t n_stored, double[::1] best, intp_t[::1] best_rank,
                   intp_t[::1] checked):
    """`query_batch` without a tree: each sample is compared directly with the
    samples stored since it was last checked (rows ``stored_rows[checked:n_stored]``),
    so no (sample, stored sample) pair is ever measured twice.  Later ranks win only
    when strictly nearer."""
    cdef MetricKind metric = <MetricKind> kind
    cdef intp_t n_features = X.shape[1], s, i, r, work
    cdef double d
    cdef SignalWatch watch
    cdef bint stopped = False
    watch.work = 0
    with nogil:
        for s in range(samples.shape[0]):
            i = samples[s]
            for r in range(checked[i], n_stored):
                d = rdist(metric, p, &X[i, 0], &stored_rows[r, 0], n_features)
                if d < best[i]:
                    best[i] = d
                    best_rank[i] = r
            work = n_stored - checked[i] + 1
            checked[i] = n_stored
            if stop_after(&watch, work * n_features):
                stopped = True
                break
    if stopped:
        raise_interrupt()
