# The Fukunaga-Narendra branch-and-bound search (see tree.py for the algorithm in
# words and the construction of the tree).
#
# Design
# ------
# The tree is one `SearchTree` object (declared in _bnb_tree.pxd, built by
# `tree.build_search_tree` with the loops of _bnb_build.pyx) holding flat arrays:
#
#   node_start[p], node_end[p]   node p owns samples start .. end-1 of the tree order
#   node_child[p], node_nchild[p]  its children are nodes child .. child+nchild-1
#                                (nchild == 0: p is a leaf)
#   centers[p, :]                M_p, the mean of the node's samples
#   radius[p]                    r_p = max D(x_i, M_p) over the node's samples
#   data[s, :], order[s]         the samples in tree order and their training index
#   to_center[s]                 D(x_s, M_leaf), ascending within each leaf
#   low[p, :], high[p, :]        the bounding box of the node's samples (k-d only;
#                                the k-means tree keeps the root's alone)
#   kd_nodes[p, :], kd_cuts[p, :], kd_spans[p, :]  the euclidean k-d search's
#                                arrays (below)
#
# The euclidean k-d tree, the default, is searched with kd_nodes, kd_cuts, kd_spans
# and the root's box alone: it holds no means, radii, leaf distances or other boxes
# (None, and low / high hold the root's row only) and no node arrays of their own
# (its node_start, ... read the columns of kd_nodes), which keeps it lean.
#
# `_visit` is the recursive search of one node of the k-means tree (the textbook's
# steps 2-6):
#
#   * internal node: compute D(x, M_c) for every child, visit the children nearest
#     first, and before each visit prune the child by rule 1,
#         D(x, M_c) > B + r_c.
#     For the euclidean metric the children are sorted and rule 1 is tested on
#     squared distances; the root is taken only for a child that is visited.
#   * leaf: rule 2 skips sample x_i when D(x, M_p) > B + D(x_i, M_p), and the other
#     side of the triangle inequality skips it when D(x_i, M_p) > B + D(x, M_p).  As
#     D(x_i, M_p) is sorted, the samples left form one window, found by a binary
#     search for its start and a stop at its end; only those get a distance.
#
# `_visit_boxes` searches the k-d partition (use_boxes), whose nodes are boxes:
#
#   * internal node: the distance from x to each child's box (x clipped to the box,
#     `_box_rdist`), nearest box first; the box rule prunes a child whose box is
#     farther than B.  No node mean is measured on the way down.
#   * leaf: D(x, M_p), rule 1, then the leaf's window as above (rule 2).
#
# `_search_kd_sq` searches the k-d partition for the euclidean metric, the common
# case (see its section below): the same box rule on cells whose distance is
# updated in O(1) on the way down, whole leaves scanned, no recursion.
#
# B is the current k-th best true distance (infinite until k samples were seen); the
# k best (reduced distance, training index) pairs live in the sorted list (k <= 128)
# or the bounded heap of _heap.pxd, ordered by the rule brute force's heap uses, so
# ties go to the lower training index and the answers equal brute force's.  The
# rules use true distances (roots taken where the metric needs them).  Computed
# distances carry rounding errors, so every rule prunes only with a margin: the
# right-hand side is multiplied by `grow` (a little above 1, from the dtype's epsilon
# and the number of features) and `tiny` is added; a sample that brute force would
# return is therefore never pruned.
#
# Each query counts its distance evaluations (to samples, to node means and to
# boxes: each costs one pass over the features; the O(1) cell updates of
# _search_kd_sq are not counted, its root's cell is).
#
# Python validates everything first (tree.py, _index.py); all loops run without the
# GIL and allocate nothing per query except the radius search's growing result list.

import numpy as np

from patrec._pickling import stamped, unstamped
from patrec.neighbors.search._tree_check import check_tree_fields

from libc.math cimport INFINITY, sqrt
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

from patrec._signals cimport SignalWatch, raise_interrupt, stop_after
from patrec._typedefs cimport floating, intp_t
from patrec.neighbors.search._distances cimport (CITYBLOCK, MINKOWSKI, MetricKind,
                                                 SQEUCLIDEAN, rdist,
                                                 rdist_to_dist, sqeuclidean_rdist,
                                                 sqeuclidean_rdist_rows2)
from patrec.neighbors.search._heap cimport (heap_init, heap_make, heap_push, heap_sort,
                                            list_copy_ascending, list_push)

cdef enum:
    MAX_BRANCHING = 64
    # Up to this k the k best live in a sorted list, above it in a heap (_heap.pxd):
    # the faster of the two on each side (measured: the performance page).
    LIST_MAX_K = 128
    # a Morton code orders by the first three features (locality_order)
    MORTON_DIMS = 3
    # rows of a leaf measured before any is offered to the k best (_scan_blocks_sq;
    # a default leaf holds at most 32)
    SCAN_BLOCK = 32

MAX_CHILDREN = MAX_BRANCHING  # the most children a node may have (tree.py checks)
MORTON_FEATURES = MORTON_DIMS  # the features `locality_order` orders by (tree.py)


cdef struct Pending:
    # a cell of the euclidean k-d search still to visit
    intp_t node
    double lb       # its reduced distance L from the query


cdef struct Workspace:
    # per-thread scratch of the euclidean k-d search (size: depth + 2)
    Pending* stack


