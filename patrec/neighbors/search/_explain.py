"""The branch-and-bound search of one query, step by step (`BranchBoundTree.explain`).

This walk reads the same `SearchTree` as the compiled search (``_bnb_tree.pyx``) and
repeats its every decision in Python: the same distances (computed by the same
kernels, through `Metric.reduced`), the same rounding margins, the same order of
the children, the same window of each leaf, the same bounded list of the k best
with ties to the lower index.  So it gives the very answer of ``query`` and makes
the same number of distance evaluations, while writing down what happened.  The
compiled search is not touched: explaining costs nothing when nobody asks.
"""

import math

import numpy as np

from ._bnb_tree import box_rdist
from ._distances import KINDS

_SQEUCLIDEAN = KINDS["sqeuclidean"]

ENTERED_DTYPE = np.dtype(
    [("node", np.intp), ("distance", np.float64), ("bound", np.float64)]
)
PRUNED_DTYPE = np.dtype(
    [
        ("node", np.intp),
        ("distance", np.float64),
        ("bound", np.float64),
        ("radius", np.float64),
    ]
)
BOXED_DTYPE = np.dtype(
    [("node", np.intp), ("distance", np.float64), ("bound", np.float64)]
)
SKIPPED_DTYPE = np.dtype(
    [
        ("node", np.intp),
        ("sample", np.intp),
        ("to_center", np.float64),
        ("distance", np.float64),
        ("bound", np.float64),
        ("far", np.bool_),
    ]
)
UPDATE_DTYPE = np.dtype(
    [("sample", np.intp), ("distance", np.float64), ("bound", np.float64)]
)
EVALUATION_DTYPE = np.dtype(
    [("node", np.intp), ("sample", np.intp), ("distance", np.float64)]
)


class SearchExplanation:
    """What `BranchBoundTree.explain` found: one query's search, step by step.

    Distances are true distances (euclidean for ``"sqeuclidean"``, as the search
    works); B is the distance to the k-th best sample found so far (infinite until
    k samples were seen).

    Attributes
    ----------
    query : ndarray of shape (n_features,)
        The query x (mapped by the metric, for ``"mahalanobis"``).
    k : int
        Neighbours searched for.
    indices : ndarray of shape (k,)
        The answer: training indices of the k nearest samples, nearest first (equal
        to ``query``'s).
    distances : ndarray of shape (k,)
        Their distances (equal to ``query``'s, in the tree's dtype).
    entered : structured ndarray
        The nodes in the order the search entered them, the root first: ``node``,
        ``distance`` D(x, M_p) (0 for an internal root, never measured; NaN for
        the internal nodes of the k-d partition, pruned by their boxes alone, and
        for its leaves in the euclidean search, which scans them whole) and
        ``bound``, B on entering.
    pruned : structured ndarray
        The nodes skipped by rule 1, D(x, M_p) > B + r_p (for the k-d partition:
        leaves whose box did not prune them), in order: ``node``,
        ``distance`` D(x, M_p), ``bound`` B and ``radius`` r_p at that moment.
    pruned_by_box : structured ndarray
        The nodes of the k-d partition skipped by the box rule, D(x, box_p) > B
        (always empty for ``partition="kmeans"``):
        ``node``, ``distance`` D(x, box_p), the distance from x to the nearest
        point of the node's bounding box, and ``bound`` B.  The euclidean search
        uses the node's cell instead (its box in the feature its parent was cut
        on, its ancestors' in the others; a lower bound of the box distance,
        updated in O(1)).
    skipped : structured ndarray
        The samples of entered leaves skipped by rule 2: ``node`` (the leaf),
        ``sample`` (training index), ``to_center`` D(x_i, M_p), ``distance``
        D(x, M_p), ``bound`` B, and ``far``: False for the course's rule 2,
        D(x, M_p) > B + D(x_i, M_p), True for the other side of the triangle
        inequality, D(x_i, M_p) > B + D(x, M_p).
    bound_updates : structured ndarray
        Every sample that entered the k best, in order: ``sample``, its
        ``distance`` and the ``bound`` B after it (infinite while fewer than k
        samples were seen).
    distance_evaluations : structured ndarray
        Every distance computed, in order: to a node's mean (``node`` >= 0,
        ``sample`` = -1), to a node's bounding box (k-d partition; ``sample`` = -2)
        or to a sample (``node`` the leaf, ``sample`` its training index), and the
        ``distance``.  Its length is the count
        ``query(..., return_counts=True)`` reports.

    Notes
    -----
    Each rule prunes only when it holds with a small margin for rounding errors
    (see `BranchBoundTree`), so every pruned node and skipped sample satisfies the
    textbook's inequality, with room to spare.
    """

    def __init__(
        self,
        query,
        k,
        indices,
        distances,
        entered,
        pruned,
        pruned_by_box,
        skipped,
        bound_updates,
        distance_evaluations,
    ):
        self.query = query
        self.k = k
        self.indices = indices
        self.distances = distances
        self.entered = entered
        self.pruned = pruned
        self.pruned_by_box = pruned_by_box
        self.skipped = skipped
        self.bound_updates = bound_updates
        self.distance_evaluations = distance_evaluations

    def __repr__(self):
        return (
            f"SearchExplanation(k={self.k}, entered={len(self.entered)} nodes, "
            f"pruned={len(self.pruned)} nodes by rule 1 and "
            f"{len(self.pruned_by_box)} by the box rule, skipped="
            f"{len(self.skipped)} samples by rule 2, "
            f"distance_evaluations={len(self.distance_evaluations)})"
        )


