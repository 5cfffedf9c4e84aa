"""The Fukunaga–Narendra branch-and-bound tree for exact nearest-neighbour search.

Offline, the training samples are organised as a tree of subsets.  The course's
construction, ``partition="kmeans"``: hierarchical k-means splits the whole set into
``branching`` clusters, each cluster again, and so on until a subset holds at most
``leaf_size`` samples.  The default, ``partition="kd"``: each subset is cut in two
near-halves at the median of its widest feature (the samples equal to the median on
one side, so that exact duplicates stay together), again until the leaves are small
(a k-d tree).  Each node p stores

- M_p, the mean of its samples,
- r_p = max D(x_i, M_p), the distance from the mean to its farthest sample,
- at the leaves, every D(x_i, M_p), sorted.

Online, a query x walks the tree nearest child first, with B the distance to the
best neighbour found so far (for k-NN: the k-th best).  The triangle inequality gives
two rules:

- Rule 1: if D(x, M_p) > B + r_p, no sample of node p can beat B: skip the node.
- Rule 2: if D(x, M_p) > B + D(x_i, M_p), sample x_i cannot beat B: skip it.  The
  other side of the inequality skips x_i when D(x_i, M_p) > B + D(x, M_p).

The rules hold for any partition.  The nodes of the k-d partition are boxes, and its
search adds a third rule:

- Box rule: if the distance from x to the nearest point of node p's bounding box
  exceeds B, no sample of p can beat B: skip the node.

There the children of a node are visited nearest box first, pruned by the box rule.
For the euclidean metric (the common case) the box distance is updated in O(1) on the
way down (Arya and Mount: a child's cell differs from its parent's in the one feature
the parent was cut on) and every sample of a leaf reached gets its distance: at a
leaf, rules 1 and 2 were measured to cost more than they save.  For the other
metrics the box distance is measured at each node, and rules 1 and 2 are applied at
the leaves (where D(x, M_p) is computed).

Only the samples that survive the rules get a distance computed.  The search is
exact: it returns what brute force returns.  The construction's loops live in
``_bnb_build.pyx`` (k-d cuts, and the means, radii, boxes and sorted leaf distances
of either partition), the search in ``_bnb_tree.pyx``.
"""

import numbers
import time
from typing import NamedTuple

import numpy as np

from ..._progress import Reporter
from ..._validation import check_option, check_random_state, check_scalar
from . import _bnb_build, _bnb_tree
from ._distances import KINDS
from ._explain import explain_search
from ._index import NeighborIndex

__all__ = ["BranchBoundTree"]

# Batches of at least this many queries are searched in space-filling-curve order.
_LOCALITY_MIN_QUERIES = 256
# The partitions of the training set the search runs over (see the class docstring).
PARTITIONS = ("kd", "kmeans")
_KMEANS_BRANCHING = 4
_LEAF_SIZE = {"kd": 32, "kmeans": 64}