cdef struct Search:
    # k-NN: the heap (dist in the floating buffer passed alongside), its size k and
    # the bound B.  Radius search: k == 0, B fixed and a growing result list.
    intp_t k
    intp_t* heap_idx
    bint sorted_list   # the k best in a descending list rather than a heap ...
    intp_t filled      # ... of which this many slots hold candidates
    double bound
    double box_limit   # euclidean: (B * grow + tiny)^2, the box rule's reduced limit
    intp_t n_evals
    # radius search results
    intp_t n_found
    intp_t capacity
    intp_t max_found   # the most the result list may hold (the caller's bound)
    intp_t* found_idx
    double* found_rdist
    double radius_rdist
    bint failed


cdef inline double _distance(const Tree* tree, const floating* a,
                             const floating* b) noexcept nogil:
    return rdist_to_dist(tree.kind, tree.p, rdist(tree.kind, tree.p, a, b, tree.n_features))


cdef inline bint _push(Search* search, floating* heap_dist, floating reduced,
                       intp_t index) noexcept nogil:
    """Offer a candidate to the k best; True when it entered."""
    if search.sorted_list and search.filled == search.k:  # (the common case, inline)
        return list_push(heap_dist, search.heap_idx, search.k, reduced, index)
    return _push_rarely(search, heap_dist, reduced, index)


cdef bint _push_rarely(Search* search, floating* heap_dist, floating reduced,
                       intp_t index) noexcept nogil:
    """`_push` to a list still filling, or to a heap."""
    cdef intp_t empty = search.k - search.filled
    if not search.sorted_list:
        return heap_push(heap_dist, search.heap_idx, search.k, reduced, index)
    # The list is filling: its first slots are empty (+inf, which any candidate
    # beats), and the candidate starts at the last of them rather than passing them
    # all (k steps each for the first k candidates).
    search.filled += 1
    return list_push(&heap_dist[empty - 1], &search.heap_idx[empty - 1],
                     search.filled, reduced, index)


cdef inline void _update_bound(const Tree* tree, Search* search,
                               floating* heap_dist) noexcept nogil:
    # B: the k-th best true distance (inf while the heap still holds a sentinel)
    if heap_dist[0] == INFINITY:
        search.bound = INFINITY
    else:
        search.bound = rdist_to_dist(tree.kind, tree.p, heap_dist[0])


