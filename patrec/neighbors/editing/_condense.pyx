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
#   the tree       its shape is the k-d partition of all the samples made
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
# The store's C view: `Store` binds, once, pointers into the arrays of a
# `GrowingStore` (_store.py) -- the data, the stored samples by rank and their rows,
# each sample's best so far, and the tree's arrays when it has one -- with the
# metric and the pruning margins (`StoreView`, as `SearchTree` binds its `Tree` in
# search/_bnb_tree.pyx).  Every loop below takes that one object, the samples it
# works on and its own few values; the arrays are changed in place, never replaced,
# so the view stays valid for the store's life.
#
# Python validates everything first: C-contiguous prepared data, codes, sample indices
# in range, arrays of matching sizes; `Store` checks the arrays' dtypes and layout.
#
# Every loop looks for Ctrl-C every few milliseconds of work (_signals.pxd) and then
# raises KeyboardInterrupt, leaving its arrays part-way: the callers (editing.py) own
# them for one call only and drop them with the exception.

cimport cython
from libc.math cimport INFINITY, pow

import numpy as np

from patrec._signals cimport SignalWatch, raise_interrupt, stop_after
from patrec._typedefs cimport floating, intp_t
from patrec.neighbors.search._distances cimport (CHEBYSHEV, CITYBLOCK, MetricKind,
                                                 SQEUCLIDEAN, rdist)
from patrec.neighbors.search._heap cimport heap_init, heap_push, heap_sort

cdef enum:
    STACK_SIZE = 256  # twice the deepest tree (depth <= log2(n) + 1 <= 64)


cdef struct StoreView:
    # the C view of a GrowingStore that the loops take: pointers into its arrays
    # (which `Store` keeps alive), set once when the store is made
    const void* data        # the samples, float32 or float64 (itemsize), row-major
    const void* stored_rows  # the rows of the stored samples, by rank
    intp_t* store           # the sample of each rank
    intp_t* rank_of         # the rank of each stored sample
    double* best            # per sample: the reduced distance to its nearest stored
    intp_t* best_rank       # ... the rank of that sample
    intp_t* checked         # ... and the store's size when it was last searched
    # the k-d tree (NULL without one): its shape, then its stored contents
    const intp_t* node_start
    const intp_t* node_left
    const intp_t* parent
    const intp_t* leaf_of
    intp_t* perm
    intp_t* position
    intp_t* count
    void* box_low           # (the data's dtype)
    void* box_high
    intp_t itemsize
    intp_t n_features
    MetricKind kind
    double p
    double grow
    double tiny


_STORE_ARRAYS = {"stored_rows": None, "store": np.intp, "rank_of": np.intp,
                 "best": np.float64, "best_rank": np.intp, "checked": np.intp}
_TREE_ARRAYS = {"node_start": np.intp, "node_left": np.intp, "parent": np.intp,
                "leaf_of": np.intp, "perm": np.intp, "position": np.intp,
                "count": np.intp, "box_low": None, "box_high": None}


@cython.auto_pickle(False)  # (a store lives for one call: never pickled)
cdef class Store:
    """The C view of a `GrowingStore` (see the header of this module), bound once.

    ``Store(owner)`` reads the arrays of ``owner`` (``data``, ``stored_rows``,
    ``store``, ``rank_of``, ``best``, ``best_rank``, ``checked``), its
    ``metric.kind`` and ``metric.p``, and its ``tree``: None, or an object with the
    tree's arrays (``node_start``, ``node_left``, ``parent``, ``leaf_of``, ``perm``,
    ``position``, ``count``, ``box_low``, ``box_high``) and its pruning margins
    ``grow`` and ``tiny``.  The arrays are not copied: the loops change them in
    place, and they must never be replaced.
    """

    cdef object arrays  # what the view points into, kept alive
    cdef StoreView view

    def __init__(self, owner):
        cdef StoreView* view = &self.view
        data, tree = owner.data, owner.tree
        if data.dtype not in (np.float32, np.float64):
            raise TypeError("the store's data must be float32 or float64")
        arrays = {"data": data}
        arrays.update({name: getattr(owner, name) for name in _STORE_ARRAYS})
        if tree is not None:
            arrays.update({name: getattr(tree, name) for name in _TREE_ARRAYS})
        for name, array in arrays.items():
            dtype = {**_STORE_ARRAYS, **_TREE_ARRAYS}.get(name) or data.dtype
            if array.dtype != dtype or not array.flags.c_contiguous:
                raise TypeError(f"the store's {name} must be C-contiguous {dtype}")
        self.arrays = arrays
        view.data = _address(data)
        view.stored_rows = _address(arrays["stored_rows"])
        view.store = <intp_t*> _address(arrays["store"])
        view.rank_of = <intp_t*> _address(arrays["rank_of"])
        view.best = <double*> _address(arrays["best"])
        view.best_rank = <intp_t*> _address(arrays["best_rank"])
        view.checked = <intp_t*> _address(arrays["checked"])
        view.node_start = <const intp_t*> _address(arrays.get("node_start"))
        view.node_left = <const intp_t*> _address(arrays.get("node_left"))
        view.parent = <const intp_t*> _address(arrays.get("parent"))
        view.leaf_of = <const intp_t*> _address(arrays.get("leaf_of"))
        view.perm = <intp_t*> _address(arrays.get("perm"))
        view.position = <intp_t*> _address(arrays.get("position"))
        view.count = <intp_t*> _address(arrays.get("count"))
        view.box_low = _address(arrays.get("box_low"))
        view.box_high = _address(arrays.get("box_high"))
        view.itemsize = data.dtype.itemsize
        view.n_features = data.shape[1]
        view.kind = <MetricKind> owner.metric.kind
        view.p = owner.metric.p
        view.grow = tree.grow if tree is not None else 1.0
        view.tiny = tree.tiny if tree is not None else 0.0