class BranchBoundTree(NeighborIndex):
    """Exact k-nearest-neighbour and radius search by branch and bound.

    Which rules prune depends on the partition.  The course's Fukunaga–Narendra
    search, rules 1 and 2 on a tree of k-means clusters, is
    ``BranchBoundTree(X, partition="kmeans")``.  The default, ``partition="kd"``
    (faster, same answers), prunes whole nodes by the box rule; with the euclidean
    metric it applies neither rule 1 nor rule 2 and scans the leaves it reaches,
    with the other metrics it applies rules 1 and 2 at the leaves.  `explain`
    records the rules of whichever partition the tree has.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training samples (copied).  float32 data are searched in float32.
    metric : str, default="euclidean"
        One of `patrec.neighbors.METRICS`; all are metrics (triangle inequality), the
        search rules apply to each.  ``"sqeuclidean"`` is searched as euclidean.
    p : float, default=2
        Minkowski order (``p >= 1``) for ``metric="minkowski"``.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``.
    partition : {"kd", "kmeans"}, default="kd"
        How the samples are split into the tree's subsets.  ``"kd"``: near-halves at
        the median of the widest feature (a k-d tree; searched with the box rule, and
        rules 1 and 2 at the leaves except for the euclidean metric, whose leaves
        are scanned whole).  ``"kmeans"``: hierarchical k-means, the course's
        construction, searched by rules 1 and 2 alone.  The default was measured
        faster on uniform, clustered and real data in 2 to 16 dimensions, and it
        builds in a fraction of the time; the answers are the same.
    branching : int, default=None
        The most k-means clusters a node is split into (2 to 64; None: 4); a node
        only a little above ``leaf_size`` is split into just as many as it needs.
        The k-d partition always cuts in two: None or 2 only.
    leaf_size : int, default=None
        A node with at most this many samples is a leaf.  None: 32 for the k-d
        partition, 64 for k-means (the fastest measured).
    random_state : int, numpy Generator or None, default=None
        Seeds the k-means splits: the k-means tree's shape depends on it, the
        answers do not.  The k-d partition draws nothing at random and does not
        use it.
    verbose : int or bool, default=0
        Progress of the construction on standard error: 1 reports the tree built
        (nodes, leaves, depth, time), 2 adds a line per step (the partition, the
        measurements of the nodes).  Worth it for a million samples.
    leafsize : int, default=None
        SciPy's ``cKDTree`` name for ``leaf_size`` (give one of the two).

    Attributes
    ----------
    n_nodes : int
        Number of nodes of the tree.
    n_leaves : int
        Number of leaves.

    Notes
    -----
    Building the k-d partition costs O(n_samples * n_features * depth), depth about
    log2(n_samples / leaf_size): per node, the widest feature judged on at most 128
    of its samples and a selection of the median (Floyd and Rivest's, about 1.5
    comparisons a sample [3]_, its partitions scanned a block at a time without
    branching on the data [4]_) that moves whole rows; the euclidean tree needs
    nothing more.  For the other metrics, measuring the means, radii, boxes and leaf
    distances adds O(n_samples * n_features) per level.  A k-means tree costs one k-means run
    per internal node (on at most 2048 of its samples) plus an assignment of its
    samples, O(n_samples * branching * n_features) per level.  A query costs
    O(log n_samples) node and sample distances when the data are well clustered and
    the dimension is low; in high dimension the rules prune
    little and the cost approaches brute force's n_samples distances.
    ``query(..., return_counts=True)`` reports the count per query.

    To make the search exact in floating point, each rule prunes only when it holds
    with a small margin for rounding errors, and neighbours at equal distance are
    ordered by the lower training index, as in `BruteForce`.

    Some of SciPy's ``cKDTree`` names work too (``n``, ``m``, ``data``,
    ``query_ball_point``, a 1-D query point; see the migration guide), but this is
    not a drop-in ``cKDTree``: ``query`` answers 2-D queries in scikit-learn's
    shape, ``(n_queries, k)`` even for ``k=1``, where ``cKDTree`` answers
    ``(n_queries,)``.  An index used with those names warns of it
    once.

    See Also
    --------
    BruteForce : the same answers by comparing with every sample.
    KNeighborsClassifier : k-NN classification on either search.

    References
    ----------
    .. [1] K. Fukunaga and P. M. Narendra, "A branch and bound algorithm for computing
       k-nearest neighbors", IEEE Transactions on Computers, C-24(7), 750–753, 1975.
    .. [2] S. Arya and D. M. Mount, "Algorithms for fast vector quantization", Proc.
       Data Compression Conference, 381–390, 1993 (the incremental cell distance).
    .. [3] R. W. Floyd and R. L. Rivest, "Algorithm 489: the algorithm SELECT",
       Communications of the ACM, 18(3), 173, 1975.
    .. [4] S. Edelkamp and A. Weiß, "BlockQuicksort: avoiding branch mispredictions
       in quicksort", Proc. European Symposium on Algorithms (ESA), 38:1–38:16, 2016.

    Examples
    --------
    >>> import numpy as np
    >>> from patrec.neighbors import BranchBoundTree
    >>> X = np.random.default_rng(0).uniform(size=(1000, 2))
    >>> tree = BranchBoundTree(X, random_state=0)
    >>> distances, indices, counts = tree.query([[0.5, 0.5]], k=3, return_counts=True)
    >>> indices.shape, bool(counts[0] < 1000)
    ((1, 3), True)
    """

    def __init__(
        self,
        X,
        metric="euclidean",
        p=2,
        metric_params=None,
        partition="kd",
        branching=None,
        leaf_size=None,
        random_state=None,
        verbose=0,
        *,
        leafsize=None,
    ):
        log = Reporter(type(self).__name__, verbose)
        if leafsize is not None:
            if leaf_size is not None:
                raise TypeError(
                    "leafsize is SciPy's name for leaf_size: give one of the two."
                )
            leaf_size = leafsize
            self._used_as_ckdtree()
        self.partition = check_option(partition, "partition", PARTITIONS)
        if partition == "kd" and branching not in (None, 2):
            raise ValueError(
                f"branching={branching!r}: the k-d partition always splits a node in "
                "two; pass partition='kmeans' for more children per node."
            )
        if branching is None:
            branching = 2 if partition == "kd" else _KMEANS_BRANCHING
        if leaf_size is None:
            leaf_size = _LEAF_SIZE[partition]
        super().__init__(X, metric, p, metric_params)
        self.branching = check_scalar(
            branching, "branching", numbers.Integral, low=2, high=_bnb_tree.MAX_CHILDREN
        )
        self.leaf_size = check_scalar(leaf_size, "leaf_size", numbers.Integral, low=1)
        self.random_state = random_state
        seed = (
            int(check_random_state(random_state).integers(1, 2**63))
            if partition == "kmeans"
            else 0
        )
        started = time.perf_counter()
        self._tree = build_search_tree(
            self._data,
            self._metric,
            partition,
            self.branching,
            self.leaf_size,
            seed,
            log,
        )
        log(
            1,
            f"built {self.n_nodes} nodes ({self.n_leaves} leaves of at most "
            f"{self.leaf_size} samples, depth {self._tree.depth}) over "
            f"{self.n_samples} samples in {time.perf_counter() - started:.2f} s",
        )

    @property
    def n_nodes(self):
        return len(self._tree.node_start)

    @property
    def n_leaves(self):
        return int(np.count_nonzero(self._tree.node_nchild == 0))

    def _training_rows(self):
        rows = np.empty_like(self._data)
        rows[self._tree.order] = self._data
        return rows

    def _rows_of(self, indices):
        # (the samples are kept in tree order: sample order[i] is row i)
        positions = np.empty_like(self._tree.order)
        positions[self._tree.order] = np.arange(len(positions))
        return self._data[positions[indices]]

    # -- search -------------------------------------------------------------------

    def _kneighbors(self, X, distances, indices, evaluations, rows=None):
        _bnb_tree.knn_search(self._tree, X, distances, indices, evaluations, rows)

    def _search_order(self, X):
        """The order in which a batch of queries ``X`` is searched: a
        space-filling-curve order (Morton's, on the first three features) or, in
        more dimensions than it sees, leaf by leaf (a k-d tree).  Neighbouring
        queries then walk the same nodes while they are still in the cache, and
        take the same branches.  (Any order gives the same answers; in one to three
        dimensions Morton's was measured faster.)  Batches of fewer than 256
        queries are searched as given."""
        if X.shape[0] < _LOCALITY_MIN_QUERIES:
            return None
        if self._tree.use_boxes and self.n_features > _bnb_tree.MORTON_FEATURES:
            return _bnb_tree.leaf_order(self._tree, X)
        return _bnb_tree.locality_order(X, self._tree.low[0], self._tree.high[0])

    def _within(self, X, r, found, evaluations, max_found):
        return _bnb_tree.radius_search(
            self._tree,
            X,
            *self._metric.radius_limits(r, self.dtype),
            max_found,
            found,
            evaluations,
        )

    def explain(self, x, k=1):
        """The search for one query, step by step: what each rule pruned, and why.

        The rules are those of the tree's partition: rules 1 and 2 of Fukunaga and
        Narendra on a ``partition="kmeans"`` tree (the course's search); the box
        rule on the default k-d tree, plus rules 1 and 2 at its leaves for the
        metrics other than the euclidean.  Repeats the search of ``query`` in
        Python on the same tree, writing down every step: the nodes entered
        (nearest child first), the nodes pruned by their boxes or by rule 1 with
        D(x, M_p), B and r_p at that moment, the samples of each leaf skipped by
        rule 2, every improvement of the k best (and so of B), and every distance
        computed.  The answer and the number of distance evaluations are
        exactly those of ``query(x, k, return_counts=True)``; ``query`` itself is
        untouched.  `patrec.plotting.plot_search` draws the result.

        Parameters
        ----------
        x : array-like of shape (n_features,) or (1, n_features)
            One query point.
        k : int, default=1
            Number of neighbours.

        Returns
        -------
        explanation : SearchExplanation
            Attributes ``indices``, ``distances`` (the answer), ``entered``,
            ``pruned``, ``skipped``, ``bound_updates`` and
            ``distance_evaluations`` (structured arrays, in the order of the
            search); see `patrec.neighbors.SearchExplanation`.

        Notes
        -----
        A Python walk, far slower than ``query``: it is meant for one query at a
        time, to study the algorithm.  Cost: the distances ``query`` computes, each
        through one call of the distance kernel.

        Examples
        --------
        >>> import numpy as np
        >>> from patrec.neighbors import BranchBoundTree
        >>> X = np.random.default_rng(0).uniform(size=(500, 2))
        >>> tree = BranchBoundTree(X, leaf_size=16, random_state=0)
        >>> steps = tree.explain([0.5, 0.5], k=1)
        >>> _, indices, counts = tree.query([[0.5, 0.5]], return_counts=True)
        >>> bool(steps.indices[0] == indices[0, 0])
        True
        >>> bool(len(steps.distance_evaluations) == counts[0] < 500)
        True
        >>> bool(np.all(steps.pruned["distance"] > steps.pruned["bound"]
        ...             + steps.pruned["radius"]))
        True
        """
        x = np.asarray(x) if not hasattr(x, "shape") else x
        if getattr(x, "ndim", 2) == 1:
            x = x.reshape(1, -1)
        x = self._check_query(x)
        if x.shape[0] != 1:
            raise ValueError(f"explain takes one query; x has {x.shape[0]} rows.")
        return explain_search(self, x[0], self._check_k(k))


