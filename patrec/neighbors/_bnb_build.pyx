# Building the branch-and-bound tree's flat arrays (see tree.py for the algorithm in
# words and _bnb_tree.pyx for the search that reads them).
#
# Design
# ------
# Two loops, both without the GIL and without Python objects per node:
#
#   kd_partition   the k-d partition: a node holding more than leaf_size samples is
#                  cut at the median of its widest feature into two halves (rows are
#                  moved in place, a quickselect on that feature), depth first, until
#                  every leaf holds at most leaf_size samples.  O(n d log n).
#   measure_nodes  for ANY hierarchical partition (k-d or k-means): each node's mean
#                  M_p, radius r_p = max D(x_i, M_p), bounding box, and at the leaves
#                  the distances D(x_i, M_p) sorted ascending (the leaf's rows are
#                  reordered to match).  One pass over the samples per level of the
#                  tree: O(n d depth).
#
# The partition is given, as in tree.py, by node_start/node_end (the node owns rows
# start .. end-1 of the tree order) and node_child/node_nchild (children numbered
# consecutively; nchild == 0 at a leaf).  Python validates everything first.

import numpy as np

from libc.math cimport fabs, isfinite
from libc.stdlib cimport free, malloc, qsort
from libc.string cimport memcpy

from patrec._signals cimport SignalWatch, raise_interrupt, stop_after
from patrec._typedefs cimport floating, intp_t
from patrec.neighbors._distances cimport MetricKind, rdist, rdist_to_dist


cdef inline void _swap_rows(floating* data, intp_t* order, intp_t a, intp_t b,
                            intp_t n_features) noexcept nogil:
    cdef intp_t j, t
    cdef floating v
    cdef floating* ra = data + a * n_features
    cdef floating* rb = data + b * n_features
    for j in range(n_features):
        v = ra[j]
        ra[j] = rb[j]
        rb[j] = v
    t = order[a]
    order[a] = order[b]
    order[b] = t


cdef void _select(floating* data, intp_t* order, intp_t lo, intp_t hi, intp_t nth,
                  intp_t dim, intp_t n_features) noexcept nogil:
    """Reorder rows lo .. hi-1 so that row nth holds the value of feature ``dim`` it
    would hold sorted, no row before it a larger one, none after it a smaller one
    (Hoare's quickselect, pivot the median of three)."""
    cdef intp_t i, j, mid
    cdef floating pivot, a, b, c
    hi -= 1
    while hi > lo:
        mid = lo + (hi - lo) // 2
        a = data[lo * n_features + dim]
        b = data[mid * n_features + dim]
        c = data[hi * n_features + dim]
        if (a <= b <= c) or (c <= b <= a):
            pivot = b
        elif (b <= a <= c) or (c <= a <= b):
            pivot = a
        else:
            pivot = c
        i, j = lo, hi
        while i <= j:
            while data[i * n_features + dim] < pivot:
                i += 1
            while data[j * n_features + dim] > pivot:
                j -= 1
            if i <= j:
                _swap_rows(data, order, i, j, n_features)
                i += 1
                j -= 1
        # now rows lo..j are <= pivot, rows i..hi are >= pivot, rows j+1..i-1 == pivot
        if nth <= j:
            hi = j
        elif nth >= i:
            lo = i
        else:
            return


def kd_partition(floating[:, ::1] data, intp_t[::1] order, intp_t leaf_size,
                 intp_t[::1] node_start, intp_t[::1] node_end, intp_t[::1] node_child,
                 intp_t[::1] node_nchild):
    """Split ``data`` (reordered in place, ``order`` alongside) into the k-d
    partition; the node arrays must hold the largest possible number of nodes.
    Returns ``(n_nodes, depth)``."""
    cdef intp_t n = data.shape[0], n_features = data.shape[1]
    cdef intp_t capacity = node_start.shape[0]
    cdef intp_t n_nodes = 1, top = 0, node, lo, hi, s, j, widest, mid, depth = 0
    cdef double spread, best
    cdef floating value
    cdef floating* low
    cdef floating* high
    cdef intp_t* stack
    cdef intp_t* level
    cdef SignalWatch watch
    cdef bint stopped = False, failed = False
    watch.work = 0
    node_start[0] = 0
    node_end[0] = n
    node_child[0] = 0
    node_nchild[0] = 0
    if n == 0:
        return 1, 0
    low = <floating*> malloc(n_features * sizeof(floating))
    high = <floating*> malloc(n_features * sizeof(floating))
    stack = <intp_t*> malloc(capacity * sizeof(intp_t))
    level = <intp_t*> malloc(capacity * sizeof(intp_t))
    if low == NULL or high == NULL or stack == NULL or level == NULL:
        free(low)
        free(high)
        free(stack)
        free(level)
        raise MemoryError()
    with nogil:
        stack[0] = 0
        level[0] = 0
        top = 1
        while top > 0:
            top -= 1
            node = stack[top]
            lo, hi = node_start[node], node_end[node]
            if level[node] > depth:
                depth = level[node]
            if hi - lo <= leaf_size:
                continue
            # the widest feature of the node's bounding box
            for j in range(n_features):
                low[j] = data[lo, j]
                high[j] = data[lo, j]
            for s in range(lo + 1, hi):
                for j in range(n_features):
                    value = data[s, j]
                    if value < low[j]:
                        low[j] = value
                    elif value > high[j]:
                        high[j] = value
            widest, best = 0, -1.0
            for j in range(n_features):
                spread = <double> high[j] - <double> low[j]
                if spread > best:
                    widest, best = j, spread
            if best <= 0:
                continue  # identical samples: they stay together in one leaf
            mid = lo + (hi - lo) // 2
            _select(&data[0, 0], &order[0], lo, hi, mid, widest, n_features)
            if n_nodes + 2 > capacity:
                failed = True
                break
            node_child[node] = n_nodes
            node_nchild[node] = 2
            for s in range(2):
                node_child[n_nodes + s] = 0
                node_nchild[n_nodes + s] = 0
                level[n_nodes + s] = level[node] + 1
            node_start[n_nodes] = lo
            node_end[n_nodes] = mid
            node_start[n_nodes + 1] = mid
            node_end[n_nodes + 1] = hi
            # depth first: the right child waits below the left one
            stack[top] = n_nodes + 1
            stack[top + 1] = n_nodes
            top += 2
            n_nodes += 2
            if stop_after(&watch, 3 * (hi - lo) * n_features):
                stopped = True
                break
    free(low)
    free(high)
    free(stack)
    free(level)
    if stopped:
        raise_interrupt()
    if failed:
        raise RuntimeError("kd_partition: node arrays too small")
    return n_nodes, depth