cdef void* _address(array):
    """Where a C-contiguous array's data start (NULL for None)."""
    if array is None:
        return NULL
    return <void*> <size_t> array.__array_interface__["data"][0]


cdef const StoreView* _tree_view(Store store) except NULL:
    """The store's view, which must have a tree."""
    if store.view.count == NULL:
        raise ValueError("this store has no tree")
    return &store.view


def insert(Store store, const intp_t[::1] samples):
    """Add stored samples to the tree (leaf front, counts and boxes up to the
    root)."""
    cdef const StoreView* view = _tree_view(store)
    if view.itemsize == sizeof(float):
        _insert(<float*> view.box_low, view, samples)
    else:
        _insert(<double*> view.box_low, view, samples)


cdef void _insert(floating* box_low, const StoreView* view,
                  const intp_t[::1] samples) except *:
    """`insert` for the data of one dtype (that of ``box_low``, the view's)."""
    cdef const floating* X = <const floating*> view.data
    cdef floating* box_high = <floating*> view.box_high
    cdef intp_t* perm = view.perm
    cdef intp_t* position = view.position
    cdef const intp_t* node_start = view.node_start
    cdef const intp_t* parent = view.parent
    cdef const intp_t* leaf_of = view.leaf_of
    cdef intp_t* count = view.count
    cdef intp_t n_features = view.n_features, s, i, leaf, here, there, other, node, f
    cdef const floating* x
    cdef floating* low
    cdef floating* high
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
            x = X + i * n_features
            while node >= 0:
                count[node] += 1
                low = box_low + node * n_features
                high = box_high + node * n_features
                for f in range(n_features):
                    if x[f] < low[f]:
                        low[f] = x[f]
                    if x[f] > high[f]:
                        high[f] = x[f]
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


cdef intp_t _search(const StoreView* view, const floating* x, floating* heap_dist,
                    intp_t* heap_rank, intp_t k) noexcept nogil:
    """Offer every stored sample that could enter the heap of the k best (reduced
    distance, rank) pairs of x; heap_dist[0] is the current k-th best.  Returns the
    number of nodes visited plus distances evaluated (the work, for `stop_after`)."""
    cdef const floating* X = <const floating*> view.data
    cdef const floating* box_low = <const floating*> view.box_low
    cdef const floating* box_high = <const floating*> view.box_high
    cdef const intp_t* perm = view.perm
    cdef const intp_t* node_start = view.node_start
    cdef const intp_t* node_left = view.node_left
    cdef const intp_t* count = view.count
    cdef const intp_t* rank_of = view.rank_of
    cdef MetricKind metric = view.kind
    cdef double p = view.p, grow = view.grow, tiny = view.tiny
    cdef intp_t n_features = view.n_features, t, node, child, first, top, work = 0
    cdef floating d
    cdef double bound_a, bound_b
    cdef intp_t stack_node[STACK_SIZE]
    cdef double stack_bound[STACK_SIZE]
    stack_node[0] = 0
    stack_bound[0] = _box_bound(metric, p, x, box_low, box_high, n_features)
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
                d = rdist(metric, p, x, X + perm[t] * n_features, n_features)
                heap_push(heap_dist, heap_rank, k, d, rank_of[perm[t]])
            continue
        # push the farther child first, so the nearer is searched first
        bound_a = INFINITY
        bound_b = INFINITY
        if count[first] > 0:
            bound_a = _box_bound(metric, p, x, box_low + first * n_features,
                                 box_high + first * n_features, n_features)
        if count[first + 1] > 0:
            bound_b = _box_bound(metric, p, x, box_low + (first + 1) * n_features,
                                 box_high + (first + 1) * n_features, n_features)
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


def query_batch(Store store, const intp_t[::1] samples, intp_t n_stored):
    """Bring ``best``/``best_rank`` of each sample up to date with the tree's store,
    which holds the samples of ranks 0 .. n_stored - 1."""
    cdef const StoreView* view = _tree_view(store)
    if view.itemsize == sizeof(float):
        _query_batch(<const float*> view.data, view, samples, n_stored)
    else:
        _query_batch(<const double*> view.data, view, samples, n_stored)