cdef intp_t _first_at_least(const double* values, intp_t lo, intp_t hi,
                            double target) noexcept nogil:
    """The first position in lo .. hi-1 with values[pos] >= target (hi if none)."""
    cdef intp_t mid
    while lo < hi:
        mid = (lo + hi) // 2
        if values[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef int _add_found(Search* search, intp_t index, double reduced) noexcept nogil:
    cdef intp_t* new_idx
    cdef double* new_rdist
    if search.n_found == search.capacity:
        if search.n_found >= search.max_found:
            return -1
        search.capacity = min(2 * search.capacity + 64, search.max_found)
        new_idx = <intp_t*> realloc(search.found_idx, search.capacity * sizeof(intp_t))
        if new_idx == NULL:
            return -1
        search.found_idx = new_idx
        new_rdist = <double*> realloc(search.found_rdist,
                                      search.capacity * sizeof(double))
        if new_rdist == NULL:
            return -1
        search.found_rdist = new_rdist
    search.found_idx[search.n_found] = index
    search.found_rdist[search.n_found] = reduced
    search.n_found += 1
    return 0


cdef void _scan_leaf(const Tree* tree, Search* search, intp_t node, double d_node,
                     const floating* x, const floating* data,
                     floating* heap_dist) noexcept nogil:
    cdef intp_t s, stop = tree.node_end[node], n_features = tree.n_features
    cdef double low, high
    cdef floating reduced
    # Rule 2: skip samples with D(x_i, M) < (D(x, M) - tiny) / grow - B ...
    low = (d_node - tree.tiny) / tree.grow - search.bound
    s = _first_at_least(tree.to_center, tree.node_start[node], stop, low)
    # ... and, the other side, those with D(x_i, M) > (B + D(x, M)) * grow + tiny.
    high = (search.bound + d_node) * tree.grow + tree.tiny
    while s < stop and tree.to_center[s] <= high:
        reduced = rdist(tree.kind, tree.p, x, &data[s * n_features], n_features)
        search.n_evals += 1
        if search.k > 0:
            if _push(search, heap_dist, reduced, tree.order[s]):
                _update_bound(tree, search, heap_dist)
                high = (search.bound + d_node) * tree.grow + tree.tiny
        elif reduced <= search.radius_rdist:
            if _add_found(search, tree.order[s], reduced) != 0:
                search.failed = True
                return
        s += 1


cdef inline floating _box_rdist(const Tree* tree, const floating* x,
                                const floating* low, const floating* high,
                                floating* nearest) noexcept nogil:
    # The reduced distance from x to the nearest point of the box low .. high, whose
    # coordinate j is x_j clipped to [low_j, high_j]: every metric here grows with
    # each |x_j - y_j|, so no sample of the box is nearer.  The gap g_j = |x_j - y_j|
    # is low_j - x_j, x_j - high_j or 0; the sum runs in one pass for the common
    # metrics, through the clipped point and the kernel for minkowski.
    cdef intp_t j
    cdef floating gap, total = 0
    if tree.kind == MINKOWSKI:
        for j in range(tree.n_features):
            nearest[j] = min(max(x[j], low[j]), high[j])
        return rdist(tree.kind, tree.p, x, nearest, tree.n_features)
    for j in range(tree.n_features):
        gap = max(max(low[j] - x[j], x[j] - high[j]), <floating> 0)
        if tree.kind == SQEUCLIDEAN:
            total += gap * gap
        elif tree.kind == CITYBLOCK:
            total += gap
        elif gap > total:
            total = gap
    return total


def box_rdist(int kind, double p, const floating[::1] x, const floating[::1] low,
              const floating[::1] high):
    """The search's reduced distance from ``x`` to the box ``low`` .. ``high``
    (`BranchBoundTree.explain` repeats the search with it)."""
    cdef Tree tree
    cdef floating result
    cdef floating* nearest = <floating*> malloc(x.shape[0] * sizeof(floating))
    if nearest == NULL:
        raise MemoryError()
    tree.kind = <MetricKind> kind
    tree.p = p
    tree.n_features = x.shape[0]
    result = _box_rdist(&tree, &x[0], &low[0], &high[0], nearest)
    free(nearest)
    return float(result)


cdef inline void _insert_ranked(double* dist, intp_t* rank, intp_t count, double d,
                                intp_t node) noexcept nogil:
    """Insert (d, node) into the ``count`` ascending entries before it (insertion
    sort: a node has few children); equal distances keep the children's order."""
    cdef intp_t j = count
    while j > 0 and dist[j - 1] > d:
        dist[j] = dist[j - 1]
        rank[j] = rank[j - 1]
        j -= 1
    dist[j] = d
    rank[j] = node


cdef bint _beyond(const Tree* tree, double reduced, double limit) noexcept nogil:
    """Is the distance whose reduced form is ``reduced`` above ``limit``?"""
    if tree.kind == SQEUCLIDEAN:
        return reduced > limit * limit
    return reduced > limit


cdef void _visit_boxes(const Tree* tree, Search* search, intp_t node,
                       const floating* x, const floating* data,
                       const floating* centers, const floating* low,
                       const floating* high, floating* nearest,
                       floating* heap_dist) noexcept nogil:
    # The k-d partition: its nodes are boxes.
    cdef intp_t first = tree.node_child[node], n_children = tree.node_nchild[node]
    cdef intp_t c, n_features = tree.n_features
    cdef double box_dist[MAX_BRANCHING]
    cdef intp_t box_rank[MAX_BRANCHING]
    cdef double d
    if n_children == 0:
        # A leaf: D(x, M_p), rule 1, then rule 2 in the scan.
        d = rdist(tree.kind, tree.p, x, &centers[node * n_features], n_features)
        search.n_evals += 1
        if _beyond(tree, d, (search.bound + tree.radius[node]) * tree.grow
                   + tree.tiny):
            return
        _scan_leaf(tree, search, node, rdist_to_dist(tree.kind, tree.p, d), x, data,
                   heap_dist)
        return
    # Expand: the distance from x to every child's box, nearest box first.
    for c in range(n_children):
        d = _box_rdist(tree, x, &low[(first + c) * n_features],
                       &high[(first + c) * n_features], nearest)
        search.n_evals += 1
        _insert_ranked(box_dist, box_rank, c, d, first + c)
    for c in range(n_children):
        # The box rule: the nearest point of the child's box is farther than B (with
        # the rounding margin), and so is every sample in it.
        if _beyond(tree, box_dist[c], search.bound * tree.grow + tree.tiny):
            continue
        _visit_boxes(tree, search, box_rank[c], x, data, centers, low, high, nearest,
                     heap_dist)
        if search.failed:
            return


cdef void _visit(const Tree* tree, Search* search, intp_t node, double d_node,
                 const floating* x, const floating* data, const floating* centers,
                 floating* heap_dist) noexcept nogil:
    # The k-means partition: the course's search.
    cdef intp_t first = tree.node_child[node], n_children = tree.node_nchild[node]
    cdef intp_t c, child, n_features = tree.n_features
    cdef double child_dist[MAX_BRANCHING]
    cdef intp_t child_rank[MAX_BRANCHING]
    cdef double d, limit
    if n_children == 0:
        _scan_leaf(tree, search, node, d_node, x, data, heap_dist)
        return
    # Expand: the distance from x to every child's mean, nearest child first.
    for c in range(n_children):
        # (squared for euclidean: the root is taken only for children visited)
        d = rdist(tree.kind, tree.p, x, &centers[(first + c) * n_features],
                  n_features)
        if tree.kind != SQEUCLIDEAN:
            d = rdist_to_dist(tree.kind, tree.p, d)
        search.n_evals += 1
        _insert_ranked(child_dist, child_rank, c, d, first + c)
    for c in range(n_children):
        child = child_rank[c]
        # Rule 1: the nearest neighbour cannot be in this child.
        limit = (search.bound + tree.radius[child]) * tree.grow + tree.tiny
        d = child_dist[c]
        if tree.kind == SQEUCLIDEAN:
            if d > limit * limit:
                continue
            d = sqrt(d)
        elif d > limit:
            continue
        _visit(tree, search, child, d, x, data, centers, heap_dist)
        if search.failed:
            return


# -- the euclidean k-d search ---------------------------------------------------------
#
# The common case, the euclidean metric on the k-d partition, has loops of its own,
# faster than _visit_boxes (measured: the performance page):
#
#   * The box rule with the incremental bound of Arya and Mount.  L = sum_j gap_j^2
#     is the reduced distance from x to the current node's cell, gap_j the distance
#     from x_j to the cell's interval in feature j.  A child's cell is its parent's
#     with the interval of one feature j, the one the parent was cut on (kd_nodes),
#     narrowed to the child's own bounds [low_cj, high_cj] (kd_cuts); so L is
#     updated in O(1) instead of measured in O(d):
#         L_c = L_p + (g - gap_j) * (g + gap_j),  g the gap of x_j to [low_cj, high_cj]
#     where gap_j is x_j's gap to the parent cell's interval in j, which the parent
#     keeps (kd_spans: the interval its nearest ancestor cut along j gave it, or the
#     root's box).  The cell holds every sample of the child, so L_c is at most the
#     reduced distance of each; a child with L_c > (B * grow + tiny)^2 is pruned.
#     The children are visited nearest cell first.  The root's gaps are measured
#     (one distance evaluation, counted).
#   * A leaf reached gets every sample's distance (the shared kernel).  Rules 1
#     and 2 would cost a distance to the mean and a binary search per leaf, more
#     than scanning the whole leaf (measured: the performance page), so this search
#     does not apply them.
#   * B is kept in reduced form too, box_limit = (B * grow + tiny)^2, recomputed only
#     when the k-th best changes.  No recursion: a stack of the cells still to visit,
#     each with its L; a cell needs no other state (its gaps come from kd_spans),
#     so nothing is undone when the search backs up.
#
# Rounding: every term (g - gap_j) * (g + gap_j) is >= 0 (a child's interval lies
# inside its ancestors', and rounding is monotone), so L is a sum of at most
# n_features + depth nonnegative terms, each computed in double with a relative
# error of a few units in the last place: L exceeds the exact distance to the cell
# by a relative (n_features + depth + 8) * 2^-53 at most, which `grow` covers (see
# tree.py), as it covers the samples' own rounding.

cdef inline void _set_bound_sq(const Tree* tree, Search* search,
                               const floating* heap_dist) noexcept nogil:
    cdef double limit
    if heap_dist[0] == INFINITY:
        search.bound = INFINITY
        search.box_limit = INFINITY
    else:
        search.bound = sqrt(<double> heap_dist[0])
        limit = search.bound * tree.grow + tree.tiny
        search.box_limit = limit * limit


cdef inline void _scan_rows_sq(const Tree* tree, Search* search, intp_t start,
                               intp_t stop, const floating* x, const floating* data,
                               floating* heap_dist, intp_t n_features) noexcept nogil:
    # Within the leaf the k-th best is read from the list itself; B and the box
    # limit, which only the cells need, are brought up to date once, at the end.
    cdef intp_t s
    cdef floating reduced
    cdef bint entered = False
    for s in range(start, stop):
        reduced = sqeuclidean_rdist(x, &data[s * n_features], n_features)
        if reduced <= heap_dist[0]:
            entered |= _push(search, heap_dist, reduced, tree.order[s])
    if entered:
        _set_bound_sq(tree, search, heap_dist)


cdef inline void _scan_blocks_sq(const Tree* tree, Search* search, intp_t start,
                                 intp_t stop, const floating* x, const floating* data,
                                 floating* heap_dist, intp_t n_features) noexcept nogil:
    # _scan_rows_sq a block of rows at a time: first every row's distance, and the
    # rows within the k-th best of the block's start noted without a branch (the
    # position written, the count moved on only for a row that passes), then those
    # rows alone offered to the list, in their order, each checked against the k-th
    # best of the moment.  The rows offered and the answer are _scan_rows_sq's; the
    # branch on each row's distance, which no predictor can guess when a good part
    # of the rows enter (k > 1), is gone.
    cdef intp_t s = start, t, m, c, q
    cdef floating bound
    cdef floating reduced[SCAN_BLOCK]
    cdef unsigned char candidate[SCAN_BLOCK]
    cdef bint entered = False
    while s < stop:
        m = min(<intp_t> SCAN_BLOCK, stop - s)
        bound = heap_dist[0]
        c = 0
        if n_features == 2:
            sqeuclidean_rdist_rows2(x, &data[s * 2], m, reduced)
        else:
            for t in range(m):
                reduced[t] = sqeuclidean_rdist(x, &data[(s + t) * n_features],
                                               n_features)
        for t in range(m):
            candidate[c] = <unsigned char> t
            c += reduced[t] <= bound
        for q in range(c):
            t = candidate[q]
            if reduced[t] <= heap_dist[0]:
                entered |= _push(search, heap_dist, reduced[t], tree.order[s + t])
        s += m
    if entered:
        _set_bound_sq(tree, search, heap_dist)


cdef inline void _scan_sq(const Tree* tree, Search* search, intp_t start,
                          intp_t stop, const floating* x, const floating* data,
                          floating* heap_dist, intp_t n_features) noexcept nogil:
    # k = 1: rows rarely enter, the branch on each is well predicted, and the plain
    # loop is the faster (measured: tools/ab_search.py)
    if search.k == 1:
        _scan_rows_sq(tree, search, start, stop, x, data, heap_dist, n_features)
    else:
        _scan_blocks_sq(tree, search, start, stop, x, data, heap_dist, n_features)


cdef inline void _collect_rows_sq(const Tree* tree, Search* search, intp_t start,
                                  intp_t stop, const floating* x,
                                  const floating* data) noexcept nogil:
    # the radius search's leaf: every sample within the radius is kept
    cdef intp_t s, n_features = tree.n_features
    cdef floating reduced
    for s in range(start, stop):
        reduced = sqeuclidean_rdist(x, &data[s * n_features], n_features)
        if reduced <= search.radius_rdist:
            if _add_found(search, tree.order[s], reduced) != 0:
                search.failed = True
                return
    search.n_evals += stop - start


cdef inline void _scan_leaf_sq(const Tree* tree, Search* search, intp_t start,
                               intp_t stop, const floating* x, const floating* data,
                               floating* heap_dist) noexcept nogil:
    # (a constant number of features lets the compiler unroll the kernel's loops)
    if tree.n_features == 2:
        _scan_sq(tree, search, start, stop, x, data, heap_dist, 2)
    elif tree.n_features == 3:
        _scan_sq(tree, search, start, stop, x, data, heap_dist, 3)
    elif tree.n_features == 4:
        _scan_sq(tree, search, start, stop, x, data, heap_dist, 4)
    elif tree.n_features == 8:
        _scan_sq(tree, search, start, stop, x, data, heap_dist, 8)
    else:
        _scan_sq(tree, search, start, stop, x, data, heap_dist, tree.n_features)
    search.n_evals += stop - start


cdef inline double _gap(double x, double low, double high) noexcept nogil:
    """The distance from x to the interval [low, high]."""
    cdef double below = low - x, above = x - high
    if above > below:
        below = above
    return below if below > 0 else 0


cdef void _search_kd_sq(const Tree* tree, Search* search, const floating* x,
                        const floating* data, const floating* low,
                        const floating* high, floating* heap_dist,
                        Workspace* work) noexcept nogil:
    cdef intp_t n_features = tree.n_features, top
    cdef intp_t node, near, far, j
    cdef double lb = 0, g, g_old, g_near, g_far, l_near, l_far, limit, xj
    cdef Pending* stack = work.stack
    cdef const intp_t* nodes = tree.kd_nodes
    cdef const floating* cuts = <const floating*> tree.kd_cuts
    cdef const floating* spans = <const floating*> tree.kd_spans
    if search.k > 0:
        _set_bound_sq(tree, search, heap_dist)
    else:  # the radius search: B is the radius
        limit = search.bound * tree.grow + tree.tiny
        search.box_limit = limit * limit
    for j in range(n_features):
        g = _gap(x[j], low[j], high[j])
        lb += g * g
    search.n_evals += 1
    stack[0].node = 0
    stack[0].lb = lb
    top = 1
    while top > 0:
        top -= 1
        if stack[top].lb > search.box_limit:  # the box rule, with the B of now
            continue
        node = stack[top].node
        lb = stack[top].lb
        while nodes[4 * node + 1] >= 0:
            # the two children's cells: into the nearer, the other one for later
            j = nodes[4 * node + 1]
            near = nodes[4 * node]
            far = near + 1
            xj = x[j]
            g_old = _gap(xj, spans[2 * node], spans[2 * node + 1])
            g_near = _gap(xj, cuts[2 * near], cuts[2 * near + 1])
            g_far = _gap(xj, cuts[2 * far], cuts[2 * far + 1])
            l_near = lb + (g_near - g_old) * (g_near + g_old)
            l_far = lb + (g_far - g_old) * (g_far + g_old)
            if l_far < l_near:
                near, far = far, near
                l_near, l_far = l_far, l_near
            if not l_far > search.box_limit:
                stack[top].node = far
                stack[top].lb = l_far
                top += 1
            if l_near > search.box_limit:
                node = -1
                break
            node = near
            lb = l_near
        if node >= 0 and search.k > 0:
            _scan_leaf_sq(tree, search, nodes[4 * node + 2], nodes[4 * node + 3], x,
                          data, heap_dist)
        elif node >= 0:
            _collect_rows_sq(tree, search, nodes[4 * node + 2], nodes[4 * node + 3],
                             x, data)
            if search.failed:
                return


cdef void _search(const Tree* tree, Search* search, const floating* x,
                  const floating* data, const floating* centers,
                  const floating* low, const floating* high, floating* nearest,
                  floating* heap_dist, Workspace* work) noexcept nogil:
    cdef double d_root = 0.0
    if tree.use_boxes and tree.kind == SQEUCLIDEAN:
        _search_kd_sq(tree, search, x, data, low, high, heap_dist, work)
        return
    if tree.use_boxes:
        _visit_boxes(tree, search, 0, x, data, centers, low, high, nearest, heap_dist)
        return
    # The root's own distance matters only when the root is a leaf (rule 2).
    if tree.node_nchild[0] == 0:
        search.n_evals += 1
        d_root = _distance(tree, x, centers)
    _visit(tree, search, 0, d_root, x, data, centers, heap_dist)


cdef int _alloc_workspace(Workspace* work, intp_t depth) noexcept:
    work.stack = <Pending*> malloc((depth + 2) * sizeof(Pending))
    return -1 if work.stack == NULL else 0


cdef void _free_workspace(Workspace* work) noexcept:
    free(work.stack)
    work.stack = NULL


cdef class SearchTree:
    """The compiled tree: its arrays (see the header of this module), the margins
    ``grow`` and ``tiny`` of its pruning rules, and its metric (``kind``, ``p``).

    Made by `make_search_tree` (which `patrec.neighbors.search.tree.build_search_tree`
    calls); read-only, picklable.
    """

    def __reduce__(self):
        fields = {name: getattr(self, name) for name in FIELDS}
        if self._node_start is None:  # (lean: kd_nodes holds them)
            fields.update(dict.fromkeys(NODE_FIELDS))
        return _from_fields, (stamped(fields),)

    # The nodes' start, end, first child and number of children: stored, except in
    # the lean euclidean k-d tree, whose search reads kd_nodes alone (a node's
    # child, cut feature, start and end) and whose arrays here are views of it.

    @property
    def node_start(self):
        return self.kd_nodes[:, 2] if self._node_start is None else self._node_start

    @property
    def node_end(self):
        return self.kd_nodes[:, 3] if self._node_end is None else self._node_end

    @property
    def node_child(self):
        return self.kd_nodes[:, 0] if self._node_child is None else self._node_child

    @property
    def node_nchild(self):
        if self._node_nchild is not None:
            return self._node_nchild
        if self._nchild_of_kd is None:  # (made once, when first read)
            self._nchild_of_kd = 2 * (self.kd_nodes[:, 1] >= 0).astype(np.intp)
        return self._nchild_of_kd


NODE_FIELDS = ("node_start", "node_end", "node_child", "node_nchild")
FIELDS = ("data", "order", "to_center", *NODE_FIELDS, "centers", "radius", "low",
          "high", "kd_nodes", "kd_cuts", "kd_spans", "kind", "p", "grow", "tiny", "use_boxes",
          "depth")


def make_search_tree(fields):
    """A `SearchTree` holding the values of ``fields``, a mapping of every name of
    `FIELDS` (the arrays are not copied; the lean euclidean k-d tree keeps no node
    arrays: None, or dropped when given)."""
    cdef SearchTree tree = SearchTree.__new__(SearchTree)
    if set(fields) != set(FIELDS):
        raise TypeError(f"a search tree's fields are {FIELDS}, got {tuple(fields)}")
    node_start, node_end, node_child, node_nchild = (fields[name]
                                                     for name in NODE_FIELDS)
    if fields["use_boxes"] and fields["kind"] == SQEUCLIDEAN:
        node_start = node_end = node_child = node_nchild = None
    tree.data, tree.order, tree.to_center = (fields["data"], fields["order"],
                                             fields["to_center"])
    tree._node_start, tree._node_end = node_start, node_end
    tree._node_child, tree._node_nchild = node_child, node_nchild
    tree.centers, tree.radius = fields["centers"], fields["radius"]
    tree.low, tree.high = fields["low"], fields["high"]
    tree.kd_nodes, tree.kd_cuts = fields["kd_nodes"], fields["kd_cuts"]
    tree.kd_spans = fields["kd_spans"]
    tree.kind, tree.p = fields["kind"], fields["p"]
    tree.grow, tree.tiny = fields["grow"], fields["tiny"]
    tree.use_boxes, tree.depth = fields["use_boxes"], fields["depth"]
    _bind(tree)
    return tree


cdef const void* _address(array):
    """Where a C-contiguous array's data start (NULL for None)."""
    if array is None:
        return NULL
    if not array.flags.c_contiguous:
        raise ValueError("the tree's arrays must be C-contiguous")
    return <const void*> <size_t> array.__array_interface__["data"][0]


cdef void _bind(SearchTree search_tree) except *:
    """Fill the tree's C view (`Tree`) once: every search reads it."""
    cdef Tree* tree = &search_tree.view
    if search_tree.data.dtype not in (np.float32, np.float64):
        raise TypeError("the tree's data must be float32 or float64")
    for name in ("data", "centers", "low", "high", "kd_cuts", "kd_spans"):
        array = getattr(search_tree, name)
        if array is not None and array.dtype != search_tree.data.dtype:
            raise TypeError(f"the tree's {name} must have the data's dtype")
    lean = search_tree.use_boxes and search_tree.kind == SQEUCLIDEAN
    if not lean and search_tree._node_start is None:
        raise ValueError("only the lean euclidean k-d tree has no node arrays")
    for name in ("order", "kd_nodes", *(() if lean else NODE_FIELDS)):
        if getattr(search_tree, name).dtype != np.intp:
            raise TypeError(f"the tree's {name} must be intp")
    tree.node_start = <const intp_t*> _address(search_tree._node_start)
    tree.node_end = <const intp_t*> _address(search_tree._node_end)
    tree.node_child = <const intp_t*> _address(search_tree._node_child)
    tree.node_nchild = <const intp_t*> _address(search_tree._node_nchild)
    tree.order = <const intp_t*> _address(search_tree.order)
    tree.kd_nodes = <const intp_t*> _address(search_tree.kd_nodes)
    tree.radius = <const double*> _address(search_tree.radius)
    tree.to_center = <const double*> _address(search_tree.to_center)
    tree.kd_cuts = _address(search_tree.kd_cuts)
    tree.kd_spans = _address(search_tree.kd_spans)
    tree.data = _address(search_tree.data)
    tree.centers = _address(search_tree.centers)
    tree.low = _address(search_tree.low)
    tree.high = _address(search_tree.high)
    tree.itemsize = search_tree.data.dtype.itemsize
    tree.n_features = search_tree.data.shape[1]
    tree.kind = <MetricKind> search_tree.kind
    tree.p = search_tree.p
    tree.grow = search_tree.grow
    tree.tiny = search_tree.tiny
    tree.use_boxes = search_tree.use_boxes


cdef const Tree* _view(SearchTree search_tree, intp_t itemsize) except NULL:
    """The tree's C view, checked against the searched dtype's item size."""
    if search_tree.view.itemsize != itemsize:
        raise TypeError("the queries must have the tree's dtype")
    return &search_tree.view


def _from_fields(fields):
    """Unpickle a `SearchTree`: written by this version of patrec, its arrays
    checked (a damaged pickle is an error, never a crash of the search)."""
    fields = unstamped(fields, "search tree")
    check_tree_fields(fields, MAX_CHILDREN)
    return make_search_tree(fields)


def knn_search(SearchTree search_tree, const floating[:, ::1] queries,
               floating[:, ::1] out_dist, intp_t[:, ::1] out_idx,
               intp_t[::1] out_evals=None, const intp_t[::1] out_rows=None):
    """k nearest neighbours of each query: reduced distances and training indices,
    best first, and the number of distance evaluations per query (unless
    ``out_evals`` is None).

    The answer for query i goes to row ``out_rows[i]`` of the outputs (row i without
    ``out_rows``): queries searched in another order than the caller's are answered
    in the caller's.  (Each search keeps its heap in a small buffer and writes the
    finished row once: a store to a distant row does not stall the search the way
    a heap living in that row would.)
    """
    cdef const Tree* tree = _view(search_tree, <intp_t> sizeof(floating))
    cdef const floating* data = <const floating*> tree.data
    cdef const floating* centers = <const floating*> tree.centers
    cdef const floating* low = <const floating*> tree.low
    cdef const floating* high = <const floating*> tree.high
    cdef intp_t depth = search_tree.depth
    cdef Search search
    cdef intp_t i, row, k = out_idx.shape[1]
    cdef SignalWatch watch
    cdef bint stopped = False
    cdef floating* nearest
    cdef floating* best_dist
    cdef intp_t* best_idx
    cdef Workspace work
    watch.work = 0
    if queries.shape[0] == 0:
        return
    if out_rows is not None and out_rows.shape[0] != queries.shape[0]:
        raise ValueError("out_rows must give one output row per query")
    nearest = <floating*> malloc(tree.n_features * sizeof(floating))
    best_dist = <floating*> malloc(k * sizeof(floating))
    best_idx = <intp_t*> malloc(k * sizeof(intp_t))
    if (nearest == NULL or best_dist == NULL or best_idx == NULL
            or _alloc_workspace(&work, depth) != 0):
        free(nearest)
        free(best_dist)
        free(best_idx)
        raise MemoryError()
    search.k = k
    search.sorted_list = k <= LIST_MAX_K
    search.failed = False
    search.heap_idx = best_idx
    with nogil:
        for i in range(queries.shape[0]):
            heap_init(best_dist, best_idx, k)
            search.filled = 0
            search.bound = INFINITY
            search.n_evals = 0
            _search(tree, &search, &queries[i, 0], data, centers, low, high, nearest,
                    best_dist, &work)
            row = i if out_rows is None else out_rows[i]
            if search.sorted_list:
                list_copy_ascending(best_dist, best_idx, k, &out_dist[row, 0],
                                    &out_idx[row, 0])
            else:
                heap_sort(best_dist, best_idx, k)
                memcpy(&out_dist[row, 0], best_dist, k * sizeof(floating))
                memcpy(&out_idx[row, 0], best_idx, k * sizeof(intp_t))
            if out_evals is not None:
                out_evals[row] = search.n_evals
            if stop_after(&watch, (search.n_evals + 1) * tree.n_features):
                stopped = True
                break
    free(nearest)
    free(best_dist)
    free(best_idx)
    _free_workspace(&work)
    if stopped:
        raise_interrupt()


cdef inline unsigned int _spread(unsigned int v, intp_t n_dims) noexcept nogil:
    """The bits of v moved n_dims places apart: bit b to bit b * n_dims (v below
    2**10 for two dimensions, 2**7 for three)."""
    if n_dims == 2:
        v = (v | (v << 8)) & 0x00FF00FFu
        v = (v | (v << 4)) & 0x0F0F0F0Fu
        v = (v | (v << 2)) & 0x33333333u
        return (v | (v << 1)) & 0x55555555u
    if n_dims == 3:
        v = (v | (v << 16)) & 0x030000FFu
        v = (v | (v << 8)) & 0x0300F00Fu
        v = (v | (v << 4)) & 0x030C30C3u
        return (v | (v << 2)) & 0x09249249u
    return v


def locality_order(const floating[:, ::1] queries, const floating[::1] low,
                   const floating[::1] high):
    """The rows of ``queries`` sorted by their Morton (Z-order) code on the first one
    to three features, scaled to the box ``low`` .. ``high`` (21 bits in all): rows
    near in space come near in the order, so consecutive searches walk the same
    nodes while they are still in the cache.  Two passes of a radix sort, O(n)."""
    cdef intp_t n = queries.shape[0], n_dims = min(queries.shape[1], MORTON_DIMS)
    cdef intp_t bits, i, j
    cdef double scale[MORTON_DIMS]
    cdef double top, cell
    cdef unsigned int code
    if n_dims == 0 or n < 2:
        return np.arange(n, dtype=np.intp)
    bits = 21 // n_dims
    top = (1 << bits) - 1
    for j in range(n_dims):
        cell = <double> high[j] - <double> low[j]
        if not cell < INFINITY:  # too wide to scale: keep the order
            return np.arange(n, dtype=np.intp)
        scale[j] = top / max(cell, 1e-300)
    codes = np.empty(n, dtype=np.uint32)
    cdef unsigned int[::1] code_of = codes
    with nogil:
        for i in range(n):
            code = 0
            for j in range(n_dims):
                cell = min(max((queries[i, j] - <double> low[j]) * scale[j], 0.0), top)
                code |= _spread(<unsigned int> cell, n_dims) << j
            code_of[i] = code
    return _radix_order(codes)


def leaf_order(SearchTree search_tree, const floating[:, ::1] queries):
    """The rows of ``queries`` sorted by the leaf of the k-d tree (``use_boxes``)
    that holds them, in the tree's order: each row goes down from the root to the
    child whose interval in the cut feature it reaches, O(depth) per row, then a
    radix sort by the leaf's first position, O(n).  Consecutive searches then start
    in the same leaf and walk the same nodes, in any dimension."""
    cdef const Tree* tree = _view(search_tree, <intp_t> sizeof(floating))
    cdef const intp_t* nodes = tree.kd_nodes
    cdef const floating* cuts = <const floating*> tree.kd_cuts
    cdef intp_t n = queries.shape[0]
    cdef intp_t i, g, size, node, right, shift = 0
    cdef intp_t at[8]
    cdef bint moved
    if not tree.use_boxes:
        raise ValueError("leaf_order needs a k-d tree")
    if queries.shape[1] != tree.n_features:
        raise ValueError("the queries must have the tree's number of features")
    while (search_tree.data.shape[0] - 1) >> shift >= (1 << 22):
        shift += 1  # (the sort reads 22 bits: nearby leaves share a key)
    codes = np.empty(n, dtype=np.uint32)
    cdef unsigned int[::1] code_of = codes
    with nogil:
        # eight rows go down together: their chains of loads overlap in time
        for i in range(0, n, 8):
            size = min(8, n - i)
            for g in range(size):
                at[g] = 0
            moved = True
            while moved:
                moved = False
                for g in range(size):
                    node = at[g]
                    if nodes[4 * node + 1] >= 0:
                        right = nodes[4 * node] + 1
                        at[g] = right - (queries[i + g, nodes[4 * node + 1]]
                                         < cuts[2 * right])
                        moved = True
            for g in range(size):
                code_of[i + g] = <unsigned int> (nodes[4 * at[g] + 2] >> shift)
    return _radix_order(codes)


cdef _radix_order(unsigned int[::1] codes):
    """The positions of ``codes`` (below 2**22) in ascending order of their code,
    equal codes in their order: two stable passes of a radix sort, O(n)."""
    cdef intp_t n = codes.shape[0], i, b, r, shift
    result = np.arange(n, dtype=np.intp)
    cdef intp_t[::1] order = result
    cdef intp_t[::1] scratch = np.empty(n, dtype=np.intp)
    cdef intp_t[::1] count = np.empty(1 << 11, dtype=np.intp)
    with nogil:
        # least significant 11 bits first, then the other 11
        for shift in range(0, 22, 11):
            for r in range(1 << 11):
                count[r] = 0
            for i in range(n):
                count[(codes[order[i]] >> shift) & 2047] += 1
            b = 0
            for r in range(1 << 11):
                b, count[r] = b + count[r], b
            for i in range(n):
                r = (codes[order[i]] >> shift) & 2047
                scratch[count[r]] = order[i]
                count[r] += 1
            for i in range(n):
                order[i] = scratch[i]
    return result


def radius_search(SearchTree search_tree, const floating[:, ::1] queries, double r,
                  double reduced_r, intp_t max_found, intp_t[::1] out_counts,
                  intp_t[::1] out_evals):
    """Training samples within distance ``r`` of each query.

    ``r`` is the radius in the tree's geometry (what the rules prune with) and
    ``reduced_r`` the same radius as the kernels compare it (`Metric.radius_limits`
    gives both: for ``sqeuclidean`` the radius is itself a reduced distance).
    Returns ``(indices, reduced)``: the matches of all queries concatenated, those of
    each query sorted by (distance, training index); ``out_counts`` receives how many
    belong to each query.  None when there are more than ``max_found`` matches (the
    search stops at the one past it).
    """
    cdef const Tree* tree = _view(search_tree, <intp_t> sizeof(floating))
    cdef const floating* data = <const floating*> tree.data
    cdef const floating* centers = <const floating*> tree.centers
    cdef const floating* low = <const floating*> tree.low
    cdef const floating* high = <const floating*> tree.high
    cdef Search search
    cdef intp_t i, start
    cdef floating dummy = 0
    cdef SignalWatch watch
    cdef bint stopped = False
    cdef floating* nearest = <floating*> malloc(tree.n_features * sizeof(floating))
    cdef Workspace work
    if nearest == NULL or _alloc_workspace(&work, search_tree.depth) != 0:
        free(nearest)
        raise MemoryError()
    watch.work = 0
    search.k = 0
    search.sorted_list = False
    search.failed = False
    search.n_found = 0
    search.capacity = 0
    search.max_found = max_found
    search.found_idx = NULL
    search.found_rdist = NULL
    search.bound = r * tree.grow
    search.radius_rdist = reduced_r
    with nogil:
        for i in range(queries.shape[0]):
            start = search.n_found
            search.n_evals = 0
            _search(tree, &search, &queries[i, 0], data, centers, low, high, nearest,
                    &dummy, &work)
            if search.failed:
                break
            out_counts[i] = search.n_found - start
            out_evals[i] = search.n_evals
            heap_make(&search.found_rdist[start], &search.found_idx[start],
                      search.n_found - start)
            heap_sort(&search.found_rdist[start], &search.found_idx[start],
                      search.n_found - start)
            if stop_after(&watch, (search.n_evals + 1) * tree.n_features):
                stopped = True
                break
    try:
        if stopped:
            raise_interrupt()
        if search.failed and search.n_found >= max_found:
            return None
        if search.failed:
            raise MemoryError()
        indices = np.empty(search.n_found, dtype=np.intp)
        reduced = np.empty(search.n_found, dtype=np.float64)
        _copy_found(&search, indices, reduced)
    finally:
        free(nearest)
        _free_workspace(&work)
        free(search.found_idx)
        free(search.found_rdist)
    return indices, reduced


cdef void _copy_found(const Search* search, intp_t[::1] indices,
                      double[::1] reduced) noexcept:
    cdef intp_t i
    for i in range(search.n_found):
        indices[i] = search.found_idx[i]
        reduced[i] = search.found_rdist[i]
