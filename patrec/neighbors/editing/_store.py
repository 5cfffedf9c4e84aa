"""A store of samples that grows, and the nearest stored sample of any sample.

`GrowingStore` holds a k-d tree built once over *all* the samples of a data set, of
which only the stored ones are searched (the loops and the design are in
``_condense.pyx``).  Its shape is the k-d partition of the branch-and-bound tree's
builder (`patrec.neighbors.search.tree.partition_samples`).  Hart's condensing adds
samples as it goes; multi-edit stores one subset, searches another, empties the
store and starts again.  Nearest means the
smallest reduced distance, ties to the sample stored first (the lowest rank), so a
store filled in index order breaks ties like `BruteForce` (lower index first).
"""

from types import SimpleNamespace

import numpy as np

from ..._parallel import effective_n_jobs, run_row_ranges
from ..._progress import Reporter
from ..search._index import prepare_rows
from ..search.tree import partition_samples
from . import _condense

__all__ = ["GrowingStore"]

# The k-d tree's leaves hold at most this many samples.
_LEAF_SIZE = 8
# A batch of searches is split over threads only from this many samples on.
_THREADED_BATCH = 256


class GrowingStore:
    """The samples of ``X`` (validated), a store of some of them, and searches.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Validated data (float32 or float64), mapped here for ``metric``.
    metric : Metric
    n_jobs : int or None
        Threads of `search`.
    use_tree : bool, default=True
        False: no tree; a search compares each sample directly with the samples
        stored since its last search (better in high dimension, where a tree
        prunes little).

    Attributes
    ----------
    store : ndarray of shape (n_samples,)
        ``store[:size]`` are the stored samples, in the order they were stored.
    best, best_rank : ndarray of shape (n_samples,)
        Per sample, the reduced distance to and the rank of its nearest stored
        sample as last searched (``inf`` and -1 before).
    """

    def __init__(self, X, metric, n_jobs=None, use_tree=True):
        data = np.ascontiguousarray(prepare_rows(metric, X))
        corners = np.stack((data.min(axis=0), data.max(axis=0)))
        metric.check_finite(metric.reduced(corners[:1], corners[1:]))  # no overflow
        self.data, self.metric, self.use_tree = data, metric, use_tree
        self.stored_rows = np.empty_like(data)
        self.n_threads = effective_n_jobs(n_jobs)
        n_samples = data.shape[0]
        self.tree = _store_tree(data) if use_tree else None
        self.store = np.empty(n_samples, dtype=np.intp)
        self.rank_of = np.empty(n_samples, dtype=np.intp)
        self.best = np.empty(n_samples)
        self.best_rank = np.empty(n_samples, dtype=np.intp)
        self.checked = np.empty(n_samples, dtype=np.intp)
        self.clear()
        self.view = _condense.Store(self)  # the loops' C view of all the above

    def clear(self):
        """Empty the store (the tree keeps its shape) and forget every search."""
        self.size = 0
        if self.tree is not None:
            self.tree.count[:] = 0
            self.tree.box_low[:] = np.inf
            self.tree.box_high[:] = -np.inf
        self.rank_of[:] = -1
        self.best[:] = np.inf
        self.best_rank[:] = -1
        self.checked[:] = 0

    def add(self, samples):
        """Store ``samples`` (not yet stored), in this order."""
        start, stop = self.size, self.size + samples.shape[0]
        self.store[start:stop] = samples
        self.rank_of[samples] = np.arange(start, stop)
        self._insert(start, stop)

    def _insert(self, start, stop):
        samples = self.store[start:stop]
        self.stored_rows[start:stop] = self.data[samples]
        self.size = stop
        if not self.use_tree:
            return
        if samples.shape[0] > _THREADED_BATCH:  # in tree order: fewer cache misses
            samples = samples[np.argsort(self.tree.position[samples])]
        _condense.insert(self.view, samples)

    def search(self, samples):
        """Bring ``best``/``best_rank`` of ``samples`` up to date with the store."""

        def rows(lo, hi):
            if not self.use_tree:
                _condense.catch_up_batch(self.view, samples[lo:hi], self.size)
                return
            _condense.query_batch(self.view, samples[lo:hi], self.size)

        if self.n_threads > 1 and samples.shape[0] >= _THREADED_BATCH:
            run_row_ranges(rows, samples.shape[0], self.n_threads)
        else:
            rows(0, samples.shape[0])
        self._check_resolved(
            samples, self.best[samples, None], self.best_rank[samples, None]
        )

    def kneighbors(self, samples, k):
        """The ``k`` nearest stored samples of each of ``samples``: (reduced
        distances, ranks), best first (equal distances: lower rank first)."""
        distances = np.empty((samples.shape[0], k), dtype=self.data.dtype)
        ranks = np.empty((samples.shape[0], k), dtype=np.intp)

        def rows(lo, hi):
            _condense.knn_batch(
                self.view, samples[lo:hi], distances[lo:hi], ranks[lo:hi]
            )

        run_row_ranges(
            rows,
            samples.shape[0],
            self.n_threads if samples.shape[0] >= _THREADED_BATCH else 1,
        )
        self._check_resolved(samples, distances, ranks, ascending=True)
        return distances, ranks

    def _check_resolved(self, samples, reduced, ranks, ascending=False):
        """Distinct samples found at distance 0 are an underflow, reported as the
        searches report it (`Metric.check_resolved`): ``reduced[i, j]`` is the
        distance from sample ``samples[i]`` to the stored sample of rank
        ``ranks[i, j]``."""
        self.metric.check_resolved(
            reduced,
            lambda rows, columns: (
                self.data[samples[rows]] == self.stored_rows[ranks[rows, columns]]
            ).all(axis=1),
            ascending,
            self.data.dtype,
        )

    def nearest(self, samples):
        """The nearest stored sample of each of ``samples`` (a fresh search)."""
        self.best[samples] = np.inf
        self.best_rank[samples] = -1
        self.checked[samples] = 0
        # searched in tree order, neighbouring samples one after another
        self.search(samples[np.argsort(self.tree.position[samples])])
        return self.store[self.best_rank[samples]]

    def hart_batch(self, samples, codes):
        """Hart's rule over ``samples`` in order (`search` must have run on them):
        each sample whose nearest stored sample has another code is stored.
        Returns the number stored."""
        start = self.size
        stop = _condense.resolve_batch(self.view, codes, samples, start)
        self._insert(start, stop)
        return stop - start