cdef void _query_batch(const floating* X, const StoreView* view,
                       const intp_t[::1] samples, intp_t n_stored) except *:
    """`query_batch` for the data ``X`` of one dtype (the view's)."""
    cdef double* best = view.best
    cdef intp_t* best_rank = view.best_rank
    cdef intp_t* checked = view.checked
    cdef intp_t n_features = view.n_features, s, i, best_r, work
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
            work = _search(view, X + i * n_features, &best_d, &best_r, 1)
            best[i] = best_d
            best_rank[i] = best_r
            checked[i] = n_stored
            if stop_after(&watch, _search_work(work, n_features)):
                stopped = True
                break
    if stopped:
        raise_interrupt()


def knn_batch(Store store, const intp_t[::1] samples, floating[:, ::1] out_dist,
              intp_t[:, ::1] out_rank):
    """The k nearest stored samples (k = out_rank.shape[1]) of each sample, by
    (reduced distance, rank), best first; the store must hold at least k.
    ``out_dist`` has the store's dtype."""
    cdef const StoreView* view = _tree_view(store)
    cdef const floating* X = <const floating*> view.data
    cdef intp_t n_features = view.n_features, s, k = out_rank.shape[1], work
    cdef SignalWatch watch
    cdef bint stopped = False
    if view.itemsize != sizeof(floating):
        raise TypeError("out_dist must have the store's dtype")
    watch.work = 0
    with nogil:
        for s in range(samples.shape[0]):
            heap_init(&out_dist[s, 0], &out_rank[s, 0], k)
            work = _search(view, X + samples[s] * n_features, &out_dist[s, 0],
                           &out_rank[s, 0], k)
            heap_sort(&out_dist[s, 0], &out_rank[s, 0], k)
            if stop_after(&watch, _search_work(work, n_features)):
                stopped = True
                break
    if stopped:
        raise_interrupt()


def resolve_batch(Store store, const intp_t[::1] codes, const intp_t[::1] samples,
                  intp_t n_stored):
    """Hart's rule over a batch, in order; return the new size of the store.

    ``best``/``best_rank`` of the batch's samples are up to date with the first
    ``n_stored`` stored samples; the samples stored here are compared directly.
    """
    if store.view.itemsize == sizeof(float):
        return _resolve_batch(<const float*> store.view.data, &store.view, codes,
                              samples, n_stored)
    return _resolve_batch(<const double*> store.view.data, &store.view, codes,
                          samples, n_stored)


cdef intp_t _resolve_batch(const floating* X, const StoreView* view,
                           const intp_t[::1] codes, const intp_t[::1] samples,
                           intp_t n_stored) except -1:
    """`resolve_batch` for the data ``X`` of one dtype (the view's)."""
    cdef double* best = view.best
    cdef intp_t* best_rank = view.best_rank
    cdef intp_t* checked = view.checked
    cdef intp_t* store = view.store
    cdef intp_t* rank_of = view.rank_of
    cdef MetricKind metric = view.kind
    cdef double p = view.p
    cdef intp_t n_features = view.n_features, s, i, r, start = n_stored
    cdef double d
    cdef SignalWatch watch
    cdef bint stopped = False
    watch.work = 0
    with nogil:
        for s in range(samples.shape[0]):
            i = samples[s]
            for r in range(start, n_stored):  # later ranks win only when nearer
                d = rdist(metric, p, X + i * n_features, X + store[r] * n_features,
                          n_features)
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


def catch_up_batch(Store store, const intp_t[::1] samples, intp_t n_stored):
    """`query_batch` without a tree: each sample is compared directly with the
    samples stored since it was last checked (rows ``stored_rows[checked:n_stored]``),
    so no (sample, stored sample) pair is ever measured twice.  Later ranks win only
    when strictly nearer."""
    if store.view.itemsize == sizeof(float):
        _catch_up_batch(<const float*> store.view.data, &store.view, samples,
                        n_stored)
    else:
        _catch_up_batch(<const double*> store.view.data, &store.view, samples,
                        n_stored)


cdef void _catch_up_batch(const floating* X, const StoreView* view,
                          const intp_t[::1] samples, intp_t n_stored) except *:
    """`catch_up_batch` for the data ``X`` of one dtype (the view's)."""
    cdef const floating* stored_rows = <const floating*> view.stored_rows
    cdef double* best = view.best
    cdef intp_t* best_rank = view.best_rank
    cdef intp_t* checked = view.checked
    cdef MetricKind metric = view.kind
    cdef double p = view.p
    cdef intp_t n_features = view.n_features, s, i, r, work
    cdef double d
    cdef SignalWatch watch
    cdef bint stopped = False
    watch.work = 0
    with nogil:
        for s in range(samples.shape[0]):
            i = samples[s]
            for r in range(checked[i], n_stored):
                d = rdist(metric, p, X + i * n_features, stored_rows + r * n_features,
                          n_features)
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