def build_search_tree(data, metric, partition, branching, leaf_size, seed, log):
    """The compiled tree over ``data`` (validated, mapped for ``metric``; reordered
    in place into the tree order): the partition, then the means, radii, boxes and
    leaf distances of its nodes.  The euclidean k-d tree, searched by its cuts
    alone, skips the measurements (`node_geometry` makes them when asked).
    ``seed`` seeds the k-means splits.  Returns a `SearchTree`."""
    cut = partition_samples(data, partition, branching, leaf_size, seed, log)
    node_start, node_end, node_child, node_nchild = cut.nodes
    n_features = data.shape[1]
    # The box rule belongs to the k-d partition, whose cells are boxes; the k-means
    # tree is searched by the course's two rules alone.
    use_boxes = partition == "kd"
    lean = use_boxes and metric.kind == KINDS["sqeuclidean"]
    low, high = cut.root_low[None, :], cut.root_high[None, :]
    centers = radius = to_center = None
    if not lean:
        started = time.perf_counter()
        centers, radius, low_all, high_all, to_center = measure_nodes(
            data, cut.order, cut.nodes, metric, sort_leaves=True
        )
        if use_boxes:
            low, high = low_all, high_all
        log(
            2,
            f"means, radii and leaf distances measured in "
            f"{time.perf_counter() - started:.2f} s",
        )
    if use_boxes:
        kd_nodes = np.column_stack([node_child, cut.node_dim, node_start, node_end])
        kd_cuts = cut.cuts
        kd_spans = np.zeros_like(kd_cuts)
        _bnb_build.cell_spans(
            node_child, cut.node_dim, kd_cuts, cut.root_low, cut.root_high, kd_spans
        )
    else:
        kd_nodes = np.full((1, 4), -1, dtype=np.intp)
        kd_cuts = np.zeros((1, 2), dtype=data.dtype)
        kd_spans = kd_cuts
    # Rounding margin of the pruning rules (see _bnb_tree.pyx): the distances' own
    # rounding, and the euclidean k-d search's cell bound, a sum of up to
    # n_features + depth terms.
    eps = np.finfo(data.dtype).eps / 2
    slack = (4 * (n_features + 8) + cut.depth) * eps
    return _bnb_tree.make_search_tree(
        {
            "data": data,
            "order": cut.order,
            "to_center": to_center,
            "node_start": node_start,
            "node_end": node_end,
            "node_child": node_child,
            "node_nchild": node_nchild,
            "centers": centers,
            "radius": radius,
            "low": low,
            "high": high,
            "kd_nodes": np.ascontiguousarray(kd_nodes, dtype=np.intp),
            "kd_cuts": kd_cuts,
            "kd_spans": kd_spans,
            "kind": metric.kind,
            "p": metric.p,
            "grow": (1 + slack) / (1 - slack),
            "tiny": n_features * float(np.sqrt(np.finfo(data.dtype).tiny)),
            "use_boxes": use_boxes,
            "depth": cut.depth,
        }
    )


