# Building the branch-and-bound tree's flat arrays (see tree.py for the algorithm in
# words and _bnb_tree.pyx for the search that reads them).
#
# Design
# ------
# Two loops, both without the GIL and without Python objects per node:
#
#   partition      the k-d partition: a node holding more than leaf_size samples is
#                  cut at the median of its widest feature into two parts (rows are
#                  moved in place, a selection on that feature; the rows equal to
#                  the median on one side, see _median_cut), depth first, until
#                  every leaf holds at most leaf_size samples.  O(n d log n).  On the
#                  way it records each cut's feature and the two halves' intervals
#                  in it: with the root's box and each cut node's own interval in
#                  its feature (cell_spans), all the euclidean k-d search needs.
#                  Or the k-means partition (below), cut by k-means instead.
#   measure_nodes  for ANY hierarchical partition (k-d or k-means): each node's mean
#                  M_p, radius r_p = max D(x_i, M_p), bounding box, and at the leaves
#                  the distances D(x_i, M_p), sorted ascending (the leaf's rows are
#                  reordered to match) for the searches that apply rule 2.  One pass
#                  over the samples per level of the tree: O(n d depth).
#
# The partition is given, as in tree.py, by node_start/node_end (the node owns rows
# start .. end-1 of the tree order) and node_child/node_nchild (children numbered
# consecutively; nchild == 0 at a leaf).  Python validates everything first.

from libc.math cimport INFINITY, fabs, isfinite
from libc.stdlib cimport free, malloc, qsort
from libc.string cimport memcpy

from patrec._signals cimport SignalWatch, raise_interrupt, stop_after
from patrec._typedefs cimport floating, intp_t
from patrec.neighbors.search._distances cimport MetricKind, rdist, rdist_to_dist
from patrec.neighbors.search._select cimport swap_rows, select_nth


cdef void _bounding_box(const floating* data, intp_t lo, intp_t hi, intp_t step,
                        intp_t n_features, floating* low, floating* high) noexcept nogil:
    """The smallest box holding rows lo, lo + step, lo + 2 step, ... below hi
    (hi > lo)."""
    cdef intp_t s, j
    cdef floating value
    for j in range(n_features):
        low[j] = data[lo * n_features + j]
        high[j] = data[lo * n_features + j]
    s = lo + step
    while s < hi:
        for j in range(n_features):  # (branch-free: the compiler vectorises it)
            value = data[s * n_features + j]
            low[j] = min(low[j], value)
            high[j] = max(high[j], value)
        s += step


cdef enum:
    WIDEST_SAMPLE = 128  # rows on which a node's widest feature is judged