def explain_search(tree, x, k):
    """Walk ``tree`` for the prepared query ``x`` (1-D, the tree's dtype) as
    ``_bnb_tree.knn_search`` does, recording every step."""
    return _Walk(tree, x, k).run()


def _gap(x, low, high):
    """The distance from x to the interval [low, high] (as _bnb_tree._gap)."""
    below, above = low - x, x - high
    if above > below:
        below = above
    return below if below > 0 else 0.0


class _Walk:
    def __init__(self, tree, x, k):
        self.tree = tree._tree  # the compiled tree's arrays, read by name below
        self.metric = tree._metric
        self.squared = self.metric.kind == _SQEUCLIDEAN
        self.x = x
        self.k = k
        # the k best (reduced distance, training index), best first; sentinels
        self.best = [(np.inf, np.iinfo(np.intp).max)] * k
        self.bound = math.inf
        self.entered, self.pruned, self.boxed, self.skipped = [], [], [], []
        self.updates, self.evaluations = [], []

    def reduced(self, rows):
        """Reduced distances from x to ``rows``, by the search's own kernel."""
        return self.metric.reduced(self.x[None, :], rows)[0]

    def true(self, reduced):
        return math.sqrt(reduced) if self.squared else float(reduced)

    def run(self):
        if self.tree.use_boxes and self.squared:
            self.search_cells()
        elif self.tree.use_boxes:
            self.visit_boxes(0, 0.0)
        else:
            d_root = 0.0
            if (
                self.tree.node_nchild[0] == 0
            ):  # the root's distance matters only at a leaf
                d_root = self.true(self.reduced(self.tree.centers[:1])[0])
                self.evaluations.append((0, -1, d_root))
            self.visit(0, d_root)
        best = sorted(self.best)
        reduced = np.array([[d for d, _ in best]], dtype=self.tree.data.dtype)
        distances = self.metric.finish(reduced)[0]
        indices = np.array([i for _, i in best], dtype=np.intp)
        return SearchExplanation(
            self.x.copy(),
            self.k,
            indices,
            distances,
            np.array(self.entered, dtype=ENTERED_DTYPE),
            np.array(self.pruned, dtype=PRUNED_DTYPE),
            np.array(self.boxed, dtype=BOXED_DTYPE),
            np.array(self.skipped, dtype=SKIPPED_DTYPE),
            np.array(self.updates, dtype=UPDATE_DTYPE),
            np.array(self.evaluations, dtype=EVALUATION_DTYPE),
        )

    def visit(self, node, d_node):
        self.entered.append((node, d_node, self.bound))
        first, n_children = self.tree.node_child[node], self.tree.node_nchild[node]
        if n_children == 0:
            self.scan_leaf(node, d_node)
            return
        # Expand: D(x, M_c) of every child (squared for euclidean), nearest first.
        children = np.arange(first, first + n_children)
        measured = [float(d) for d in self.reduced(self.tree.centers[children])]
        for child, d in zip(children, measured):
            self.evaluations.append((child, -1, self.true(d)))
        for c in np.argsort(measured, kind="stable"):
            child, d = int(children[c]), measured[c]
            # Rule 1: D(x, M_c) > B + r_c, with the search's rounding margin.
            limit = (
                self.bound + self.tree.radius[child]
            ) * self.tree.grow + self.tree.tiny
            if (d > limit * limit) if self.squared else (d > limit):
                self.pruned.append(
                    (child, self.true(d), self.bound, self.tree.radius[child])
                )
                continue
            self.visit(child, self.true(d))

    def beyond(self, reduced, limit):
        return (reduced > limit * limit) if self.squared else (reduced > limit)

    def visit_boxes(self, node, box):
        """The k-d partition: the box rule at the internal nodes, rules 1 and 2 at
        the leaves."""
        first, n_children = self.tree.node_child[node], self.tree.node_nchild[node]
        if n_children == 0:
            d = float(self.reduced(self.tree.centers[node : node + 1])[0])
            self.evaluations.append((node, -1, self.true(d)))
            limit = (
                self.bound + self.tree.radius[node]
            ) * self.tree.grow + self.tree.tiny
            if self.beyond(d, limit):  # rule 1
                self.pruned.append(
                    (node, self.true(d), self.bound, self.tree.radius[node])
                )
                return
            self.entered.append((node, self.true(d), self.bound))
            self.scan_leaf(node, self.true(d))
            return
        self.entered.append((node, np.nan, self.bound))
        # Expand: x's distance to every child's box, nearest box first.
        children = np.arange(first, first + n_children)
        measured = [
            box_rdist(
                self.metric.kind,
                self.metric.p,
                self.x,
                self.tree.low[c],
                self.tree.high[c],
            )
            for c in children
        ]
        for child, box in zip(children, measured):
            self.evaluations.append((child, -2, self.true(box)))
        for c in np.argsort(measured, kind="stable"):
            child, box = int(children[c]), measured[c]
            # The box rule: D(x, box) > B, with the search's rounding margin.
            if self.beyond(box, self.bound * self.tree.grow + self.tree.tiny):
                self.boxed.append((child, self.true(box), self.bound))
                continue
            self.visit_boxes(child, box)

    # -- the euclidean k-d search (_search_kd_sq): the box rule on cells whose
    # distance is updated in O(1) on the way down, whole leaves scanned.

    def box_limit(self):
        """(B * grow + tiny)^2: the reduced distance beyond which a cell is pruned."""
        if self.bound == math.inf:
            return math.inf
        limit = self.bound * self.tree.grow + self.tree.tiny
        return limit * limit

    def search_cells(self):
        x, low, high = self.x, self.tree.low[0], self.tree.high[0]
        gaps = [_gap(float(x[j]), float(low[j]), float(high[j])) for j in range(len(x))]
        cell = 0.0
        for gap in gaps:  # (in the compiled search's order, for the same rounding)
            cell += gap * gap
        self.evaluations.append((0, -2, math.sqrt(cell)))
        self.visit_cell(0, cell, gaps)

    def visit_cell(self, node, cell, gaps):
        """Node ``node`` whose cell is at reduced distance ``cell``; ``gaps`` holds
        the distance from x to the cell's interval of each feature."""
        self.entered.append((node, np.nan, self.bound))
        first, n_children = self.tree.node_child[node], self.tree.node_nchild[node]
        if n_children == 0:  # a leaf: every sample gets its distance
            start, stop = self.tree.node_start[node], self.tree.node_end[node]
            reduced = self.reduced(self.tree.data[start:stop])
            for s in range(start, stop):
                sample = int(self.tree.order[s])
                self.evaluations.append((node, sample, self.true(reduced[s - start])))
                if self.push(reduced[s - start], sample):
                    self.updates.append(
                        (sample, self.true(reduced[s - start]), self.bound)
                    )
            return
        # The children's cells: the parent's with feature j narrowed to the child's
        # own interval, so only gap j changes (Arya and Mount's update).
        j = int(self.tree.kd_nodes[node, 1])
        x_j, old = float(self.x[j]), gaps[j]
        children = []
        for child in (first, first + 1):
            low, high = self.tree.kd_cuts[child]
            gap = _gap(x_j, float(low), float(high))
            children.append((cell + (gap - old) * (gap + old), child, gap))
        if children[1][0] < children[0][0]:  # nearest cell first
            children.reverse()
        for child_cell, child, gap in children:
            # The box rule: the cell, and every sample in it, is farther than B.
            if child_cell > self.box_limit():
                self.boxed.append((child, math.sqrt(child_cell), self.bound))
                continue
            gaps[j] = gap
            self.visit_cell(child, child_cell, gaps)
        gaps[j] = old

    def scan_leaf(self, node, d_node):
        start, stop = self.tree.node_start[node], self.tree.node_end[node]
        # Rule 2: D(x_i, M) < (D(x, M) - tiny) / grow - B: the samples before the
        # window (D(x_i, M) is sorted within the leaf).
        low = (d_node - self.tree.tiny) / self.tree.grow - self.bound
        s = start + int(
            np.searchsorted(self.tree.to_center[start:stop], low, side="left")
        )
        for t in range(start, s):
            self.skip(node, t, d_node, far=False)
        # ... and the other side: D(x_i, M) > (B + D(x, M)) * grow + tiny ends it.
        high = (self.bound + d_node) * self.tree.grow + self.tree.tiny
        while s < stop and self.tree.to_center[s] <= high:
            reduced = self.reduced(self.tree.data[s : s + 1])[0]
            sample = int(self.tree.order[s])
            self.evaluations.append((node, sample, self.true(reduced)))
            if self.push(reduced, sample):
                self.updates.append((sample, self.true(reduced), self.bound))
                high = (self.bound + d_node) * self.tree.grow + self.tree.tiny
            s += 1
        for t in range(s, stop):
            self.skip(node, t, d_node, far=True)

    def skip(self, node, position, d_node, far):
        self.skipped.append(
            (
                node,
                int(self.tree.order[position]),
                self.tree.to_center[position],
                d_node,
                self.bound,
                far,
            )
        )

    def push(self, reduced, sample):
        """Offer (reduced, sample) to the k best; True when it entered (then B is
        the new k-th best distance)."""
        worst = self.best[-1]
        if not (reduced < worst[0] or (reduced == worst[0] and sample < worst[1])):
            return False
        self.best[-1] = (reduced, sample)
        self.best.sort()
        worst = self.best[-1][0]
        self.bound = math.inf if worst == np.inf else self.true(worst)
        return True
