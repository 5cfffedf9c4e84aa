"""What every nearest-neighbour index shares.

`NeighborIndex` keeps the training samples (mapped once into the space where the
distance kernels apply, see `Metric.prepare`), validates queries and ``k`` and turns
the kernels' reduced distances into true distances.  `BruteForce` and
`BranchBoundTree` derive from it and only implement ``_kneighbors``; which of them
a search uses is chosen in `patrec.neighbors.search._auto`.

Dtype rule: the training set keeps its dtype (float32 or float64) and queries are
cast to it, so float32 training data is searched with float32 kernels throughout.
"""

import numbers

import numpy as np

from ..._parallel import run_row_ranges
from ..._validation import check_scalar, check_X
from .metrics import Metric

__all__ = ["NeighborIndex", "prepare_rows", "without_self"]


class NeighborIndex:
    """Base class of the search structures (not an estimator: it has no ``fit``)."""

    def __init__(self, X, metric="euclidean", p=2, metric_params=None):
        X = check_X(X)
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self._metric = Metric(metric, p, metric_params, n_features=X.shape[1])
        # Own a private copy: the caller may change X afterwards.
        prepared = self._prepare(X)
        if prepared is X:
            prepared = prepared.copy()
        self._data = np.ascontiguousarray(prepared)

    @property
    def n_samples(self):
        """Number of training samples."""
        return self._data.shape[0]

    @property
    def n_features(self):
        """Number of features of the training samples."""
        return self._data.shape[1]

    @property
    def dtype(self):
        """The training data's dtype: float32 or float64."""
        return self._data.dtype

    def _check_query(self, X):
        X = check_X(X, min_samples=0)
        if X.shape[1] != self.n_features:
            raise ValueError(
                f"X has {X.shape[1]} features, but the index was built on "
                f"{self.n_features} features."
            )
        return np.ascontiguousarray(self._prepare(X.astype(self.dtype, copy=False)))

    def _prepare(self, X):
        return prepare_rows(self._metric, X)

    def _check_k(self, k):
        check_scalar(k, "k", numbers.Integral, low=1)
        if k > self.n_samples:
            raise ValueError(
                f"k={k} neighbours were asked for, but the index holds only "
                f"{self.n_samples} training sample(s); k must be <= {self.n_samples}."
            )
        return int(k)

    def query(self, X, k=1, return_distance=True, return_counts=False, n_jobs=None):
        """Find the ``k`` nearest training samples of each row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features)
            Query points (zero rows allowed).  Cast to the training data's dtype.
        k : int, default=1
            Number of neighbours, ``1 <= k <= n_samples``.
        return_distance : bool, default=True
            Also return the distances.
        return_counts : bool, default=False
            Also return, per query, the number of distance evaluations made (to
            samples and, in a tree, to node means); brute force makes ``n_samples``
            (1 for a query it looks up, see `BruteForce`).
        n_jobs : int, default=None
            Threads over ranges of query rows; ``-1`` uses every core.

        Returns
        -------
        distances : ndarray of shape (n_queries, k)
            Distances to the neighbours, ascending (only when ``return_distance``).
        indices : ndarray of shape (n_queries, k), dtype intp
            Training-set indices of the neighbours.  Equal distances are ordered by
            the lower training index first, whatever the search method.
        counts : ndarray of shape (n_queries,), dtype intp
            Distance evaluations per query (only when ``return_counts``).
        """
        distances, indices, counts = self._query(X, k, n_jobs, count=return_counts)
        result = (distances, indices) if return_distance else (indices,)
        if return_counts:
            result += (counts,)
        return result[0] if len(result) == 1 else result

    def _query(self, X, k, n_jobs, count=False, training=False):
        """Validated k-NN search: (distances, indices, evaluations or None).

        With ``training=True`` (and ``X=None``) the queries are the training samples
        themselves, each of which finds itself among its neighbours.
        """
        X = self._training_rows() if training else self._check_query(X)
        return self._search_all(X, self._check_k(k), n_jobs, count)

    def _search_all(self, X, k, n_jobs, count):
        """Search prepared queries ``X`` on ``n_jobs`` threads: (distances, indices,
        evaluations or None)."""
        distances = np.empty((X.shape[0], k), dtype=self.dtype)
        indices = np.empty((X.shape[0], k), dtype=np.intp)
        evaluations = np.zeros(X.shape[0], dtype=np.intp) if count else None

        def rows(start, stop):
            self._kneighbors(
                X[start:stop],
                distances[start:stop],
                indices[start:stop],
                None if evaluations is None else evaluations[start:stop],
            )

        run_row_ranges(rows, X.shape[0], n_jobs)
        self._metric.check_finite(distances)  # overflow: a clear error, not ties
        return self._metric.finish(distances), indices, evaluations

    def query_others(self, k, n_jobs=None):
        """The ``k`` nearest *other* training samples of every training sample.

        Each sample is searched among all training samples and then dropped from its
        own neighbours; should ``k + 1`` duplicates of it with lower indices hide it,
        the farthest of the ``k + 1`` is dropped instead, so exactly ``k`` remain.

        Returns
        -------
        distances : ndarray of shape (n_samples, k)
        indices : ndarray of shape (n_samples, k), dtype intp
        """
        check_scalar(k, "k", numbers.Integral, low=1)
        if k >= self.n_samples:
            raise ValueError(
                f"{k} neighbours of each training sample were asked for, but only "
                f"{self.n_samples - 1} other training samples exist."
            )
        distances, indices, _ = self._query(None, k + 1, n_jobs, training=True)
        return without_self(distances, indices)

    def _training_rows(self):
        """The prepared training samples in their original order."""
        return self._data

    def _kneighbors(self, X, distances, indices, evaluations):
        """Fill ``distances`` (reduced) and ``indices`` for prepared queries ``X``,
        and ``evaluations`` (the distance evaluations per query) unless it is None."""
        raise NotImplementedError

    def __getstate__(self):
        return self.__dict__.copy()

    def __setstate__(self, state):
        self.__dict__.update(state)


def prepare_rows(metric, X):
    """Rows of ``X`` mapped for the kernels of `Metric` ``metric`` (only mahalanobis
    moves them); a clear error when the map overflows."""
    if metric.transform is None:
        return X
    with np.errstate(over="ignore", invalid="ignore"):
        mapped = metric.prepare(X)
    if not np.isfinite(mapped).all():
        raise ValueError(
            f"Mapping the data for the {metric.name} distance overflows "
            f"{mapped.dtype}: the data values (or VI) are too large. Rescale the "
            "data first."
        )
    return mapped


def without_self(distances, indices):
    """Drop each row's own index (row i: index i) from its k + 1 neighbours; where
    duplicates with lower indices hid it, drop the farthest instead."""
    k = indices.shape[1] - 1
    itself = indices == np.arange(len(indices))[:, None]
    itself[~itself.any(axis=1), -1] = True
    keep = ~itself
    return distances[keep].reshape(-1, k), indices[keep].reshape(-1, k)