cdef intp_t _widest_feature(const floating* data, intp_t lo, intp_t hi,
                            intp_t n_features, intp_t sample, floating* low,
                            floating* high) noexcept nogil:
    """The feature of largest spread over rows lo .. hi-1, measured on about
    ``sample`` of them evenly spaced; -1 when every feature has spread 0 there
    (``low`` and ``high`` are scratch)."""
    cdef intp_t j, widest = -1
    cdef double spread, best = 0.0
    _bounding_box(data, lo, hi, max(1, (hi - lo) // sample), n_features, low, high)
    for j in range(n_features):
        spread = <double> high[j] - <double> low[j]
        if spread > best:
            widest, best = j, spread
    return widest


cdef intp_t _median_cut(floating* data, intp_t* order, intp_t lo, intp_t hi,
                        intp_t n_features, floating* low, floating* high,
                        intp_t* dim, floating* cuts) noexcept nogil:
    """Cut rows lo .. hi-1 in two at the median v of their widest feature (rows
    moved in place); return the first row of the upper part, or -1 when all rows
    are equal.  The feature goes to ``dim``, the two parts' intervals in it to
    ``cuts`` (low and high of the lower part, then of the upper).

    The rows equal to v all go to one side, the side that leaves the parts nearer
    halves: the parts' intervals then do not meet, and a query can be nearer to
    one of them only (exact duplicates stay together).  Should that leave a part
    under a quarter of the rows, the cut is at the median position instead (the
    rows equal to v on both sides).  The widest feature is judged on a sample of
    the rows (on all of them when the sample's are all equal)."""
    cdef intp_t s, widest, m = hi - lo, mid = lo + (hi - lo) // 2
    cdef intp_t below, above, cut, smallest_part = max(1, (hi - lo) // 4)
    cdef intp_t settled[2]
    cdef floating value, key, lower_low, lower_high, upper_low, upper_high
    cdef floating under, over  # the largest value below v, the smallest above
    cdef floating extremes[4]
    widest = _widest_feature(data, lo, hi, n_features, WIDEST_SAMPLE, low, high)
    if widest < 0 and m > WIDEST_SAMPLE:
        widest = _widest_feature(data, lo, hi, n_features, m, low, high)
    if widest < 0:
        return -1
    select_nth(data, order, lo, hi, mid, widest, n_features, True, extremes, settled)
    value = data[mid * n_features + widest]
    # The rows equal to v move next to mid (which holds one), [below v][equal to
    # v][above v] with rows below .. above-1 equal to v; the selection tells which
    # rows are surely below v (lo .. settled[0]-1) or above it, so only the others
    # are read, for the rows equal to v and the extremes the parts' intervals need.
    # No row before mid is above v, none after it below v.
    lower_low, upper_high = extremes[0], extremes[1]
    under = extremes[2] if settled[0] > lo else -INFINITY
    below = mid
    for s in range(mid - 1, settled[0] - 1, -1):
        key = data[s * n_features + widest]
        if key == value:
            below -= 1
            swap_rows(data, order, s, below, n_features, True)
        else:
            under = max(under, key)
    over = extremes[3] if settled[1] < hi - 1 else INFINITY
    above = mid + 1
    for s in range(mid + 1, settled[1] + 1):
        key = data[s * n_features + widest]
        if key == value:
            swap_rows(data, order, s, above, n_features, True)
            above += 1
        else:
            over = min(over, key)
    cut = mid  # (the median position, should neither side do)
    if below - lo >= smallest_part:
        cut = below
    if hi - above >= smallest_part and (below - lo < smallest_part
                                        or above - mid < mid - below):
        cut = above
    # The lower part is rows lo .. cut-1, the upper cut .. hi-1: the rows equal to
    # v (mid among them) are in the upper part unless the cut is above them all.
    lower_high = under if cut == below else value
    upper_low = over if cut == above else value
    dim[0] = widest
    cuts[0], cuts[1] = lower_low, lower_high
    cuts[2], cuts[3] = upper_low, upper_high
    return cut


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


def measure_nodes(metric, floating[:, ::1] data, intp_t[::1] order, nodes,
                  floating[:, ::1] centers, double[::1] radius, floating[:, ::1] low,
                  floating[:, ::1] high, double[::1] to_center, bint sort_leaves=True):
    """Fill ``centers`` (M_p), ``radius`` (r_p), the bounding boxes ``low`` /
    ``high`` and, at the leaves, ``to_center`` (D(x_i, M_p) for ``metric``, a
    `Metric`; with ``sort_leaves`` sorted, the leaf's rows of ``data`` and
    ``order`` reordered to match; without it, nothing is written to ``data`` or
    ``order``), for the nodes ``(node_start, node_end, node_child, node_nchild)``
    (intp)."""
    cdef const intp_t[::1] node_start = nodes[0], node_end = nodes[1]
    cdef const intp_t[::1] node_nchild = nodes[3]
    cdef MetricKind kind = <MetricKind> <int> metric.kind
    cdef double p = metric.p
    cdef intp_t n_nodes = node_start.shape[0], n_features = data.shape[1]
    cdef intp_t node, lo, hi, s, j, largest = 1
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
                d = rdist_to_dist(kind, p, rdist(kind, p, &data[s, 0],
                                                 &centers[node, 0], n_features))
                if d > r:
                    r = d
                if node_nchild[node] == 0:
                    ranked[s - lo].distance = d
                    ranked[s - lo].row = s
            radius[node] = r
            if node_nchild[node] == 0 and not sort_leaves:
                for s in range(hi - lo):
                    to_center[lo + s] = ranked[s].distance
            elif node_nchild[node] == 0:
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


# -- the k-means partition ------------------------------------------------------------
#
# kmeans_partition splits a node of more than leaf_size samples into (at most)
# `branching` clusters: k-means++ seeds and KMEANS_ITER Lloyd iterations on a random
# sample of at most KMEANS_SAMPLE of the node's samples, then every sample goes to its
# nearest centre and the rows are regrouped cluster by cluster (empty clusters are
# dropped).  Should k-means leave everything in one cluster, the node is cut at the
# median of its widest feature instead; identical samples stay together in one leaf.
# k-means runs on the samples shifted by the node's mean and divided by its largest
# deviation, so its squared distances stay finite whatever the data's magnitude.
# The random numbers come from a xorshift generator seeded by the caller
# (random_state): the tree's shape depends on it, the answers do not.

cdef enum:
    KMEANS_SAMPLE = 2048
    KMEANS_ITER = 8
    MAX_CLUSTERS = 64


cdef struct KMeansWork:
    # what the k-means cuts of one partition share: the random state and the
    # scratch arrays, allocated once by `partition` (sizes there)
    unsigned long long state
    intp_t n_features
    double* shift       # the node's mean ...
    double* centers     # ... the centres, scaled (MAX_CLUSTERS x n_features)
    double* sums        # ... their sums in Lloyd's iterations
    intp_t* counts      # ... and how many samples each has
    intp_t* sample      # the rows sampled (KMEANS_SAMPLE)
    double* weight      # ... their squared distances to the nearest seed
    intp_t* labels      # each row's cluster
    void* rows          # the rows regrouped (floating, as the data)
    intp_t* indices     # ... and their indices


cdef inline unsigned long long _next_random(unsigned long long* state) noexcept nogil:
    """xorshift64*: the next pseudo-random 64-bit number."""
    cdef unsigned long long x = state[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    state[0] = x
    return x * 2685821657736338717ULL


cdef inline double _uniform(unsigned long long* state) noexcept nogil:
    """A pseudo-random number in [0, 1)."""
    return (_next_random(state) >> 11) * (1.0 / 9007199254740992.0)


cdef inline double _scaled_sqdist(const floating* row, const double* shift, double scale,
                                  const double* center, intp_t n_features) noexcept nogil:
    cdef double total = 0, diff
    cdef intp_t j
    for j in range(n_features):
        diff = (row[j] - shift[j]) / scale - center[j]
        total += diff * diff
    return total


cdef intp_t _nearest_center(const floating* row, const double* shift, double scale,
                            const double* centers, intp_t n_clusters,
                            intp_t n_features) noexcept nogil:
    cdef intp_t c, best = 0
    cdef double d, best_d = INFINITY
    for c in range(n_clusters):
        d = _scaled_sqdist(row, shift, scale, &centers[c * n_features], n_features)
        if d < best_d:
            best, best_d = c, d
    return best


cdef intp_t _kmeans_labels(const floating* data, intp_t lo, intp_t hi,
                           intp_t n_clusters, KMeansWork* work) noexcept nogil:
    """Cluster rows lo .. hi-1 into labels[0 .. hi-lo-1] (of ``work``); return the
    number of clusters that received a sample."""
    cdef intp_t n_features = work.n_features
    cdef unsigned long long* state = &work.state
    cdef double* shift = work.shift
    cdef double* centers = work.centers
    cdef double* sums = work.sums
    cdef intp_t* counts = work.counts
    cdef intp_t* sample = work.sample
    cdef double* weight = work.weight
    cdef intp_t* labels = work.labels
    cdef intp_t m = hi - lo, n_sample, s, t, c, j, _iteration, chosen, used
    cdef double scale = 0, total, target, d
    # shift and scale: the mean and the largest deviation from it
    for j in range(n_features):
        shift[j] = 0
    for s in range(lo, hi):
        for j in range(n_features):
            shift[j] += data[s * n_features + j] / m
    for s in range(lo, hi):
        for j in range(n_features):
            scale = max(scale, fabs(data[s * n_features + j] - shift[j]))
    if not scale > 0:
        scale = 1.0  # (identical samples; an overflowing span ends in the median cut)
    # the sample (drawn with replacement when the node is large)
    if m > KMEANS_SAMPLE:
        n_sample = KMEANS_SAMPLE
        for t in range(n_sample):
            sample[t] = lo + <intp_t> (_uniform(state) * m)
    else:
        n_sample = m
        for t in range(n_sample):
            sample[t] = lo + t
    # k-means++ seeds: the first at random, each next one with probability
    # proportional to its squared distance from the nearest seed so far
    chosen = sample[<intp_t> (_uniform(state) * n_sample)]
    for j in range(n_features):
        centers[j] = (data[chosen * n_features + j] - shift[j]) / scale
    for t in range(n_sample):
        weight[t] = _scaled_sqdist(&data[sample[t] * n_features], shift, scale,
                                   centers, n_features)
    for c in range(1, n_clusters):
        total = 0
        for t in range(n_sample):
            total += weight[t]
        chosen = sample[<intp_t> (_uniform(state) * n_sample)]
        if total > 0:
            target = _uniform(state) * total
            for t in range(n_sample):
                target -= weight[t]
                if target < 0:
                    chosen = sample[t]
                    break
        for j in range(n_features):
            centers[c * n_features + j] = (data[chosen * n_features + j]
                                           - shift[j]) / scale
        for t in range(n_sample):
            d = _scaled_sqdist(&data[sample[t] * n_features], shift, scale,
                               &centers[c * n_features], n_features)
            if d < weight[t]:
                weight[t] = d
    # Lloyd's iterations on the sample (an empty cluster keeps its centre)
    for _iteration in range(KMEANS_ITER):
        for c in range(n_clusters):
            counts[c] = 0
            for j in range(n_features):
                sums[c * n_features + j] = 0
        for t in range(n_sample):
            c = _nearest_center(&data[sample[t] * n_features], shift, scale, centers,
                                n_clusters, n_features)
            counts[c] += 1
            for j in range(n_features):
                sums[c * n_features + j] += (data[sample[t] * n_features + j]
                                             - shift[j]) / scale
        for c in range(n_clusters):
            if counts[c] > 0:
                for j in range(n_features):
                    centers[c * n_features + j] = sums[c * n_features + j] / counts[c]
    # every sample of the node to its nearest centre
    for c in range(n_clusters):
        counts[c] = 0
    for s in range(lo, hi):
        c = _nearest_center(&data[s * n_features], shift, scale, centers, n_clusters,
                            n_features)
        labels[s - lo] = c
        counts[c] += 1
    used = 0
    for c in range(n_clusters):
        if counts[c] > 0:
            used += 1
    return used


cdef intp_t _kmeans_cut(floating* data, intp_t* order, intp_t lo, intp_t hi,
                        intp_t n_clusters, KMeansWork* work,
                        intp_t* cluster_start) noexcept nogil:
    """Cut rows lo .. hi-1 into k-means clusters, regrouped cluster by cluster (each
    keeps the rows' order); return how many, their first rows in cluster_start."""
    cdef intp_t n_features = work.n_features
    cdef intp_t* counts = work.counts
    cdef intp_t* labels = work.labels
    cdef floating* rows = <floating*> work.rows
    cdef intp_t* indices = work.indices
    cdef intp_t used, c, s, position = 0
    used = _kmeans_labels(data, lo, hi, n_clusters, work)
    if used < 2:
        return used
    used = 0
    for c in range(n_clusters):
        if counts[c] == 0:
            continue
        cluster_start[used] = lo + position
        used += 1
        for s in range(lo, hi):
            if labels[s - lo] == c:
                memcpy(&rows[position * n_features], &data[s * n_features],
                       n_features * sizeof(floating))
                indices[position] = order[s]
                position += 1
    memcpy(&data[lo * n_features], rows, (hi - lo) * n_features * sizeof(floating))
    memcpy(&order[lo], indices, (hi - lo) * sizeof(intp_t))
    return used


def partition(floating[:, ::1] data, intp_t[::1] order, intp_t leaf_size,
              bint kmeans, intp_t branching, unsigned long long seed, nodes,
              floating[:, ::1] cuts, root_box):
    """Split ``data`` (reordered in place, ``order`` alongside) into the k-d
    partition, or with ``kmeans`` into the hierarchical k-means one (``branching``
    and ``seed`` are used only there), depth first.  ``nodes``, the node arrays
    ``(node_start, node_end, node_child, node_nchild, node_dim)`` (intp), must hold
    the largest possible number of nodes.  A node cut at a median gets its feature
    in ``node_dim`` (-1 elsewhere) and, in the k-d partition, each of its two
    children its interval in that feature in ``cuts`` (unused with ``kmeans``: one
    row is enough); ``root_box``, ``(root_low, root_high)`` of the data's dtype,
    receives the bounding box of all samples.  Returns ``(n_nodes, depth)``."""
    cdef intp_t[::1] node_start = nodes[0], node_end = nodes[1]
    cdef intp_t[::1] node_child = nodes[2], node_nchild = nodes[3]
    cdef intp_t[::1] node_dim = nodes[4]
    cdef floating[::1] root_low = root_box[0], root_high = root_box[1]
    cdef intp_t n = data.shape[0], n_features = data.shape[1]
    cdef intp_t capacity = node_start.shape[0]
    cdef intp_t n_nodes = 1, top, node, lo, hi, c, used, n_clusters, depth = 0
    cdef KMeansWork work
    cdef intp_t cluster_start[MAX_CLUSTERS]
    cdef floating interval[4]
    cdef intp_t n_rows = max(n, 2) if kmeans else 2
    cdef double* shift = <double*> malloc(n_features * sizeof(double))
    cdef double* centers = <double*> malloc(MAX_CLUSTERS * n_features * sizeof(double))
    cdef double* sums = <double*> malloc(MAX_CLUSTERS * n_features * sizeof(double))
    cdef intp_t* counts = <intp_t*> malloc(MAX_CLUSTERS * sizeof(intp_t))
    cdef intp_t* sample = <intp_t*> malloc(KMEANS_SAMPLE * sizeof(intp_t))
    cdef double* weight = <double*> malloc(KMEANS_SAMPLE * sizeof(double))
    cdef intp_t* labels = <intp_t*> malloc(n_rows * sizeof(intp_t))
    cdef floating* rows = <floating*> malloc(n_rows * n_features * sizeof(floating))
    cdef intp_t* indices = <intp_t*> malloc(n_rows * sizeof(intp_t))
    cdef intp_t* stack = <intp_t*> malloc(capacity * sizeof(intp_t))
    cdef intp_t* level = <intp_t*> malloc(capacity * sizeof(intp_t))
    cdef SignalWatch watch
    cdef bint stopped = False, failed = False
    watch.work = 0
    work.state = seed | 1
    work.n_features = n_features
    work.shift, work.centers, work.sums, work.counts = shift, centers, sums, counts
    work.sample, work.weight, work.labels = sample, weight, labels
    work.rows, work.indices = rows, indices
    node_start[0] = 0
    node_end[0] = n
    node_child[0] = 0
    node_nchild[0] = 0
    node_dim[0] = -1
    if n > 0:
        _bounding_box(&data[0, 0], 0, n, 1, n_features, &root_low[0],
                      &root_high[0])
    if (shift == NULL or centers == NULL or sums == NULL or counts == NULL
            or sample == NULL or weight == NULL or labels == NULL or rows == NULL
            or indices == NULL or stack == NULL or level == NULL):
        failed = True
    with nogil:
        stack[0] = 0
        level[0] = 0
        top = 0 if failed else 1
        while top > 0:
            top -= 1
            node = stack[top]
            lo, hi = node_start[node], node_end[node]
            if level[node] > depth:
                depth = level[node]
            if hi - lo <= leaf_size:
                continue
            used = 0
            n_clusters = 2
            if kmeans:
                # no more clusters than needed to bring the pieces down to leaf_size
                n_clusters = max(2, min(branching, (hi - lo + leaf_size - 1)
                                        // leaf_size))
                used = _kmeans_cut(&data[0, 0], &order[0], lo, hi, n_clusters, &work,
                                   cluster_start)
            if used < 2:
                # the k-d cut, also when k-means put everything together
                cluster_start[0] = lo
                cluster_start[1] = _median_cut(&data[0, 0], &order[0], lo, hi,
                                               n_features, rows, &rows[n_features],
                                               &node_dim[node], interval)
                if cluster_start[1] < 0:
                    continue  # identical samples: they stay together in one leaf
                used = 2
                if not kmeans and n_nodes + 2 <= capacity:
                    cuts[n_nodes, 0], cuts[n_nodes, 1] = interval[0], interval[1]
                    cuts[n_nodes + 1, 0] = interval[2]
                    cuts[n_nodes + 1, 1] = interval[3]
            if n_nodes + used > capacity:
                failed = True
                break
            node_child[node] = n_nodes
            node_nchild[node] = used
            for c in range(used):
                node_start[n_nodes + c] = cluster_start[c]
                node_end[n_nodes + c] = cluster_start[c + 1] if c + 1 < used else hi
                node_child[n_nodes + c] = 0
                node_nchild[n_nodes + c] = 0
                node_dim[n_nodes + c] = -1
                level[n_nodes + c] = level[node] + 1
                stack[top + used - 1 - c] = n_nodes + c  # the first child on top
            top += used
            n_nodes += used
            if stop_after(&watch, ((KMEANS_ITER + 3) * min(hi - lo, KMEANS_SAMPLE)
                                   + hi - lo) * n_clusters * n_features):
                stopped = True
                break
    free(shift)
    free(centers)
    free(sums)
    free(counts)
    free(sample)
    free(weight)
    free(labels)
    free(rows)
    free(indices)
    free(stack)
    free(level)
    if stopped:
        raise_interrupt()
    if failed:
        raise MemoryError()
    return n_nodes, depth


def cell_spans(intp_t[::1] node_child, intp_t[::1] node_dim, const floating[:, ::1] cuts,
               const floating[::1] root_low, const floating[::1] root_high,
               floating[:, ::1] spans):
    """For every node of a k-d partition cut along feature j (``node_dim``), the
    interval of its cell in j into ``spans``: that of its nearest ancestor-or-self
    cut out of its parent along j (``cuts``), else the root's box.  O(nodes x
    depth); the rows of uncut nodes are left alone."""
    cdef intp_t n_nodes = node_dim.shape[0], node, ancestor, j
    cdef intp_t* parent = <intp_t*> malloc(max(n_nodes, 1) * sizeof(intp_t))
    if parent == NULL:
        raise MemoryError()
    with nogil:
        for node in range(n_nodes):
            if node_dim[node] >= 0:
                parent[node_child[node]] = node
                parent[node_child[node] + 1] = node
        for node in range(n_nodes):
            j = node_dim[node]
            if j < 0:
                continue
            ancestor = node
            while ancestor != 0 and node_dim[parent[ancestor]] != j:
                ancestor = parent[ancestor]
            if ancestor == 0:
                spans[node, 0], spans[node, 1] = root_low[j], root_high[j]
            else:
                spans[node, 0], spans[node, 1] = cuts[ancestor, 0], cuts[ancestor, 1]
    free(parent)
