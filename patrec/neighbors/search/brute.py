"""Exact brute-force nearest-neighbour search.

The query is compared with every training sample: O(n_queries * n_train * n_features)
time and, here, O(block size) extra memory; a radius query returns every sample
within the radius, exactly as the tree's.  For the euclidean-type metrics
(euclidean, sqeuclidean, mahalanobis after its linear map) the bulk of the distances
comes from a matrix product (BLAS GEMM) and every candidate that could matter is
re-checked with a directly computed distance, so the answer is exactly the direct
method's.  The loops live in ``_brute.pyx``.
"""

import threading

import numpy as np

from ..._parallel import single_thread_blas
from . import _brute, _distances
from ._equal_rows import EqualRows
from ._index import NeighborIndex

__all__ = ["BruteForce"]

# float64 data with at least this many features are GEMM-filtered in float32: sgemm
# and a float32 block halve the GEMM's time and memory traffic, while the k-th
# distance stays far above float32's rounding bound next to the norms (with fewer
# features it need not: many more re-checks)
_FLOAT32_FILTER_FEATURES = 8
# the GEMM filter's dtype must hold the training norms times this (no overflow)
_NORM_HEADROOM = 64
# From this many queries with k = 1, the first few are searched on their own; when at
# least a quarter of them are training samples (distance 0), the others are looked up
# by hash first (_equal_rows.py); a wrong guess costs only those queries' own pass.
# Once a call has built the lookup table, later calls look every query up first,
# cheaper than the 16 queries' pass at a million samples.
_LOOKUP_MIN_QUERIES = 4096
_FIRST_QUERIES = 16
_EQUAL_SHARE = 0.25
_lookup_lock = threading.Lock()  # one thread builds the lookup table
# query_radius holds at most this many distances at once (32 MiB in float64)
_RADIUS_BLOCK = 1 << 22