def _store_tree(data):
    """The store's k-d tree over all rows of ``data`` (prepared rows), with
    nothing stored yet: its arrays (what `_condense.Store` reads) and its pruning
    margins ``grow`` and ``tiny``."""
    n_samples, n_features = data.shape
    scratch = data.copy()  # (the partition reorders the rows it is given)
    cut = partition_samples(
        scratch, "kd", 2, _LEAF_SIZE, 0, Reporter("GrowingStore", 0)
    )
    order, (node_start, node_end, node_child, node_nchild) = cut.order, cut.nodes
    del scratch
    inner = node_nchild > 0
    node_left = np.where(inner, node_child, -1)
    parent = np.full(len(node_start), -1, dtype=np.intp)
    parents = np.flatnonzero(inner)
    parent[node_child[parents]] = parents
    parent[node_child[parents] + 1] = parents
    leaves = np.flatnonzero(~inner)
    leaves = leaves[np.argsort(node_start[leaves])]
    leaf_of = np.empty(n_samples, dtype=np.intp)
    leaf_of[order] = np.repeat(leaves, node_end[leaves] - node_start[leaves])
    position = np.empty(n_samples, dtype=np.intp)
    position[order] = np.arange(n_samples)
    # rounding margin of the pruning test (see _condense.pyx)
    slack = 8 * (n_features + 8) * np.finfo(data.dtype).eps / 2
    return SimpleNamespace(
        perm=order,
        position=position,
        node_start=node_start,
        node_left=node_left,
        parent=parent,
        leaf_of=leaf_of,
        count=np.zeros(len(node_start), dtype=np.intp),
        box_low=np.empty((len(node_start), n_features), dtype=data.dtype),
        box_high=np.empty((len(node_start), n_features), dtype=data.dtype),
        grow=(1 + slack) / (1 - slack),
        tiny=8 * (n_features + 8) * float(np.finfo(data.dtype).tiny),
    )