cdef struct Ranked:
    double distance
    intp_t row


cdef int _compare_ranked(const void* a, const void* b) noexcept nogil:
    cdef const Ranked* x = <const Ranked*> a
    cdef const Ranked* y = <const Ranked*> b
    if x.distance < y.distance:
        return -1
    if x.distance > y.distance:
        return 1
    return (x.row > y.row) - (x.row < y.row)


def measure_nodes(int kind, double p, floating[:, ::1] data, intp_t[::1] order,
                  const intp_t[::1] node_start, const intp_t[::1] node_end,
                  const intp_t[::1] node_nchild, floating[:, ::1] centers,
                  double[::1] radius, floating[:, ::1] low, floating[:, ::1] high,
                  double[::1] to_center):
    """Fill ``centers`` (M_p), ``radius`` (r_p), the bounding boxes ``low`` /
    ``high`` and, at the leaves, ``to_center`` (sorted D(x_i, M_p); the leaf's rows
    of ``data`` and ``order`` are reordered to match)."""
    cdef intp_t n_nodes = node_start.shape[0], n_features = data.shape[1]
    cdef intp_t node, lo, hi, s, j, largest = 1
    cdef MetricKind metric = <MetricKind> kind
    cdef double* total
    cdef Ranked* ranked
    cdef floating* rows
    cdef intp_t* indices
    cdef double d, scale, r
    cdef floating value
    cdef SignalWatch watch
    cdef bint stopped = False, finite
    watch.work = 0
    for node in range(n_nodes):
        if node_nchild[node] == 0 and node_end[node] - node_start[node] > largest:
            largest = node_end[node] - node_start[node]
    total = <double*> malloc(n_features * sizeof(double))
    ranked = <Ranked*> malloc(largest * sizeof(Ranked))
    rows = <floating*> malloc(largest * n_features * sizeof(floating))
    indices = <intp_t*> malloc(largest * sizeof(intp_t))
    if total == NULL or ranked == NULL or rows == NULL or indices == NULL:
        free(total)
        free(ranked)
        free(rows)
        free(indices)
        raise MemoryError()
    with nogil:
        for node in range(n_nodes):
            lo, hi = node_start[node], node_end[node]
            # the bounding box and the sum of the samples
            for j in range(n_features):
                low[node, j] = data[lo, j]
                high[node, j] = data[lo, j]
                total[j] = 0
            for s in range(lo, hi):
                for j in range(n_features):
                    value = data[s, j]
                    total[j] += value
                    if value < low[node, j]:
                        low[node, j] = value
                    elif value > high[node, j]:
                        high[node, j] = value
            finite = True
            for j in range(n_features):
                if not isfinite(total[j]):
                    finite = False
                centers[node, j] = <floating> (total[j] / (hi - lo))
            if not finite:
                # the sum overflowed: add the samples scaled by the largest value
                scale = 0
                for j in range(n_features):
                    scale = max(scale, fabs(low[node, j]), fabs(high[node, j]))
                for j in range(n_features):
                    total[j] = 0
                for s in range(lo, hi):
                    for j in range(n_features):
                        total[j] += data[s, j] / scale
                for j in range(n_features):
                    centers[node, j] = <floating> (total[j] / (hi - lo) * scale)
            # the radius and, at a leaf, the sorted distances to the mean
            r = 0
            for s in range(lo, hi):
                d = rdist_to_dist(metric, p, rdist(metric, p, &data[s, 0],
                                                   &centers[node, 0], n_features))
                if d > r:
                    r = d
                if node_nchild[node] == 0:
                    ranked[s - lo].distance = d
                    ranked[s - lo].row = s
            radius[node] = r
            if node_nchild[node] == 0:
                qsort(ranked, hi - lo, sizeof(Ranked), _compare_ranked)
                for s in range(hi - lo):
                    memcpy(&rows[s * n_features], &data[ranked[s].row, 0],
                           n_features * sizeof(floating))
                    indices[s] = order[ranked[s].row]
                    to_center[lo + s] = ranked[s].distance
                memcpy(&data[lo, 0], rows, (hi - lo) * n_features * sizeof(floating))
                memcpy(&order[lo], indices, (hi - lo) * sizeof(intp_t))
            if stop_after(&watch, 3 * (hi - lo) * n_features):
                stopped = True
                break
    free(total)
    free(ranked)
    free(rows)
    free(indices)
    if stopped:
        raise_interrupt()