def measure_nodes(data, order, nodes, metric, sort_leaves):
    """The means, radii, bounding boxes and leaf distances of every node
    (compiled, see _bnb_build.pyx): ``(centers, radius, low, high, to_center)``.
    With ``sort_leaves`` each leaf's rows of ``data`` and ``order`` are reordered by
    their distance to the leaf's mean, as rule 2 needs; without it nothing is
    written to them."""
    n_nodes, n_features = len(nodes[0]), data.shape[1]
    centers = np.empty((n_nodes, n_features), dtype=data.dtype)
    radius = np.empty(n_nodes, dtype=np.float64)
    to_center = np.zeros(data.shape[0], dtype=np.float64)
    low = np.empty((n_nodes, n_features), dtype=data.dtype)
    high = np.empty((n_nodes, n_features), dtype=data.dtype)
    _bnb_build.measure_nodes(
        metric,
        data,
        order,
        nodes,
        centers,
        radius,
        low,
        high,
        to_center,
        sort_leaves,
    )
    return centers, radius, low, high, to_center


def node_geometry(tree):
    """Every node's mean, radius and bounding box, and each sample's distance to
    its leaf's mean (in tree order) of a `BranchBoundTree`, as a `NodeGeometry`.

    For `BranchBoundTree.explain`, `patrec.plotting.plot_search` and the tests:
    what the compiled tree holds is read from it (the search's own values); the
    rest (the boxes of a k-means tree, everything of the lean euclidean k-d tree)
    is measured once and kept."""
    compiled = tree._tree
    nodes = tuple(
        np.ascontiguousarray(array)  # (the lean tree's are columns of kd_nodes)
        for array in (
            compiled.node_start,
            compiled.node_end,
            compiled.node_child,
            compiled.node_nchild,
        )
    )
    boxes = compiled.low.shape[0] == len(nodes[0])
    if compiled.centers is not None and boxes:  # (the k-d tree of other metrics)
        return NodeGeometry(
            compiled.centers,
            compiled.radius,
            compiled.low,
            compiled.high,
            compiled.to_center,
        )
    geometry = tree.__dict__.get("_geometry")
    if geometry is None:
        measured = measure_nodes(
            compiled.data, compiled.order, nodes, tree._metric, False
        )
        if compiled.centers is not None:  # the search's own (a k-means tree)
            measured = (
                (compiled.centers, compiled.radius)
                + measured[2:4]
                + (compiled.to_center,)
            )
        geometry = tree._geometry = NodeGeometry(*measured)
    return geometry