class BruteForce(NeighborIndex):
    """Exact k-nearest-neighbour search by comparing with every training sample.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training samples (copied).  float32 data are searched in float32.
    metric : str, default="euclidean"
        One of `patrec.neighbors.METRICS`.
    p : float, default=2
        Minkowski order (``p >= 1``) for ``metric="minkowski"``.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``.

    Notes
    -----
    Each query keeps its k best candidates in a bounded heap, ordered by distance
    and, for equal distances, by the lower training index, so the selection costs
    O(log k) per improving candidate rather than a sort of a whole row.  Queries are
    processed in blocks against chunks of the training set, so memory never grows
    with ``n_queries * n_samples``.

    For the euclidean-type metrics a block of distances is first obtained from
    ``|q|^2 + |t|^2 - 2 q.t`` (one GEMM call, data centred at the training mean).
    That formula loses accuracy by cancellation when distances are small next to the
    norms; it is therefore only a filter: every candidate whose GEMM value lies within
    a rounding-error bound of the current k-th best distance is re-computed directly,
    and only direct distances are kept.  The filter runs in float32 (``sgemm``) for
    float32 data and for float64 data with 8 or more features, in float64
    (``dgemm``) otherwise.  The GEMM runs one BLAS thread per search thread
    (``n_jobs`` sets their number) when threadpoolctl is installed; without it, BLAS
    runs as many threads as it is configured to (``OPENBLAS_NUM_THREADS``).

    Queries that equal a training sample, searched for ``k=1`` (the resubstitution
    error of a 1-NN rule, say), need no comparison with the other samples: from
    4 096 queries on, when a quarter of the first 16 turn out to be training
    samples, the others are looked up in a hash table of the training rows,
    O(d + log n) each, and only those not found are searched; once a call has built
    the table, later calls of that size look every query up first.  The answers are
    the search's, ties included (``return_counts`` gives 1 for a query looked up, so
    the counts, unlike the answers, can differ between a first call and later ones).

    ``query_radius`` computes each query's distances to all training samples with
    the direct kernel (the one the tree's leaves use), in blocks of at most 4 194 304
    distances, and keeps those within the radius: the same answers as
    `BranchBoundTree.query_radius`, distances included.

    Some of SciPy's ``cKDTree`` names work too (``n``, ``m``, ``data``,
    ``query_ball_point``, a 1-D query point; see the migration guide), but this is
    not a drop-in ``cKDTree``: ``query`` answers 2-D queries in scikit-learn's
    shape, ``(n_queries, k)`` even for ``k=1``, where ``cKDTree`` answers
    ``(n_queries,)``.  An index used with those names warns of it
    once.

    See Also
    --------
    BranchBoundTree : the same answers with far fewer distances in low dimension.

    Examples
    --------
    >>> from patrec.neighbors import BruteForce
    >>> index = BruteForce([[0, 0], [1, 0], [3, 0]])
    >>> distances, indices = index.query([[0.9, 0]], k=2)
    >>> indices
    array([[1, 0]])
    >>> distances.round(3)
    array([[0.1, 0.9]])
    >>> index.query_radius([[0.9, 0]], r=1.0)[0]
    array([1, 0])
    """

    def __init__(self, X, metric="euclidean", p=2, metric_params=None):
        super().__init__(X, metric, p, metric_params)
        self._lookup = None  # the EqualRows table, built when queries need it
        self._use_gemm = self._metric.kind == _distances.KINDS["sqeuclidean"]
        if self._use_gemm:
            self._prepare_gemm_filter()

    def _prepare_gemm_filter(self):
        """Centre the training set and choose the dtype the GEMM filter runs in.

        float32 for float32 data, and also for float64 data with many features,
        where the GEMM dominates and sgemm is twice as fast as dgemm (the float64
        re-check keeps the answer exact) -- unless the squared norms come near the
        dtype's largest number, where the filter would overflow: then the next wider
        dtype, or no filter at all.
        """
        data = self._data
        with np.errstate(over="ignore"):  # too large data gets no filter below
            center = data.mean(axis=0, dtype=np.float64).astype(data.dtype)
        with np.errstate(over="ignore"):
            centered = data - center
            largest = float(
                np.einsum("ij,ij->i", centered, centered, dtype=np.float64).max(
                    initial=0
                )
            )
        candidates = [np.float32] if data.dtype == np.float32 else [np.float64]
        if data.dtype == np.float64 and data.shape[1] >= _FLOAT32_FILTER_FEATURES:
            candidates.insert(0, np.float32)
        fitting = [
            dtype
            for dtype in candidates
            if largest <= float(np.finfo(dtype).max) / _NORM_HEADROOM
        ]
        if not fitting:
            self._use_gemm = False  # direct distances (overflow is reported later)
            return
        self._center = center.astype(np.float64)
        self._centered = centered.astype(fitting[0], copy=False)
        self._sqnorms = np.einsum("ij,ij->i", self._centered, self._centered)

    # The GEMM filter's centred copy of the training set is rebuilt on unpickling,
    # so a pickle holds the training data once (and the lookup table when needed).
    _DERIVED = ("_center", "_centered", "_sqnorms", "_lookup")

    def __getstate__(self):
        state = super().__getstate__()
        for name in self._DERIVED:
            state.pop(name, None)
        return state

    def __setstate__(self, state):
        super().__setstate__(state)
        self._lookup = None
        if self._use_gemm:
            self._prepare_gemm_filter()

    def _search_all(self, X, k, n_jobs, count):
        # (not for minkowski: |a - b| ** p of distinct values may underflow to 0)
        if (
            k > 1
            or len(X) < _LOOKUP_MIN_QUERIES
            or self._metric.kind == _distances.KINDS["minkowski"]
        ):
            return super()._search_all(X, k, n_jobs, count)
        if self._lookup is not None:
            return self._look_up(X, n_jobs, count)
        first = super()._search_all(X[:_FIRST_QUERIES], k, None, count)
        rest = X[_FIRST_QUERIES:]
        if np.count_nonzero(first[0] == 0) >= _EQUAL_SHARE * _FIRST_QUERIES:
            rest = self._look_up(rest, n_jobs, count)
        else:
            rest = super()._search_all(rest, k, n_jobs, count)
        return tuple(
            None if head is None else np.concatenate((head, tail))
            for head, tail in zip(first, rest)
        )

    def _look_up(self, X, n_jobs, count):
        """The nearest neighbour of each query: looked up where the query is a
        training sample, searched elsewhere (as `_search_all` returns it)."""
        with _lookup_lock:
            if self._lookup is None:
                self._lookup = EqualRows(self._data)
        found = self._lookup.find(X)
        others = np.flatnonzero(found < 0)
        searched = super()._search_all(X[others], 1, n_jobs, count)
        distances = np.zeros((len(X), 1), dtype=self.dtype)
        indices = found[:, None].copy()
        # (a query looked up was compared with one training sample)
        evaluations = np.ones(len(X), dtype=np.intp) if count else None
        for result, part in zip((distances, indices, evaluations), searched):
            if result is not None:
                result[others] = part
        return distances, indices, evaluations

    def _within(self, X, r, found, evaluations, max_found):
        # One row of reduced distances per query (the kernel the tree's leaves use),
        # in blocks of queries of at most _RADIUS_BLOCK distances.
        limit = self._metric.radius_limits(r, self.dtype)[1]
        block = max(1, _RADIUS_BLOCK // max(self.n_samples, 1))
        indices, reduced, n_found = [], [], 0
        for start in range(0, X.shape[0], block):
            D = self._metric.reduced(X[start : start + block], self._data)
            D = D.astype(np.float64, copy=False)  # compared in double, as the tree
            within = D <= limit
            n_found += int(np.count_nonzero(within))
            if n_found > max_found:
                return None
            rows, columns = np.nonzero(within)
            values = D[rows, columns]
            order = np.lexsort((columns, values, rows))
            indices.append(columns[order])
            reduced.append(values[order])
            found[start : start + block] = np.bincount(rows, minlength=len(D))
        evaluations[:] = self.n_samples
        if not indices:
            return np.empty(0, dtype=np.intp), np.empty(0)
        return np.concatenate(indices), np.concatenate(reduced)

    def _kneighbors(self, X, distances, indices, evaluations):
        self._search(X, distances, indices)
        if evaluations is not None:
            evaluations[:] = self.n_samples

    def _search(self, X, distances, indices):
        """Search every training sample for the rows of ``X``."""
        if self._use_gemm:
            with single_thread_blas():
                _brute.knn_gemm(
                    X,
                    self._data,
                    self._centered,
                    self._sqnorms,
                    self._center,
                    distances,
                    indices,
                )
        else:
            _brute.knn_direct(
                self._metric.kind, self._metric.p, X, self._data, distances, indices
            )