class NodeGeometry(NamedTuple):
    """What `node_geometry` returns: per node its mean ``centers``, ``radius``
    r_p and bounding box ``low`` .. ``high``; per sample (tree order) its distance
    ``to_center`` to its leaf's mean."""

    centers: np.ndarray
    radius: np.ndarray
    low: np.ndarray
    high: np.ndarray
    to_center: np.ndarray


class Partition(NamedTuple):
    """What `partition_samples` returns (see there)."""

    order: np.ndarray
    nodes: tuple
    depth: int
    node_dim: np.ndarray
    cuts: np.ndarray
    root_low: np.ndarray
    root_high: np.ndarray


def partition_samples(data, partition, branching, leaf_size, seed, log):
    """Split the samples into the tree's nodes (compiled, see _bnb_build.pyx),
    reordering ``data`` in place.  Returns a `Partition`: the tree order, the four
    node arrays (start, end, first child, number of children), the depth, and what
    the euclidean k-d search reads: each node's cut feature (-1 at a leaf and at a
    k-means cut), each node's interval in its parent's cut feature, and the box of
    all samples.

    The one builder of a tree's shape: `build_search_tree` and the condensing
    store (`patrec.neighbors.editing._store`) both start here.  ``log`` is a
    `Reporter` (or any ``log(level, message)``)."""
    n_samples, n_features = data.shape
    order = np.arange(n_samples, dtype=np.intp)
    kmeans = partition == "kmeans"
    if kmeans:  # k-means may cut off clusters of one sample
        capacity = 2 * n_samples + 1
    else:  # parts of at least a quarter of a node over leaf_size samples
        capacity = 2 * (n_samples // max(1, (leaf_size + 1) // 4) + 1)
    arrays = [np.zeros(capacity, dtype=np.intp) for _ in range(5)]
    cuts = np.zeros((1 if kmeans else capacity, 2), dtype=data.dtype)
    root_low, root_high = np.zeros((2, n_features), dtype=data.dtype)
    started = time.perf_counter()
    n_nodes, depth = _bnb_build.partition(
        data,
        order,
        leaf_size,
        kmeans,
        branching,
        seed,
        arrays,
        cuts,
        (root_low, root_high),
    )
    log(
        2,
        f"{'k-means' if kmeans else 'k-d'} partition: {n_nodes} nodes, depth {depth}, in "
        f"{time.perf_counter() - started:.2f} s",
    )
    if n_nodes < capacity:  # (copies, so the unused rest is freed)
        arrays = [a[:n_nodes].copy() for a in arrays]
        cuts = cuts if kmeans else cuts[:n_nodes].copy()
    return Partition(
        order, tuple(arrays[:4]), depth, arrays[4], cuts, root_low, root_high
    )
